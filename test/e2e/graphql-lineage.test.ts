import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import {
  CREATED,
  DELETED,
  ds,
  HDFS,
  HIVE,
  KAFKA,
  LOGGING,
  TASK_123,
  TASK_456,
} from '../helpers/bootstrap-urns.js'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'

/** Lineage over GraphQL (searchAcrossLineage, scrollAcrossLineage, `lineage` of entities) on DataHub's bootstrap example. */

const CHART_1 = 'urn:li:chart:(looker,baz1)'
const CHART_2 = 'urn:li:chart:(looker,baz2)'
const DASHBOARD = 'urn:li:dashboard:(looker,baz)'

async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  return JSON.parse(res.body)
}

const SEARCH = /* GraphQL */ `
  query search($input: SearchAcrossLineageInput!) {
    searchAcrossLineage(input: $input) {
      start count total isPartial
      searchResults { entity { urn type } degree degrees explored paths { path { urn } } }
      facets { field displayName aggregations { value count } }
    }
  }
`
const SCROLL = /* GraphQL */ `
  query scroll($input: ScrollAcrossLineageInput!) {
    scrollAcrossLineage(input: $input) { nextScrollId count total searchResults { entity { urn } degree } }
  }
`
const LINEAGE = /* GraphQL */ `
  query lineage($urn: String!, $input: LineageInput!) {
    entity(urn: $urn) {
      ... on Dataset { lineage(input: $input) { ...result } }
      ... on Chart { lineage(input: $input) { ...result } }
      ... on Dashboard { lineage(input: $input) { ...result } }
    }
  }
  fragment result on EntityLineageResult {
    start count total filtered
    relationships { type degree entity { urn type } paths { path { urn } } }
  }
`

const search = async (app: CatalogServer, input: Json) => {
  const body = await gql(app, SEARCH, { input })
  if (body.errors) throw new Error(JSON.stringify(body.errors))
  return body.data.searchAcrossLineage
}
const hits = (page: Json) => page.searchResults.map((r: Json) => [r.entity.urn, r.degree])
const degreeOnly = (values: string[]) => [{ and: [{ field: 'degree', values }] }]

