import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** updateLineage, batchUpdateSoftDeleted, updateDatasets, updateChart/Dashboard/DataFlow/DataJob/Notebook. */

const ds = (n: number | string) => `urn:li:dataset:(urn:li:dataPlatform:hive,edit_${n},PROD)`
const CHART = 'urn:li:chart:(looker,edit_chart)'
const DASHBOARD = 'urn:li:dashboard:(looker,edit_dashboard)'
const FLOW = 'urn:li:dataFlow:(airflow,edit_flow,PROD)'
const JOB = `urn:li:dataJob:(${FLOW},edit_job)`
const JOB2 = `urn:li:dataJob:(${FLOW},edit_job2)`
const NOTEBOOK = 'urn:li:notebook:(querybook,edit_notebook)'
const STAMPS = {
  created: { time: 0, actor: 'urn:li:corpuser:x' },
  lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
}

async function seed(app: CatalogServer, datasets = 4): Promise<void> {
  for (let i = 0; i < datasets; i++) {
    await ingestAspect(app, 'dataset', ds(i), 'datasetProperties', {
      name: `edit_${i}`,
      customProperties: {},
    })
  }
  await ingestAspect(app, 'chart', CHART, 'chartInfo', { title: 'C', description: '', lastModified: STAMPS })
  await ingestAspect(app, 'dashboard', DASHBOARD, 'dashboardInfo', {
    title: 'D',
    description: '',
    lastModified: STAMPS,
  })
  await ingestAspect(app, 'dataFlow', FLOW, 'dataFlowInfo', { name: 'flow', customProperties: {} })
  for (const [urn, name] of [
    [JOB, 'job'],
    [JOB2, 'job2'],
  ]) {
    await ingestAspect(app, 'dataJob', urn as string, 'dataJobInfo', {
      name,
      type: { string: 'COMMAND' },
      customProperties: {},
    })
  }
}

const UPDATE_LINEAGE =
  'mutation($a: [LineageEdge]!, $r: [LineageEdge]!) { updateLineage(input: {edgesToAdd: $a, edgesToRemove: $r}) }'
const edge = (upstreamUrn: string, downstreamUrn: string) => ({ upstreamUrn, downstreamUrn })
const lineage = (app: CatalogServer, add: unknown[], remove: unknown[] = []) =>
  gql(app, UPDATE_LINEAGE, { a: add, r: remove })

/** The URNs one lineage hop away over GraphQL, sorted. */
async function hop(app: CatalogServer, urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM'): Promise<string[]> {
  const res = await gql(
    app,
    'query($u: String!, $d: LineageDirection!) { entity(urn: $u) { ... on EntityWithRelationships { lineage(input: {direction: $d, start: 0, count: 50}) { relationships { entity { urn } } } } } }',
    { u: urn, d: direction },
  )
  if (res.errors) throw new Error(JSON.stringify(res.errors))
  return res.data.entity.lineage.relationships.map((r: { entity: { urn: string } }) => r.entity.urn).sort()
}

const keys = (list: unknown, key: string) =>
  ((list ?? []) as Record<string, string>[]).map((e) => e[key]).sort()

