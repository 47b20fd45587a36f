import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'

/** The web UI's search page and the CLI's scroll, on DataHub's example data. */

const HIVE = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const HIVE_DATASETS = ['SampleHiveDataset', 'fct_users_created', 'fct_users_deleted', 'logging_events'].map(
  HIVE,
)

async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  t.equal(res.statusCode, 200)
  return JSON.parse(res.body)
}

const AGGREGATE = /* GraphQL */ `
  query aggregate($input: AggregateAcrossEntitiesInput!) {
    aggregateAcrossEntities(input: $input) { facets { field displayName aggregations { value count entity { urn } } } }
  }
`

t.test(
  'aggregateAcrossEntities and getEntityCounts: facets and counts, entity types as EntityType symbols',
  async (t) => {
    const { app } = await build(t)
    await ingestExamples(app, 'bootstrap')
    const all = await gql(app, AGGREGATE, { input: { query: '*', facets: ['_entityType', 'platform'] } })
    t.notOk(all.errors)
    const facets = all.data.aggregateAcrossEntities.facets
    t.same(
      facets.map((f: Json) => f.field),
      ['platform', '_entityType'],
      'only the facets asked for',
    )
    t.same(facets[0].aggregations[0], {
      value: 'urn:li:dataPlatform:hive',
      count: 6,
      entity: { urn: 'urn:li:dataPlatform:hive' },
    })
    const types = new Map(facets[1].aggregations.map((a: Json) => [a.value, a.count]))
    t.equal(facets[1].displayName, 'Type')
    t.equal(types.get('DATASET'), 7, '_entityType values are EntityType symbols, as DataHub maps them')
    t.equal(types.get('MLFEATURE'), 20)
    t.notOk(types.has('dataset'))

    // The UI filters on a facet value it was given: `_entityType` = DATASET.
    const datasets = await gql(app, AGGREGATE, {
      input: {
        query: '*',
        facets: ['platform'],
        orFilters: [{ and: [{ field: '_entityType', values: ['DATASET'] }] }],
      },
    })
    t.same(
      datasets.data.aggregateAcrossEntities.facets[0].aggregations.map((a: Json) => [a.value, a.count]),
      [
        ['urn:li:dataPlatform:hive', 4],
        ['urn:li:dataPlatform:hdfs', 1],
        ['urn:li:dataPlatform:kafka', 1],
        ['urn:li:dataPlatform:s3', 1],
      ],
    )

    const counts = await gql(
      app,
      '{ getEntityCounts(input: { types: [DATASET, CHART, MLMODEL_GROUP] }) { counts { entityType count } } }',
    )
    t.same(counts.data.getEntityCounts.counts, [
      { entityType: 'DATASET', count: 7 },
      { entityType: 'CHART', count: 2 },
      { entityType: 'MLMODEL_GROUP', count: 0 },
    ])
    const view = await gql(
      app,
      '{ getEntityCounts(input: { viewUrn: "urn:li:dataHubView:x" }) { counts { count } } }',
    )
    t.notOk(view.errors, 'a view that does not exist is ignored, as DataHub does')
  },
)

t.test('autoCompleteForMultiple and autoComplete: suggestions per type, empty types left out', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const multiple = await gql(
    app,
    'query a($input: AutoCompleteMultipleInput!) { autoCompleteForMultiple(input: $input) { query suggestions { type suggestions entities { urn type } } } }',
    { input: { query: 'Sample', limit: 10 } },
  )
  t.notOk(multiple.errors)
  t.same(multiple.data.autoCompleteForMultiple, {
    query: 'Sample',
    suggestions: [
      {
        type: 'DATASET',
        // In the order the index ranks the three equal prefix matches: shorter names first.
        suggestions: ['SampleHdfsDataset', 'SampleHiveDataset', 'SampleKafkaDataset'],
        entities: [
          { urn: 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)', type: 'DATASET' },
          { urn: HIVE('SampleHiveDataset'), type: 'DATASET' },
          { urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)', type: 'DATASET' },
        ],
      },
    ],
  })
  const one = await gql(
    app,
    'query a($input: AutoCompleteInput!) { autoComplete(input: $input) { query suggestions entities { urn } } }',
    { input: { type: 'DATASET', query: 'fct', limit: 1 } },
  )
  t.same(one.data.autoComplete.suggestions.length, 1, 'limit honoured')
  t.match(one.data.autoComplete.suggestions[0], /^fct_users_/)
  const blank = await gql(app, '{ autoComplete(input: { type: DATASET, query: " " }) { query } }')
  t.equal(blank.errors[0].message, "'query' parameter can not be null or empty")
  const untyped = await gql(app, '{ autoComplete(input: { query: "x" }) { query } }')
  t.match(untyped.errors[0].message, /needs an entity type/)
})

