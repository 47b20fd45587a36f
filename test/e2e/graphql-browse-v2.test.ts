import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestGolden, type Json } from '../helpers/build.js'

/**
 * `browseV2` over GraphQL, on DataHub's golden ingestion output of Snowflake (a database and a
 * schema container holding 13 datasets, a flow at the database and 2 jobs in the schema) and
 * Kafka (7 topics whose `browsePathsV2` is `prod / kafka`, plain ids).
 */

const DB = 'urn:li:container:5e359958be02ce647cd9ac196dbd4585'
const SCHEMA = 'urn:li:container:94c696a054bab40b73e640a7f82e3b1c'

const BROWSE_V2 = /* GraphQL */ `
  query browseV2($input: BrowseV2Input!) {
    browseV2(input: $input) {
      start count total
      groups { name count hasSubGroups entity { urn type } }
      metadata { path totalNumEntities }
    }
  }
`

async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  return { status: res.statusCode, ...JSON.parse(res.body) }
}

const group = (name: string, count: number, hasSubGroups: boolean, entity: Json = null) => ({
  name,
  count,
  hasSubGroups,
  entity,
})
const container = (urn: string) => ({ urn, type: 'CONTAINER' })

t.test('browseV2 over GraphQL', async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'snowflake__snowflake_golden.json')
  await ingestGolden(app, 'kafka__kafka_mces_golden.json')
  const browse = async (input: Json) => {
    const body = await gql(app, BROWSE_V2, { input })
    if (body.errors) throw new Error(JSON.stringify(body.errors))
    return body.data.browseV2
  }

  t.test('the root: one group per first path entry, DataHub’s browse entity types', async (t) => {
    t.same(await browse({}), {
      start: 0,
      count: 10,
      total: 2,
      groups: [group(DB, 17, true, container(DB)), group('prod', 7, true)],
      metadata: { path: [], totalNumEntities: 24 },
    })
  })

  t.test('a second level: the groups under a container', async (t) => {
    t.same(await browse({ path: [DB] }), {
      start: 0,
      count: 10,
      total: 1,
      groups: [group(SCHEMA, 15, false, container(SCHEMA))],
      metadata: { path: [DB], totalNumEntities: 15 },
    })
    const kafka = await browse({ type: 'DATASET', path: ['prod'] })
    t.same(
      [kafka.groups, kafka.metadata],
      [[group('kafka', 7, false)], { path: ['prod'], totalNumEntities: 7 }],
    )
    const leaf = await browse({ path: [DB, SCHEMA] })
    t.same(
      [leaf.groups, leaf.total, leaf.metadata.totalNumEntities],
      [[], 0, 0],
      'nothing below the last entry',
    )
  })

  t.test('types narrow the entities counted', async (t) => {
    const datasets = await browse({ type: 'DATASET' })
    t.same(datasets.groups, [group(DB, 13, true, container(DB)), group('prod', 7, true)])
    t.equal(datasets.metadata.totalNumEntities, 20)
    const jobs = await browse({ types: ['DATA_JOB', 'DATA_FLOW'], type: 'DATASET', path: [DB] })
    t.same(jobs.groups, [group(SCHEMA, 2, false, container(SCHEMA))], 'types win over type')
    t.equal(jobs.metadata.totalNumEntities, 2, 'the flow sits at the database itself: not under it')
  })

  t.test('paging slices the groups; total counts them all', async (t) => {
    const page = await browse({ start: 1, count: 1 })
    t.same([page.groups, page.start, page.count, page.total], [[group('prod', 7, true)], 1, 1, 2])
    const past = await browse({ start: 2, count: 5 })
    t.same([past.groups, past.total], [[], 2])
  })

  t.test('filters and the query narrow the entities', async (t) => {
    const kafka = await browse({
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }],
    })
    t.same([kafka.groups, kafka.metadata.totalNumEntities], [[group('prod', 7, true)], 7])
    const notKafka = await browse({
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'], negated: true }] }],
    })
    t.same(
      notKafka.groups.map((g: Json) => g.name),
      [DB],
    )
    const views = await browse({ type: 'DATASET', query: 'view_1' })
    t.same(views.groups, [group(DB, 1, true, container(DB))])
    t.equal(views.metadata.totalNumEntities, 1)
  })

  t.test(
    'search filtered on a browse node finds the entities at it and below, as the sidebar does',
    async (t) => {
      const SEARCH = /* GraphQL */ `
      query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total } }
    `
      const total = async (types: string[], node: string) => {
        const body = await gql(app, SEARCH, {
          input: {
            query: '*',
            types,
            count: 0,
            orFilters: [{ and: [{ field: 'browsePathV2', values: [node] }] }],
          },
        })
        if (body.errors) throw new Error(JSON.stringify(body.errors))
        return body.data.searchAcrossEntities.total
      }
      t.equal(await total(['DATASET'], `\u241F${DB}`), 13)
      t.equal(await total(['DATASET'], `\u241F${DB}\u241F${SCHEMA}`), 13)
      t.equal(await total(['DATASET'], '\u241Fprod'), 7)
      t.equal(await total(['DATASET'], '\u241Fpro'), 0, 'whole entries only')
    },
  )

  t.test('REST: the search service’s browseV2 action answers DataHub’s BrowseResultV2', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/entities?action=browseV2',
      payload: { entities: ['dataset'], path: [DB], start: 0, count: 5 },
    })
    t.equal(res.statusCode, 200)
    t.same(JSON.parse(res.body), {
      value: {
        groups: [{ name: SCHEMA, count: 13, hasSubGroups: false, urn: SCHEMA }],
        metadata: { path: `\u241F${DB}`, totalNumEntities: 13 },
        from: 0,
        pageSize: 5,
        numGroups: 1,
      },
    })
    const bad = await app.inject({
      method: 'POST',
      url: '/entities?action=browseV2',
      payload: { entities: ['nope'], path: [], start: 0, count: 5 },
    })
    t.equal(bad.statusCode, 400)
    t.match(JSON.parse(bad.body), {
      status: 400,
      message: 'Unknown entity: nope. Failed to find entity with name nope in EntityRegistry',
    })
  })

  t.test('bad input answers DataHub’s GraphQL error, with HTTP 200', async (t) => {
    const negative = await gql(app, BROWSE_V2, { input: { count: -1 } })
    t.equal(negative.status, 200)
    t.equal(negative.data.browseV2, null)
    t.equal(negative.errors[0].extensions.code, 400)
    t.equal(negative.errors[0].message, "Parameter 'count' must be between 0 and 10000, got -1")
    const start = await gql(app, BROWSE_V2, { input: { start: -3 } })
    t.equal(start.errors[0].message, "Parameter 'start' must be a non-negative integer, got -3")
    const view = await gql(app, BROWSE_V2, { input: { viewUrn: 'not-a-urn' } })
    t.equal(view.errors[0].extensions.code, 400, 'a malformed view URN')
    const field = await gql(app, BROWSE_V2, {
      input: { orFilters: [{ and: [{ field: 'noSuchField', values: ['x'] }] }] },
    })
    t.equal(field.errors[0].extensions.code, 400)
    const unknown = await gql(app, BROWSE_V2, { input: { type: 'NOT_A_TYPE' } })
    t.ok(unknown.errors?.length, 'an EntityType outside the enum fails validation')
    t.notOk(unknown.data?.browseV2)
  })
})
