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
import { build, getJson, ingestExamples, type Json } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/**
 * Views applied to autoCompleteForMultiple and searchAcrossLineage, the caller's view settings, and
 * DataHub's default browsePathsV2 as browseV2 shows it, on DataHub's bootstrap example.
 */

const CREATE_VIEW = 'mutation create($input: CreateViewInput!) { createView(input: $input) { urn } }'
const AUTOCOMPLETE = /* GraphQL */ `
  query ac($input: AutoCompleteMultipleInput!) {
    autoCompleteForMultiple(input: $input) { query suggestions { type suggestions entities { urn } } }
  }
`
const LINEAGE = /* GraphQL */ `
  query lineage($input: SearchAcrossLineageInput!) {
    searchAcrossLineage(input: $input) {
      total searchResults { entity { urn } degree } facets { field aggregations { value count } }
    }
  }
`

async function createView(app: CatalogServer, entityTypes: string[], filters: Json[], operator = 'AND') {
  const body = await gql(app, CREATE_VIEW, {
    input: {
      viewType: 'PERSONAL',
      name: 'a view',
      definition: { entityTypes, filter: { operator, filters } },
    },
  })
  if (body.errors) throw new Error(JSON.stringify(body.errors))
  return body.data.createView.urn as string
}

/** `type -> suggested URNs` of an autoCompleteForMultiple answer. */
const byType = (body: Json) =>
  Object.fromEntries(
    body.data.autoCompleteForMultiple.suggestions.map((s: Json) => [
      s.type,
      s.entities.map((e: Json) => e.urn).sort(),
    ]),
  )
const lineageHits = (body: Json) =>
  body.data.searchAcrossLineage.searchResults.map((r: Json) => [r.entity.urn, r.degree])

t.test('views narrow autocomplete and lineage search', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const hive = { field: 'platform', values: ['urn:li:dataPlatform:hive'] }
  const hiveDatasets = await createView(app, ['DATASET'], [hive])
  const allTypes = await createView(app, [], [hive])

  t.test('autoCompleteForMultiple: the view narrows types and ANDs its filter', async (t) => {
    const plain = await gql(app, AUTOCOMPLETE, { input: { query: 'Sample', limit: 10 } })
    t.notOk(plain.errors)
    t.same(byType(plain).DATASET, [HDFS, HIVE, KAFKA], 'without a view: the three sample datasets')

    const viewed = await gql(app, AUTOCOMPLETE, {
      input: { query: 'Sample', limit: 10, viewUrn: hiveDatasets },
    })
    t.notOk(viewed.errors)
    t.same(byType(viewed), { DATASET: [HIVE] }, 'with the hive view: the hive one only')
    t.equal(viewed.data.autoCompleteForMultiple.query, 'Sample')

    const fct = await gql(app, AUTOCOMPLETE, { input: { query: 'fct', limit: 10, viewUrn: allTypes } })
    t.same(byType(fct), { DATASET: [CREATED, DELETED] }, 'a view of every type keeps the filter')

    // The input's filter joins the view's: kafka within hive is nothing.
    const joined = await gql(app, AUTOCOMPLETE, {
      input: {
        query: 'Sample',
        viewUrn: hiveDatasets,
        orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }],
      },
    })
    t.same(joined.data.autoCompleteForMultiple.suggestions, [])

    // A view of datasets asked for charts: DataHub's intersection is empty, so every type is asked, under the view's filter.
    const charts = await gql(app, AUTOCOMPLETE, {
      input: { query: 'Sample', types: ['CHART'], viewUrn: hiveDatasets },
    })
    t.same(byType(charts), { DATASET: [HIVE] })

    // A view of charts only, with no filter: the types alone narrow.
    const chartsOnly = await createView(app, ['CHART'], [])
    const baz = await gql(app, AUTOCOMPLETE, { input: { query: 'baz', limit: 10 } })
    t.same(
      Object.keys(byType(baz)).sort(),
      ['CHART', 'DASHBOARD'],
      'without the view: charts and a dashboard',
    )
    const bazViewed = await gql(app, AUTOCOMPLETE, {
      input: { query: 'baz', limit: 10, viewUrn: chartsOnly },
    })
    t.same(byType(bazViewed), { CHART: ['urn:li:chart:(looker,baz1)', 'urn:li:chart:(looker,baz2)'] })
  })

  t.test('searchAcrossLineage: the view filter narrows the reached entities', async (t) => {
    const input = { urn: DELETED, direction: 'UPSTREAM', query: '*' }
    const plain = await gql(app, LINEAGE, { input })
    t.same(lineageHits(plain), [
      [TASK_456, 1],
      [CREATED, 1],
      [LOGGING, 1],
      [TASK_123, 2],
      [HIVE, 2],
      [HDFS, 3],
      [KAFKA, 4],
    ])
    const viewed = await gql(app, LINEAGE, { input: { ...input, viewUrn: allTypes } })
    t.notOk(viewed.errors)
    t.same(lineageHits(viewed), [
      [CREATED, 1],
      [LOGGING, 1],
      [HIVE, 2],
    ])
    t.equal(viewed.data.searchAcrossLineage.total, 3)
    const degree = viewed.data.searchAcrossLineage.facets.find((f: Json) => f.field === 'degree')
    t.same(degree.aggregations, [
      { value: '1', count: 2 },
      { value: '2', count: 1 },
    ])

    // With a degree filter of the input: both apply.
    const first = await gql(app, LINEAGE, {
      input: { ...input, viewUrn: allTypes, orFilters: [{ and: [{ field: 'degree', values: ['2'] }] }] },
    })
    t.same(lineageHits(first), [[HIVE, 2]])

    // An OR view: hive or hdfs datasets.
    const either = await createView(
      app,
      [],
      [hive, { field: 'platform', values: ['urn:li:dataPlatform:hdfs'] }],
      'OR',
    )
    const orViewed = await gql(app, LINEAGE, { input: { ...input, viewUrn: either } })
    t.same(lineageHits(orViewed), [
      [CREATED, 1],
      [LOGGING, 1],
      [HIVE, 2],
      [HDFS, 3],
    ])
  })

  t.test('an unknown view is ignored, a malformed one is a 400', async (t) => {
    const unknown = 'urn:li:dataHubView:no-such-view'
    const ac = await gql(app, AUTOCOMPLETE, { input: { query: 'Sample', limit: 10, viewUrn: unknown } })
    t.same(byType(ac).DATASET, [HDFS, HIVE, KAFKA])
    const lineage = await gql(app, LINEAGE, {
      input: { urn: DELETED, direction: 'UPSTREAM', query: '*', viewUrn: unknown },
    })
    t.equal(lineage.data.searchAcrossLineage.total, 7)

    const badAc = await gql(app, AUTOCOMPLETE, { input: { query: 'Sample', viewUrn: 'not-a-urn' } })
    t.match(badRequest(badAc, 'autoCompleteForMultiple'), { code: 400, type: 'BAD_REQUEST' })
    const badLineage = await gql(app, LINEAGE, {
      input: { urn: DELETED, direction: 'UPSTREAM', viewUrn: 'not-a-urn' },
    })
    t.match(badRequest(badLineage, 'searchAcrossLineage'), { code: 400, type: 'BAD_REQUEST' })
  })
})