t.test('search: one entity type with filters', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const res = await gql(
    app,
    'query s($input: SearchInput!) { search(input: $input) { start count total searchResults { entity { urn } } } }',
    {
      input: {
        type: 'DATASET',
        query: '*',
        count: 10,
        orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }],
      },
    },
  )
  t.notOk(res.errors)
  t.match(res.data.search, { start: 0, count: 4, total: 4 })
  t.same(res.data.search.searchResults.map((r: Json) => r.entity.urn).sort(), [...HIVE_DATASETS].sort())
})

/** `DataHubGraph.get_urns_by_filter`'s query, verbatim (what `datahub delete --platform` runs). */
const SCROLL_URNS = `
query scrollUrnsWithFilters(
    $types: [EntityType!],
    $query: String!,
    $orFilters: [AndFilterInput!],
    $batchSize: Int!,
    $scrollId: String) {

    scrollAcrossEntities(input: {
        query: $query,
        count: $batchSize,
        scrollId: $scrollId,
        types: $types,
        orFilters: $orFilters,
        searchFlags: {
            skipHighlighting: true
            skipAggregates: true
        }
    }) {
        nextScrollId
        searchResults {
            entity {
                urn
            }
        }
    }
}
`

/** The client's loop: ask again with `nextScrollId` until it is null. */
async function scrollAll(app: CatalogServer, variables: Json): Promise<{ urns: string[]; pages: number }> {
  const urns: string[] = []
  let scrollId: string | null = null
  let pages = 0
  do {
    const body = await gql(app, SCROLL_URNS, { ...variables, scrollId })
    t.notOk(body.errors)
    pages++
    scrollId = body.data.scrollAcrossEntities.nextScrollId
    urns.push(...body.data.scrollAcrossEntities.searchResults.map((r: Json) => r.entity.urn))
  } while (scrollId && pages < 50)
  return { urns, pages }
}

t.test('scrollAcrossEntities: datahub delete --platform hive finds the live hive entities', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  // One hive dataset soft-deleted first: the CLI's default status filter leaves it out.
  const removed = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: HIVE('logging_events'),
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { contentType: 'application/json', value: '{"removed":true}' },
    },
  })
  t.equal(removed.status, 200)
  // generate_filter(platform="hive", status=NOT_SOFT_DELETED), as the client builds it.
  const platformFilter = [
    {
      and: [
        { field: 'platform.keyword', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'] },
        { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
      ],
    },
  ]
  const live = await scrollAll(app, { types: null, query: '*', orFilters: platformFilter, batchSize: 2 })
  const hiveContainers = ['urn:li:container:DATABASE', 'urn:li:container:SCHEMA']
  t.same(
    live.urns.sort(),
    [...hiveContainers, ...HIVE_DATASETS.filter((u) => !u.includes('logging_events'))].sort(),
  )
  t.equal(live.pages, 3, 'five hits (two hive containers, three datasets) in pages of two')

  // --query narrows it; --entity-type dataset is types: [DATASET].
  const queried = await scrollAll(app, {
    types: ['DATASET'],
    query: 'fct_users',
    orFilters: platformFilter,
    batchSize: 10000,
  })
  t.same(queried.urns.sort(), [HIVE('fct_users_created'), HIVE('fct_users_deleted')])
  t.equal(queried.pages, 1)

  // status=ONLY_SOFT_DELETED (datahub delete --only-soft-deleted).
  const soft = await scrollAll(app, {
    types: null,
    query: '*',
    orFilters: [
      {
        and: [
          { field: 'platform.keyword', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'] },
          { field: 'removed', condition: 'EQUAL', values: ['true'] },
        ],
      },
    ],
    batchSize: 10,
  })
  t.same(soft.urns, [HIVE('logging_events')])

  const bad = await gql(app, SCROLL_URNS, { query: '*', batchSize: 2, scrollId: 'not-a-scroll-id' })
  t.equal(bad.errors[0].message, 'Invalid scrollId: not-a-scroll-id')
  t.same(bad.data, { scrollAcrossEntities: null })
})