t.test('lineage over GraphQL on the bootstrap example', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')

  t.test('searchAcrossLineage: every hop, ordered by degree, with paths and a degree facet', async (t) => {
    const up = await search(app, { urn: DELETED, direction: 'UPSTREAM', query: '*' })
    t.same(
      hits(up),
      [
        [TASK_456, 1],
        [CREATED, 1],
        [LOGGING, 1],
        [TASK_123, 2],
        [HIVE, 2],
        [HDFS, 3],
        [KAFKA, 4],
      ],
      'the datasets and the jobs upstream',
    )
    t.same([up.start, up.count, up.total, up.isPartial], [0, 7, 7, false])
    const kafka = up.searchResults[6]
    t.same(
      kafka.paths[0].path.map((e: Json) => e.urn),
      [DELETED, LOGGING, HIVE, HDFS, KAFKA],
    )
    t.same([kafka.entity.type, kafka.degrees, kafka.explored], ['DATASET', [4], true])
    const facets = new Map(up.facets.map((f: Json) => [f.field, f]))
    t.same((facets.get('degree') as Json).aggregations, [
      { value: '1', count: 3 },
      { value: '2', count: 2 },
      { value: '3+', count: 2 },
    ])
    t.equal((facets.get('degree') as Json).displayName, 'Degree')
    t.same((facets.get('platform') as Json).aggregations, [
      { value: 'urn:li:dataPlatform:hive', count: 3 },
      { value: 'urn:li:dataPlatform:airflow', count: 2 },
      { value: 'urn:li:dataPlatform:hdfs', count: 1 },
      { value: 'urn:li:dataPlatform:kafka', count: 1 },
    ])

    const down = await search(app, { urn: KAFKA, direction: 'DOWNSTREAM', types: ['CHART', 'DASHBOARD'] })
    t.same(
      hits(down),
      [
        [CHART_1, 1],
        [CHART_2, 2],
        [DASHBOARD, 2],
      ],
      'types narrow the results; charts and the dashboard containing them are downstream',
    )
  })

  t.test('the degree filter bounds the hops, as DataHub reads it (1, 2, 3+)', async (t) => {
    const one = await search(app, { urn: DELETED, direction: 'UPSTREAM', orFilters: degreeOnly(['1']) })
    t.same(hits(one), [
      [TASK_456, 1],
      [CREATED, 1],
      [LOGGING, 1],
    ])
    t.equal(one.isPartial, true, 'a walk cut at one hop with more beyond says so')
    const two = await search(app, { urn: DELETED, direction: 'UPSTREAM', orFilters: degreeOnly(['2']) })
    t.same(hits(two), [
      [TASK_123, 2],
      [HIVE, 2],
    ])
    const far = await search(app, { urn: DELETED, direction: 'UPSTREAM', orFilters: degreeOnly(['3+']) })
    t.same(hits(far), [
      [HDFS, 3],
      [KAFKA, 4],
    ])
    const mixed = await search(app, {
      urn: DELETED,
      direction: 'UPSTREAM',
      orFilters: [
        {
          and: [
            { field: 'degree', values: ['1', '3+'] },
            { field: 'platform', values: ['urn:li:dataPlatform:hive'] },
          ],
        },
      ],
    })
    t.same(
      hits(mixed),
      [
        [CREATED, 1],
        [LOGGING, 1],
      ],
      'the other filters narrow the lineage results through the search index',
    )
    const bad = await gql(app, SEARCH, {
      input: { urn: DELETED, direction: 'UPSTREAM', orFilters: degreeOnly(['4']) },
    })
    t.equal(bad.errors[0].message, '4 is not a valid filter value for degree filters')
    t.equal(bad.errors[0].extensions.code, 400)
  })

  t.test('a query narrows the results; start and count page them', async (t) => {
    const q = await search(app, { urn: DELETED, direction: 'UPSTREAM', query: 'SampleKafkaDataset' })
    t.same(hits(q), [[KAFKA, 4]])
    const page = await search(app, { urn: DELETED, direction: 'UPSTREAM', start: 1, count: 2 })
    t.same(hits(page), [
      [CREATED, 1],
      [LOGGING, 1],
    ])
    t.same([page.start, page.count, page.total], [1, 2, 7])
  })

  t.test('scrollAcrossLineage pages by scroll id to the end', async (t) => {
    const seen: Json[] = []
    let scrollId: string | null = null
    let calls = 0
    do {
      const body: Json = await gql(app, SCROLL, {
        input: { urn: DELETED, direction: 'UPSTREAM', count: 2, ...(scrollId ? { scrollId } : {}) },
      })
      t.notOk(body.errors)
      const page = body.data.scrollAcrossLineage
      t.equal(page.total, 7)
      seen.push(...page.searchResults.map((r: Json) => r.entity.urn))
      scrollId = page.nextScrollId
      calls++
    } while (scrollId && calls < 10)
    t.equal(calls, 4)
    t.same(seen, [TASK_456, CREATED, LOGGING, TASK_123, HIVE, HDFS, KAFKA])
    const bad = await gql(app, SCROLL, { input: { urn: DELETED, direction: 'UPSTREAM', scrollId: 'nope' } })
    t.equal(bad.errors[0].message, 'Invalid scrollId: nope')
  })

  t.test('bad input gets a 400, never an unfiltered answer', async (t) => {
    const noUrn = await gql(app, SEARCH, { input: { direction: 'UPSTREAM' } })
    t.equal(noUrn.errors[0].message, 'urn is required')
    const timed = await gql(app, SEARCH, {
      input: { urn: DELETED, direction: 'UPSTREAM', lineageFlags: { startTimeMillis: 1 } },
    })
    t.match(timed.errors[0].message, /time ranges .* are not supported/)
    t.equal(timed.errors[0].extensions.code, 400)
    const bad = await gql(app, SEARCH, { input: { urn: 'urn:li:dataset:nope', direction: 'UPSTREAM' } })
    t.equal(bad.errors[0].extensions.code, 400)
  })

  t.test('the lineage field: one hop, paged, ghosts filtered unless asked for', async (t) => {
    const lineage = async (urn: string, input: Json) => {
      const body = await gql(app, LINEAGE, { urn, input })
      if (body.errors) throw new Error(JSON.stringify(body.errors))
      return body.data.entity.lineage
    }
    const down = await lineage(KAFKA, { direction: 'DOWNSTREAM' })
    t.same([down.start, down.count, down.total, down.filtered], [0, 2, 2, 0])
    t.same(
      down.relationships.map((r: Json) => [r.type, r.degree, r.entity.urn, r.entity.type]),
      [
        ['Consumes', 1, CHART_1, 'CHART'],
        ['DownstreamOf', 1, HDFS, 'DATASET'],
      ],
    )
    t.same(
      down.relationships[1].paths[0].path.map((e: Json) => e.urn),
      [KAFKA, HDFS],
    )
    const chart = await lineage(CHART_1, { direction: 'UPSTREAM' })
    t.same(
      chart.relationships.map((r: Json) => [r.type, r.entity.urn]),
      [['Consumes', KAFKA]],
    )
    const dash = await lineage(DASHBOARD, { direction: 'UPSTREAM' })
    t.same(
      dash.relationships.map((r: Json) => [r.type, r.entity.urn]),
      [
        ['Contains', CHART_1],
        ['Contains', CHART_2],
      ],
    )
    const all = await lineage(DELETED, { direction: 'UPSTREAM' })
    t.same(
      all.relationships.map((r: Json) => [r.type, r.entity?.urn ?? null]),
      [
        ['Produces', TASK_456],
        ['DownstreamOf', CREATED],
        ['DownstreamOf', LOGGING],
      ],
      'the job producing the dataset is upstream',
    )
    const page = await lineage(DELETED, { direction: 'UPSTREAM', start: 2, count: 1 })
    t.same([page.start, page.count, page.total], [2, 1, 3])
    t.same(
      page.relationships.map((r: Json) => r.entity.urn),
      [LOGGING],
    )

    // An upstream that was never written: a ghost.
    const GHOST = ds('hive', 'never_written')
    const res = await postJson(app, '/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'dataset',
        entityUrn: CREATED,
        changeType: 'UPSERT',
        aspectName: 'upstreamLineage',
        aspect: {
          value: JSON.stringify({
            upstreams: [
              {
                dataset: GHOST,
                type: 'TRANSFORMED',
                auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' },
              },
            ],
          }),
          contentType: 'application/json',
        },
      },
    })
    t.equal(res.status, 200)
    const hidden = await lineage(CREATED, { direction: 'UPSTREAM' })
    const urns = (r: Json) => r.relationships.map((x: Json) => x.entity?.urn ?? x.type)
    t.same(
      [hidden.count, hidden.total, hidden.filtered, urns(hidden)],
      [1, 2, 1, [TASK_123]],
      'the ghost is counted in filtered, the job that exists is kept',
    )
    const shown = await lineage(CREATED, { direction: 'UPSTREAM', includeGhostEntities: true })
    t.same([shown.count, shown.filtered, urns(shown)], [2, 0, [TASK_123, GHOST]])
    const timed = await gql(app, LINEAGE, { urn: KAFKA, input: { direction: 'UPSTREAM', endTimeMillis: 5 } })
    t.equal(timed.errors[0].extensions.code, 400)
  })
})