t.test('updateLineage writes each kind of edge where the UI editor does, and removes it', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const added = await lineage(app, [
    edge(ds(0), ds(1)),
    edge(ds(2), ds(1)),
    edge(ds(0), CHART),
    edge(CHART, DASHBOARD),
    edge(ds(3), DASHBOARD),
    edge(ds(0), JOB),
    edge(JOB2, JOB),
    edge(JOB, ds(3)),
  ])
  t.same(added, { data: { updateLineage: true } })
  const upstream = (await restAspects(app, ds(1))).upstreamLineage?.value
  t.same(keys(upstream.upstreams, 'dataset'), [ds(0), ds(2)].sort())
  t.match(upstream.upstreams[0], {
    type: 'TRANSFORMED',
    properties: { source: 'UI' },
    auditStamp: { actor: 'urn:li:corpuser:datahub' },
  })
  const chart = (await restAspects(app, CHART)).chartInfo?.value
  t.same(keys(chart.inputEdges, 'destinationUrn'), [ds(0)])
  t.match(chart.inputEdges[0], { sourceUrn: CHART, properties: { source: 'UI' } })
  t.equal(chart.title, 'C', 'the rest of chartInfo is kept')
  const dash = (await restAspects(app, DASHBOARD)).dashboardInfo?.value
  t.same(keys(dash.chartEdges, 'destinationUrn'), [CHART])
  t.same(keys(dash.datasetEdges, 'destinationUrn'), [ds(3)])
  const io = (await restAspects(app, JOB)).dataJobInputOutput?.value
  t.same(keys(io.inputDatasetEdges, 'destinationUrn'), [ds(0)])
  t.same(keys(io.inputDatajobEdges, 'destinationUrn'), [JOB2])
  t.same(keys(io.outputDatasetEdges, 'destinationUrn'), [ds(3)], 'a job upstream of a dataset: its output')
  t.equal((await restAspects(app, ds(3))).upstreamLineage, undefined, 'not an upstreamLineage of the dataset')

  t.same(await hop(app, ds(1), 'UPSTREAM'), [ds(0), ds(2)].sort(), 'the graph follows')
  t.same(await hop(app, ds(0), 'DOWNSTREAM'), [CHART, JOB, ds(1)].sort())
  t.same(await hop(app, DASHBOARD, 'UPSTREAM'), [CHART, ds(3)].sort())

  const removed = await lineage(
    app,
    [],
    [edge(ds(0), ds(1)), edge(ds(0), CHART), edge(JOB, ds(3)), edge(CHART, DASHBOARD)],
  )
  t.same(removed, { data: { updateLineage: true } })
  t.same(keys((await restAspects(app, ds(1))).upstreamLineage?.value.upstreams, 'dataset'), [ds(2)])
  t.same((await restAspects(app, CHART)).chartInfo?.value.inputEdges, [])
  t.same(
    keys((await restAspects(app, JOB)).dataJobInputOutput?.value.outputDatasetEdges, 'destinationUrn'),
    [],
  )
  t.same(keys((await restAspects(app, DASHBOARD)).dashboardInfo?.value.chartEdges, 'destinationUrn'), [])
  t.same(await hop(app, ds(0), 'DOWNSTREAM'), [JOB])
})

t.test('updateLineage keeps existing edges and concurrent edits lose nothing', async (t) => {
  const { app } = await build(t, {})
  await seed(app, 12)
  await lineage(app, [edge(ds(0), ds(1))])
  const first = (await restAspects(app, ds(1))).upstreamLineage?.value.upstreams[0]
  await lineage(app, [edge(ds(0), ds(1))])
  t.same(
    (await restAspects(app, ds(1))).upstreamLineage?.value.upstreams,
    [first],
    'an edge added again is kept as it was',
  )
  const calls = [
    ...Array.from({ length: 9 }, (_, i) => lineage(app, [edge(ds(i + 2), ds(1))])),
    lineage(app, [], [edge(ds(0), ds(1))]),
    lineage(app, [], [edge(ds(0), ds(1))]),
  ]
  for (const res of await Promise.all(calls)) t.notOk(res.errors, JSON.stringify(res.errors))
  t.same(
    keys((await restAspects(app, ds(1))).upstreamLineage?.value.upstreams, 'dataset'),
    Array.from({ length: 9 }, (_, i) => ds(i + 2)).sort(),
  )
})

