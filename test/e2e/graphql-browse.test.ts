import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json } from '../helpers/build.js'

/** `browse` and `browsePaths` over GraphQL, on DataHub's smoke-test browse data. */

const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:kafka,test-browse-${n},PROD)`

async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  return JSON.parse(res.body)
}

const BROWSE = /* GraphQL */ `
  query browse($input: BrowseInput!) {
    browse(input: $input) {
      start count total
      entities { urn type }
      groups { name count }
      metadata { path totalNumEntities }
    }
  }
`
const PATHS = /* GraphQL */ `
  query paths($input: BrowsePathsInput!) { browsePaths(input: $input) { path } }
`

t.test('browse and browsePaths over GraphQL', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'browse', 'bootstrap')
  const browse = async (input: Json) => {
    const body = await gql(app, BROWSE, { input: { type: 'DATASET', ...input } })
    if (body.errors) throw new Error(JSON.stringify(body.errors))
    return body.data.browse
  }

  t.test('a path: the entities at it, the groups below it, groups first in paging', async (t) => {
    t.same(await browse({ path: ['prod'] }), {
      start: 0,
      count: 10,
      total: 7,
      entities: [{ urn: urn(3), type: 'DATASET' }],
      groups: [
        { name: 'hive', count: 4 },
        { name: 'kafka1', count: 3 },
        { name: 'kafka2', count: 2 },
        { name: 'hdfs', count: 1 },
        { name: 'kafka', count: 1 },
        { name: 's3', count: 1 },
      ],
      metadata: { path: ['prod'], totalNumEntities: 10 },
    })
    const k2 = await browse({ path: ['prod', 'kafka2'] })
    t.same(
      [k2.entities.map((e: Json) => e.urn), k2.groups, k2.total, k2.metadata],
      [[urn(1), urn(2)], [], 2, { path: ['prod', 'kafka2'], totalNumEntities: 0 }],
    )
    const page = await browse({ path: ['prod'], start: 5, count: 2 })
    t.same(
      [page.groups, page.entities.map((e: Json) => e.urn), page.start, page.count, page.total],
      [[{ name: 's3', count: 1 }], [urn(3)], 5, 2, 7],
      'the last group, then the entities fill the page',
    )
    const root = await browse({})
    t.same(
      [root.groups, root.entities, root.metadata],
      [[{ name: 'prod', count: 10 }], [], { path: [], totalNumEntities: 10 }],
    )
    const none = await browse({ path: ['dev'] })
    t.same([none.entities, none.groups, none.total], [[], [], 0])
  })

  t.test('filters narrow browse as they narrow search', async (t) => {
    const hive = await browse({
      path: ['prod'],
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }],
    })
    t.same(hive.groups, [
      { name: 'kafka1', count: 3 },
      { name: 'kafka2', count: 2 },
      { name: 'kafka', count: 1 },
    ])
    t.same(hive.metadata.totalNumEntities, 4)
  })

  t.test('browsePaths: the paths of one entity as segments', async (t) => {
    const paths = async (input: Json) => (await gql(app, PATHS, { input })).data.browsePaths
    t.same(await paths({ type: 'DATASET', urn: urn(3) }), [{ path: ['prod'] }, { path: ['prod', 'kafka1'] }])
    t.same(await paths({ type: 'DATASET', urn: urn(1) }), [
      { path: ['prod', 'kafka1'] },
      { path: ['prod', 'kafka2'] },
    ])
    t.same(
      await paths({
        type: 'DATASET',
        urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)',
      }),
      [{ path: ['prod', 'hive'] }],
      'the default path DataHub writes for a dataset without one',
    )
    t.same(await paths({ type: 'DATASET', urn: urn(99) }), [], 'an entity that does not exist has none')
    const wrong = await gql(app, PATHS, { input: { type: 'CHART', urn: urn(1) } })
    t.equal(wrong.errors[0].extensions.code, 400)
    t.match(wrong.errors[0].message, /expected a chart urn/)
  })

  t.test('bad input gets a 400', async (t) => {
    const bad = await gql(app, BROWSE, { input: { type: 'DATA_PLATFORM' } })
    t.equal(bad.errors[0].extensions.code, 400)
    t.equal(bad.errors[0].message, 'Entity type DATA_PLATFORM is not searchable here')
  })
})