t.test(
  "me.corpUser.settings: the caller's default view, as updateCorpUserViewsSettings sets it",
  async (t) => {
    const { app } = await build(t)
    await ingestExamples(app, 'bootstrap')
    const ME =
      '{ me { corpUser { urn settings { appearance { showSimplifiedHomepage } views { defaultView { urn name viewType } } } } } }'
    const SET = 'mutation u($v: String) { updateCorpUserViewsSettings(input: { defaultView: $v }) }'
    const settings = async () => {
      const body = await gql(app, ME)
      if (body.errors) throw new Error(JSON.stringify(body.errors))
      return body.data.me.corpUser.settings
    }

    t.same(
      await settings(),
      { appearance: { showSimplifiedHomepage: false }, views: null },
      'no settings stored',
    )
    const view = await createView(
      app,
      ['DATASET'],
      [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }],
    )
    t.same((await gql(app, SET, { v: view })).data, { updateCorpUserViewsSettings: true })
    t.same(await settings(), {
      appearance: { showSimplifiedHomepage: false },
      views: { defaultView: { urn: view, name: 'a view', viewType: 'PERSONAL' } },
    })
    // Also on the user read by URN, as DataHub's CorpUser mapper does for every user.
    const byUrn = await gql(
      app,
      `{ corpUser(urn: "urn:li:corpuser:datahub") { settings { views { defaultView { urn } } } } }`,
    )
    t.same(byUrn.data.corpUser.settings.views, { defaultView: { urn: view } })

    // A malformed default view is a 400, and the setting stays.
    const bad = await gql(app, SET, { v: 'not-a-urn' })
    t.match(badRequest(bad, 'updateCorpUserViewsSettings'), { code: 400, type: 'BAD_REQUEST' })
    t.same((await settings()).views, { defaultView: { urn: view, name: 'a view', viewType: 'PERSONAL' } })

    // A deleted view resolves to null; unsetting leaves an empty views setting.
    t.notOk((await gql(app, `mutation { deleteView(urn: "${view}") }`)).errors)
    t.same((await settings()).views, { defaultView: null })
    t.same((await gql(app, SET, { v: null })).data, { updateCorpUserViewsSettings: true })
    t.same((await settings()).views, { defaultView: null })
  },
)