t.test('updateLineage refuses bad edges with DataHub messages and writes nothing', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await ingestAspect(app, 'chart', 'urn:li:chart:(looker,bare)', 'chartKey', {
    dashboardTool: 'looker',
    chartId: 'bare',
  })
  const before = [await snapshot(app, ds(1)), await snapshot(app, CHART), await snapshot(app, JOB)]
  const cases: [unknown[], string][] = [
    [
      [edge(ds(0), ds(1)), edge(ds(0), ds('missing'))],
      `Cannot upsert lineage as downstream urn ${ds('missing')} doesn't exist`,
    ],
    [[edge(ds(0), ds(1)), edge(ds('gone'), ds(2))], `Error: urn does not exist: ${ds('gone')}`],
    [
      [edge(ds(0), ds(1)), edge(CHART, ds(2))],
      `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${CHART}`,
    ],
    [
      [edge(ds(0), CHART), edge(DASHBOARD, CHART)],
      `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${DASHBOARD}`,
    ],
    [
      [edge(ds(0), JOB), edge(CHART, JOB)],
      `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${CHART}`,
    ],
    [
      [edge(ds(0), 'urn:li:chart:(looker,bare)')],
      "Failed to update chart lineage for urn urn:li:chart:(looker,bare) as chart info doesn't exist",
    ],
  ]
  for (const [add, message] of cases) {
    t.same(
      badRequest(await lineage(app, add), 'updateLineage'),
      { message, code: 400, type: 'BAD_REQUEST' },
      message,
    )
  }
  t.match(badRequest(await lineage(app, [edge('nope', ds(1))]), 'updateLineage'), {
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.same(
    [await snapshot(app, ds(1)), await snapshot(app, CHART), await snapshot(app, JOB)],
    before,
    'nothing written',
  )
})

const SOFT =
  'mutation($u: [String!]!, $d: Boolean!) { batchUpdateSoftDeleted(input: {urns: $u, deleted: $d}) }'

t.test('batchUpdateSoftDeleted marks entities removed and back', async (t) => {
  const { app } = await build(t)
  await seed(app)
  t.same(await gql(app, SOFT, { u: [ds(0), CHART], d: true }), { data: { batchUpdateSoftDeleted: true } })
  t.same((await restAspects(app, ds(0))).status?.value, { removed: true })
  t.same((await restAspects(app, CHART)).status?.value, { removed: true })
  const status = await gql(app, `{ dataset(urn: "${ds(0)}") { status { removed } } }`)
  t.same(status.data.dataset.status, { removed: true })
  const search = await gql(
    app,
    '{ searchAcrossEntities(input: {query: "edit_0", types: [DATASET]}) { total } }',
  )
  t.equal(search.data.searchAcrossEntities.total, 0, 'a removed entity leaves search')
  t.same(await gql(app, SOFT, { u: [ds(0)], d: false }), { data: { batchUpdateSoftDeleted: true } })
  t.same((await restAspects(app, ds(0))).status?.value, { removed: false })

  const before = await snapshot(app, ds(1))
  const bad = await gql(app, SOFT, { u: [ds(1), ds('missing')], d: true })
  t.same(badRequest(bad, 'batchUpdateSoftDeleted'), {
    message: `Failed to soft delete entity with urn ${ds('missing')}. Entity does not exist.`,
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.equal(await snapshot(app, ds(1)), before, 'nothing written')
})

const OWNER = 'urn:li:corpuser:jdoe'
const TAG = 'urn:li:tag:pii'

t.test(
  'updateChart, updateDashboard, updateDataFlow, updateDataJob, updateNotebook write their aspects',
  async (t) => {
    const { app } = await build(t)
    await seed(app)
    const cases: [string, string, string, string][] = [
      ['updateChart', 'Chart', CHART, 'editableChartProperties'],
      ['updateDashboard', 'Dashboard', DASHBOARD, 'editableDashboardProperties'],
      ['updateDataFlow', 'DataFlow', FLOW, 'editableDataFlowProperties'],
      ['updateDataJob', 'DataJob', JOB, 'editableDataJobProperties'],
      ['updateNotebook', 'Notebook', NOTEBOOK, 'editableNotebookProperties'],
    ]
    for (const [field, type, urn, aspect] of cases) {
      const res = await gql(
        app,
        `mutation($u: String!, $i: ${type}UpdateInput!) { ${field}(urn: $u, input: $i) { urn } }`,
        {
          u: urn,
          i: {
            ownership: { owners: [{ owner: OWNER, type: 'TECHNICAL_OWNER' }] },
            tags: { tags: [{ tag: { urn: TAG, name: 'pii' } }] },
            editableProperties: { description: `${field} text` },
          },
        },
      )
      t.same(res, { data: { [field]: { urn } } }, field)
      const stored = await restAspects(app, urn)
      t.match(stored[aspect]?.value, {
        description: `${field} text`,
        lastModified: { actor: 'urn:li:corpuser:datahub' },
      })
      t.same(stored.globalTags?.value, { tags: [{ tag: TAG }] })
      t.match(stored.ownership?.value.owners, [{ owner: OWNER, type: 'TECHNICAL_OWNER' }])
    }
    const read = await gql(
      app,
      `{ chart(urn: "${CHART}") { editableProperties { description } tags { tags { tag { urn } } } } }`,
    )
    t.same(read.data.chart, {
      editableProperties: { description: 'updateChart text' },
      tags: { tags: [{ tag: { urn: TAG } }] },
    })

    const before = await snapshot(app, DASHBOARD)
    const wrong = await gql(
      app,
      'mutation($u: String!) { updateChart(urn: $u, input: {editableProperties: {description: "x"}}) { urn } }',
      { u: DASHBOARD },
    )
    t.same(badRequest(wrong, 'updateChart'), {
      message: `Invalid urn ${DASHBOARD}: expected a chart urn`,
      code: 400,
      type: 'BAD_REQUEST',
    })
    t.equal(await snapshot(app, DASHBOARD), before, 'nothing written')
  },
)

const DATASETS =
  'mutation($i: [BatchDatasetUpdateInput!]!) { updateDatasets(input: $i) { urn editableProperties { description } } }'

t.test('updateDatasets updates several datasets at once, or none', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const res = await gql(app, DATASETS, {
    i: [0, 1].map((n) => ({ urn: ds(n), update: { editableProperties: { description: `about ${n}` } } })),
  })
  t.same(
    res.data.updateDatasets,
    [0, 1].map((n) => ({ urn: ds(n), editableProperties: { description: `about ${n}` } })),
  )
  t.match((await restAspects(app, ds(1))).editableDatasetProperties?.value, { description: 'about 1' })
  const before = await snapshot(app, ds(2))
  const bad = await gql(app, DATASETS, {
    i: [
      { urn: ds(2), update: { editableProperties: { description: 'no' } } },
      { urn: CHART, update: { editableProperties: { description: 'no' } } },
    ],
  })
  t.same(badRequest(bad, 'updateDatasets'), {
    message: `Invalid urn ${CHART}: expected a dataset urn`,
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.equal(await snapshot(app, ds(2)), before, 'nothing written')
})

t.test('a Reader may not edit lineage, soft-delete or update entities', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, ds(0), 'datasetProperties', { name: 'edit_0', customProperties: {} })
  await adminWrite(built, ds(1), 'datasetProperties', { name: 'edit_1', customProperties: {} })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const calls: Record<string, [string, Record<string, unknown>]> = {
    updateLineage: [UPDATE_LINEAGE, { a: [edge(ds(0), ds(1))], r: [] }],
    batchUpdateSoftDeleted: [SOFT, { u: [ds(1)], d: true }],
    updateDatasets: [DATASETS, { i: [{ urn: ds(1), update: { editableProperties: { description: 'x' } } }] }],
    updateChart: [
      'mutation { updateChart(urn: "urn:li:chart:(looker,edit_chart)", input: {editableProperties: {description: "x"}}) { urn } }',
      {},
    ],
  }
  for (const [name, [query, variables]] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.equal(await aspectOf(built, ds(1), 'upstreamLineage'), undefined, 'no lineage written')
  t.equal(await aspectOf(built, ds(1), 'status'), undefined, 'not soft-deleted')
  const admin = await gqlAs(built.app, built.adminToken, UPDATE_LINEAGE, { a: [edge(ds(0), ds(1))], r: [] })
  t.same(admin.body, { data: { updateLineage: true } }, 'the admin may')
})
