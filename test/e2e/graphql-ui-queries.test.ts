import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json } from '../helpers/build.js'

/** The web UI's core queries (search, an entity page) on DataHub's example data. */

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'

async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  t.equal(res.statusCode, 200)
  return JSON.parse(res.body)
}

const SEARCH = /* GraphQL */ `
  query getSearchResultsForMultiple($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) {
      start
      count
      total
      searchResults {
        entity { urn type ... on Dataset { name platform { name } } ... on CorpUser { username } }
        matchedFields { name value }
      }
      facets { field displayName aggregations { value count entity { urn type } } }
    }
  }
`

t.test('searchAcrossEntities: hits, matched fields, facets and filters', async (t) => {
  const { app } = await build(t)
  // Search reads its writes: the examples are searchable once ingested (in split mode too).
  await ingestExamples(app, 'bootstrap')

  const text = await gql(app, SEARCH, {
    input: { types: ['DATASET'], query: 'SampleHive', start: 0, count: 10 },
  })
  t.notOk(text.errors)
  const results = text.data.searchAcrossEntities
  t.match(results, { start: 0, count: 1, total: 1 })
  t.same(results.searchResults[0].entity, {
    urn: HIVE,
    type: 'DATASET',
    name: 'SampleHiveDataset',
    platform: { name: 'hive' },
  })
  t.same(results.searchResults[0].matchedFields, [{ name: 'id', value: 'SampleHiveDataset' }])
  const facets = new Map<string, Json>(results.facets.map((f: Json) => [f.field, f]))
  t.same(facets.get('platform'), {
    field: 'platform',
    displayName: 'Platform',
    aggregations: [
      {
        value: 'urn:li:dataPlatform:hive',
        count: 1,
        entity: { urn: 'urn:li:dataPlatform:hive', type: 'DATA_PLATFORM' },
      },
    ],
  })
  t.same(
    facets.get('tags').aggregations,
    [{ value: 'urn:li:tag:Legacy', count: 1, entity: { urn: 'urn:li:tag:Legacy', type: 'TAG' } }],
    'a facet value naming a served entity carries it',
  )

  const filtered = await gql(app, SEARCH, {
    input: {
      query: '*',
      count: 20,
      orFilters: [{ and: [{ field: 'tags', values: ['urn:li:tag:Legacy'] }] }],
    },
  })
  t.same(
    filtered.data.searchAcrossEntities.searchResults.map((r: Json) => r.entity.urn).sort(),
    ['urn:li:chart:(looker,baz1)', 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)', HIVE],
    'orFilters: what the example tags Legacy, across all types',
  )
  const negated = await gql(app, SEARCH, {
    input: {
      types: ['DATASET'],
      query: '*',
      count: 50,
      orFilters: [{ and: [{ field: 'tags', values: ['urn:li:tag:Legacy'], negated: true }] }],
    },
  })
  const urns = negated.data.searchAcrossEntities.searchResults.map((r: Json) => r.entity.urn)
  t.ok(urns.length > 0 && !urns.includes(HIVE), 'negated filter leaves the tagged dataset out')
  t.equal(negated.data.searchAcrossEntities.total, urns.length)

  const users = await gql(app, SEARCH, { input: { types: ['CORP_USER'], query: 'jdoe' } })
  t.same(
    users.data.searchAcrossEntities.searchResults.map((r: Json) => r.entity),
    [{ urn: 'urn:li:corpuser:jdoe', type: 'CORP_USER', username: 'jdoe' }],
  )
  const view = await gql(app, SEARCH, { input: { query: '*', viewUrn: 'urn:li:dataHubView:x' } })
  t.notOk(view.errors, 'a view that does not exist is ignored, as DataHub does')
  const badView = await gql(app, SEARCH, { input: { query: '*', viewUrn: 'not-a-urn' } })
  t.equal(badView.data.searchAcrossEntities, null)
  t.match(badView.errors[0], { extensions: { code: 400 } }, 'a malformed view URN')
})

t.test('an entity page query: the dataset with its platform, schema, owners, tags and links', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const res = await gql(
    app,
    /* GraphQL */ `
      query getDataset($urn: String!) {
        dataset(urn: $urn) { ...datasetPage }
        entity(urn: $urn) { urn type ... on Dataset { ...datasetPage } }
      }
      fragment datasetPage on Dataset {
        urn type name origin
        platform { urn name properties { displayName type } }
        ownership { owners { owner { ... on CorpUser { urn username } } type ownershipType { urn } } }
        schemaMetadata { name fields { fieldPath type nativeDataType } }
        globalTags { tags { tag { urn name properties { name } } } }
        institutionalMemory { elements { url description } }
        subTypes { typeNames }
        container { urn }
        domain { domain { urn } }
      }
    `,
    { urn: HIVE },
  )
  t.notOk(res.errors)
  const dataset = res.data.dataset
  t.same(res.data.entity, dataset, 'entity(urn:) answers the same through the Entity interface')
  t.match(dataset, {
    urn: HIVE,
    type: 'DATASET',
    name: 'SampleHiveDataset',
    origin: 'PROD',
    platform: {
      urn: 'urn:li:dataPlatform:hive',
      name: 'hive',
      properties: { displayName: 'Hive', type: 'FILE_SYSTEM' },
    },
    schemaMetadata: {
      name: 'SampleHiveSchema',
      fields: [
        { fieldPath: 'field_foo', type: 'BOOLEAN', nativeDataType: 'varchar(100)' },
        { fieldPath: 'field_bar', type: 'BOOLEAN', nativeDataType: 'boolean' },
      ],
    },
    globalTags: {
      tags: [{ tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy', properties: { name: 'Legacy' } } }],
    },
    institutionalMemory: { elements: [{ url: 'https://www.linkedin.com', description: 'Sample doc' }] },
  })
  t.same(
    dataset.ownership.owners.map((o: Json) => o.owner.urn),
    ['urn:li:corpuser:jdoe', 'urn:li:corpuser:datahub'],
  )
  t.equal(dataset.ownership.owners[0].ownershipType.urn, 'urn:li:ownershipType:__system__dataowner')
  t.same(dataset.container, { urn: 'urn:li:container:SCHEMA' }, 'the container aspect names it')
  // Aspects the example lacks answer null, as DataHub does for an absent aspect.
  t.equal(dataset.subTypes, null)
  t.equal(dataset.domain, null)
})