t.test("default browsePathsV2: DataHub's default for new entities, browsed by browseV2", async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const BROWSE = /* GraphQL */ `
    query b($input: BrowseV2Input!) {
      browseV2(input: $input) { total groups { name count hasSubGroups entity { urn type } } metadata { path totalNumEntities } }
    }
  `
  const browse = async (input: Json) => {
    const body = await gql(app, BROWSE, { input })
    if (body.errors) throw new Error(JSON.stringify(body.errors))
    return body.data.browseV2
  }
  const FLOW = 'urn:li:dataFlow:(airflow,dag_abc,PROD)'
  const dataset = (name: string) => ds('hive', name)
  const stored = async (urn: string) => (await restAspects(app, urn)).browsePathsV2?.value

  // The example's MCEs carry no browsePathsV2: names without dots go to DataHub's Default folder.
  t.same(await stored(KAFKA), { path: [{ id: 'Default' }] })
  t.same(await stored(TASK_123), { path: [{ id: FLOW, urn: FLOW }] }, 'a job sits under its flow')
  t.same(await stored('urn:li:chart:(looker,baz1)'), { path: [{ id: 'Default' }] })
  // No platform info stored names s3's delimiter, so DataHub's fallback '.' applies.
  t.same(
    await stored('urn:li:dataset:(urn:li:dataPlatform:s3,project/root/events/logging_events_bckp,PROD)'),
    {
      path: [{ id: 'Default' }],
    },
  )
  t.equal(await stored('urn:li:corpuser:datahub'), undefined, 'only entities whose model has the aspect')

  // A dotted name: its lower-cased parts but the last.
  const DOTTED = dataset('Sales..Orders.Daily')
  await ingestAspect(app, 'dataset', DOTTED, 'datasetProperties', { name: 'Daily' })
  t.same(await stored(DOTTED), { path: [{ id: 'sales' }, { id: 'orders' }] })

  // An explicit path in the first write is kept, and a later one replaces the default.
  const EXPLICIT = dataset('mine.explicit')
  await ingestAspect(app, 'dataset', EXPLICIT, 'browsePathsV2', { path: [{ id: 'team' }] })
  t.same(await stored(EXPLICIT), { path: [{ id: 'team' }] })
  const versions = await getJson(
    app,
    `/aspects/${encodeURIComponent(EXPLICIT)}?aspect=browsePathsV2&version=1`,
  )
  t.equal(versions.status, 404, 'no default version was written before it')
  await ingestAspect(app, 'dataset', DOTTED, 'browsePathsV2', { path: [{ id: 'finance' }] })
  t.same(await stored(DOTTED), { path: [{ id: 'finance' }] })
  // A later write to the entity does not bring the default back.
  await ingestAspect(app, 'dataset', DOTTED, 'status', { removed: false })
  t.same(await stored(DOTTED), { path: [{ id: 'finance' }] })

  const datasets = await browse({ type: 'DATASET', path: [] })
  t.same(datasets.groups, [
    { name: 'Default', count: 7, hasSubGroups: false, entity: null },
    { name: 'finance', count: 1, hasSubGroups: false, entity: null },
    { name: 'team', count: 1, hasSubGroups: false, entity: null },
  ])
  t.same(datasets.metadata, { path: [], totalNumEntities: 9 })
  const jobs = await browse({ type: 'DATA_JOB', path: [] })
  t.same(jobs.groups, [
    { name: FLOW, count: 2, hasSubGroups: false, entity: { urn: FLOW, type: 'DATA_FLOW' } },
  ])
  // The UI lists a folder's entities by searching with its browsePathV2.
  const inFolder = await gql(
    app,
    'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { searchResults { entity { urn } } } }',
    {
      input: {
        query: '*',
        types: ['DATASET'],
        orFilters: [
          {
            and: [
              { field: 'browsePathV2', values: ['\u241fDefault'] },
              { field: 'platform', values: ['urn:li:dataPlatform:hive'] },
            ],
          },
        ],
      },
    },
  )
  t.same(
    inFolder.data.searchAcrossEntities.searchResults.map((r: Json) => r.entity.urn).sort(),
    [CREATED, DELETED, HIVE, LOGGING].sort(),
  )
  const hiveTop = await browse({
    type: 'DATASET',
    path: [],
    orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }],
  })
  t.same(
    hiveTop.groups.map((g: Json) => [g.name, g.count]),
    [
      ['Default', 4],
      ['finance', 1],
      ['team', 1],
    ],
  )

  const shell = await gql(app, '{ appConfig { featureFlags { showBrowseV2 } } }')
  t.same(shell.data.appConfig.featureFlags, { showBrowseV2: true })
})
