import { readFileSync } from 'node:fs'
import t from 'tap'
import { assignRole, gql as asUser, tokenFor } from '../helpers/actors.js'
import { build, ingestExamples, type Json } from '../helpers/build.js'
import { badRequest, gql, restAspects } from '../helpers/mutation-kit.js'

/** The app shell's views and quick filters, the home page's posts and recommendations, on DataHub's example data. */

const ADMIN = 'urn:li:corpuser:datahub'
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.'

const VIEW_FIELDS =
  'urn type viewType name description definition { entityTypes filter { operator filters { field condition values negated } } }'
const CREATE_VIEW = `mutation create($input: CreateViewInput!) { createView(input: $input) { ${VIEW_FIELDS} } }`
const SEARCH = /* GraphQL */ `
  query search($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } }
  }
`
const hive = { field: 'platform', values: ['urn:li:dataPlatform:hive'] }

t.test('views: create, list, narrow searches, default, update, delete', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')

  const all = await gql(app, SEARCH, { input: { query: '*', count: 100 } })
  const personal = await gql(app, CREATE_VIEW, {
    input: {
      viewType: 'PERSONAL',
      name: 'Hive datasets',
      definition: { entityTypes: ['DATASET'], filter: { operator: 'AND', filters: [hive] } },
    },
  })
  t.notOk(personal.errors)
  const view = personal.data.createView
  t.match(view.urn, /^urn:li:dataHubView:[0-9a-f-]{36}$/)
  t.same(
    { ...view, urn: undefined },
    {
      urn: undefined,
      type: 'DATAHUB_VIEW',
      viewType: 'PERSONAL',
      name: 'Hive datasets',
      description: null,
      definition: {
        entityTypes: ['DATASET'],
        filter: {
          operator: 'AND',
          filters: [
            { field: 'platform', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'], negated: false },
          ],
        },
      },
    },
  )
  const stored = (await restAspects(app, view.urn)).dataHubViewInfo?.value
  t.match(stored, { type: 'PERSONAL', created: { actor: ADMIN }, definition: { entityTypes: ['dataset'] } })

  // The view narrows searchAcrossEntities to the four hive datasets, and joins the input's filters.
  const narrowed = await gql(app, SEARCH, { input: { query: '*', count: 100, viewUrn: view.urn } })
  t.ok(
    all.data.searchAcrossEntities.total > 20,
    `${all.data.searchAcrossEntities.total} entities without the view`,
  )
  t.equal(narrowed.data.searchAcrossEntities.total, 4)
  t.same(
    narrowed.data.searchAcrossEntities.searchResults.map((r: Json) => r.entity.urn).sort(),
    ['SampleHiveDataset', 'fct_users_created', 'fct_users_deleted', 'logging_events'].map(
      (n) => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`,
    ),
  )
  const joined = await gql(app, SEARCH, {
    input: {
      query: 'logging',
      viewUrn: view.urn,
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }],
    },
  })
  t.equal(joined.data.searchAcrossEntities.total, 0, 'view AND input filter: kafka within hive is nothing')
  const charts = await gql(app, SEARCH, { input: { query: '*', types: ['CHART'], viewUrn: view.urn } })
  t.equal(charts.data.searchAcrossEntities.total, 0, 'no entity type left: nothing')
  const counts = await gql(
    app,
    `{ getEntityCounts(input: { types: [DATASET, CHART], viewUrn: "${view.urn}" }) { counts { entityType count } } }`,
  )
  t.same(counts.data.getEntityCounts.counts, [
    { entityType: 'DATASET', count: 4 },
    { entityType: 'CHART', count: 0 },
  ])
  const unknown = await gql(app, SEARCH, {
    input: { query: '*', count: 0, viewUrn: 'urn:li:dataHubView:none' },
  })
  t.equal(
    unknown.data.searchAcrossEntities.total,
    all.data.searchAcrossEntities.total,
    'an unknown view is ignored, as DataHub does',
  )
  const quick = await gql(
    app,
    `{ getQuickFilters(input: { viewUrn: "${view.urn}" }) { quickFilters { field value } } }`,
  )
  t.same(quick.data.getQuickFilters.quickFilters, [
    { field: 'platform', value: 'urn:li:dataPlatform:hive' },
    { field: '_entityType', value: 'DATASET' },
  ])

  // An OR view of two platforms; a global view.
  const or = await gql(app, CREATE_VIEW, {
    input: {
      viewType: 'GLOBAL',
      name: 'Kafka or S3',
      description: 'streams and files',
      definition: {
        entityTypes: [],
        filter: {
          operator: 'OR',
          filters: [
            { field: 'platform', values: ['urn:li:dataPlatform:kafka'] },
            { field: 'platform', values: ['urn:li:dataPlatform:s3'] },
          ],
        },
      },
    },
  })
  const global = or.data.createView
  t.equal(global.definition.filter.operator, 'OR')
  const orSearch = await gql(app, SEARCH, { input: { query: '*', viewUrn: global.urn } })
  t.equal(orSearch.data.searchAcrossEntities.total, 2)

  const mine = await gql(app, '{ listMyViews(input: {}) { start count total views { urn name viewType } } }')
  t.same(
    mine.data.listMyViews.views.map((v: Json) => v.name),
    ['Kafka or S3', 'Hive datasets'],
    'newest first',
  )
  t.equal(mine.data.listMyViews.total, 2)
  const minePersonal = await gql(
    app,
    '{ listMyViews(input: { viewType: PERSONAL }) { total views { urn } } }',
  )
  t.same(minePersonal.data.listMyViews.views, [{ urn: view.urn }])
  const globals = await gql(app, '{ listGlobalViews(input: {}) { total views { urn description } } }')
  t.same(globals.data.listGlobalViews, {
    total: 1,
    views: [{ urn: global.urn, description: 'streams and files' }],
  })

  // The global default view.
  const none = await gql(app, '{ globalViewsSettings { defaultView } }')
  t.same(none.data.globalViewsSettings, { defaultView: null })
  const SET = 'mutation s($v: String) { updateGlobalViewsSettings(input: { defaultView: $v }) }'
  t.same((await gql(app, SET, { v: global.urn })).data, { updateGlobalViewsSettings: true })
  t.same((await gql(app, '{ globalViewsSettings { defaultView } }')).data.globalViewsSettings, {
    defaultView: global.urn,
  })
  // The other sections of the global settings: documentation propagation and the home page.
  const SECTIONS =
    '{ docPropagationSettings { docColumnPropagation } globalHomePageSettings { defaultTemplate { urn } } }'
  t.same((await gql(app, SECTIONS)).data, {
    docPropagationSettings: { docColumnPropagation: false },
    globalHomePageSettings: { defaultTemplate: { urn: 'urn:li:dataHubPageTemplate:home_default_1' } },
  })
  const PROPAGATE =
    'mutation p($v: Boolean) { updateDocPropagationSettings(input: { docColumnPropagation: $v }) }'
  t.same((await gql(app, PROPAGATE, { v: true })).data, { updateDocPropagationSettings: true })
  t.same((await gql(app, SECTIONS)).data.docPropagationSettings, { docColumnPropagation: true })
  await gql(app, PROPAGATE, { v: false })
  t.same((await gql(app, SECTIONS)).data.docPropagationSettings, { docColumnPropagation: false })
  const settings = (await restAspects(app, 'urn:li:globalSettings:0')).globalSettingsInfo?.value
  t.same(settings?.docPropagation, { enabled: true, columnPropagationEnabled: false })
  t.same(settings?.views, { defaultView: global.urn }, 'the views section is kept')
  t.equal(badRequest(await gql(app, PROPAGATE, { v: null }), 'updateDocPropagationSettings').code, 400)
  await gql(app, SET, { v: null })
  t.same((await gql(app, '{ globalViewsSettings { defaultView } }')).data.globalViewsSettings, {
    defaultView: null,
  })
  const USER = 'mutation u($v: String) { updateCorpUserViewsSettings(input: { defaultView: $v }) }'
  t.same((await gql(app, USER, { v: view.urn })).data, { updateCorpUserViewsSettings: true })
  t.same((await restAspects(app, ADMIN)).corpUserSettings?.value, {
    appearance: { showSimplifiedHomepage: false },
    views: { defaultView: view.urn },
  })

  // Update and delete.
  const updated = await gql(
    app,
    `mutation { updateView(urn: "${view.urn}", input: { name: "Hive only" }) { name definition { entityTypes } } }`,
  )
  t.same(updated.data.updateView, { name: 'Hive only', definition: { entityTypes: ['DATASET'] } })
  t.same((await gql(app, `{ entityExists(urn: "${global.urn}") }`)).data, { entityExists: true })
  t.same((await gql(app, `mutation { deleteView(urn: "${global.urn}") }`)).data, { deleteView: true })
  const exists = `{ entityExists(urn: "${global.urn}") }`
  t.same((await gql(app, exists)).data, { entityExists: false }, 'hard deleted')
  const after = await gql(app, '{ listMyViews(input: {}) { total views { name } } }')
  t.same(after.data.listMyViews, { total: 1, views: [{ name: 'Hive only' }] })

  // Bad input: DataHub's message over HTTP 200, nothing written.
  const missing = 'urn:li:dataHubView:missing'
  for (const [query, field] of [
    [`mutation { updateView(urn: "${missing}", input: { name: "x" }) { urn } }`, 'updateView'],
    [`mutation { deleteView(urn: "${missing}") }`, 'deleteView'],
  ] as const) {
    t.same(badRequest(await gql(app, query), field), {
      message: `Failed to modify View. View with urn ${missing} does not exist.`,
      code: 400,
      type: 'BAD_REQUEST',
    })
  }
  const badType = await gql(app, CREATE_VIEW, {
    input: {
      viewType: 'PERSONAL',
      name: 'x',
      definition: { entityTypes: ['DATA_HUB_NOPE'], filter: { operator: 'AND', filters: [] } },
    },
  })
  t.ok(badType.errors, 'an unknown EntityType is refused by the schema')
  const badEntity = await gql(app, CREATE_VIEW, {
    input: {
      viewType: 'PERSONAL',
      name: 'x',
      definition: { entityTypes: ['POST'], filter: { operator: 'AND', filters: [] } },
    },
  })
  t.equal(badRequest(badEntity, 'createView').code, 400)
  t.equal(
    (await gql(app, '{ listMyViews(input: {}) { total } }')).data.listMyViews.total,
    1,
    'nothing written',
  )
})

t.test('posts: create, list, update, delete', async (t) => {
  const { app } = await build(t)
  const CREATE = 'mutation c($input: CreatePostInput!) { createPost(input: $input) }'
  const LIST =
    '{ listPosts(input: {}) { start count total posts { urn type postType content { contentType title description link media { type location } } lastModified { actor } } } }'
  t.same((await gql(app, LIST)).data.listPosts, { start: 0, count: 20, total: 0, posts: [] })
  const first = await gql(app, CREATE, {
    input: {
      postType: 'HOME_PAGE_ANNOUNCEMENT',
      content: { contentType: 'TEXT', title: 'Welcome', description: 'Read the docs' },
    },
  })
  t.same(first.data, { createPost: true })
  await gql(app, CREATE, {
    input: {
      postType: 'HOME_PAGE_ANNOUNCEMENT',
      content: {
        contentType: 'LINK',
        title: 'Runbook',
        link: 'https://example.com/runbook',
        media: { type: 'IMAGE', location: 'https://example.com/a.png' },
      },
    },
  })
  const listed = (await gql(app, LIST)).data.listPosts
  t.equal(listed.total, 2)
  t.same(
    listed.posts.map((p: Json) => p.content.title),
    ['Runbook', 'Welcome'],
    'last modified first',
  )
  const welcome = listed.posts[1]
  t.same(welcome, {
    urn: welcome.urn,
    type: 'POST',
    postType: 'HOME_PAGE_ANNOUNCEMENT',
    content: { contentType: 'TEXT', title: 'Welcome', description: 'Read the docs', link: null, media: null },
    lastModified: { actor: ADMIN },
  })
  t.same(listed.posts[0].content.media, { type: 'IMAGE', location: 'https://example.com/a.png' })
  const found = await gql(
    app,
    '{ listPosts(input: { query: "runbook" }) { total posts { content { title } } } }',
  )
  t.same(found.data.listPosts, { total: 1, posts: [{ content: { title: 'Runbook' } }] })

  const target = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
  await gql(app, CREATE, {
    input: {
      postType: 'ENTITY_ANNOUNCEMENT',
      resourceUrn: target,
      content: { contentType: 'TEXT', title: 'Migrating' },
    },
  })
  const BY_TARGET =
    'query l($r: String) { listPosts(input: { resourceUrn: $r }) { total posts { postType content { title } } } }'
  t.same((await gql(app, BY_TARGET, { r: target })).data.listPosts, {
    total: 1,
    posts: [{ postType: 'ENTITY_ANNOUNCEMENT', content: { title: 'Migrating' } }],
  })
  const HOME =
    'query { listPosts(input: { orFilters: [{ and: [{ field: "type", values: ["HOME_PAGE_ANNOUNCEMENT"] }] }] }) { total } }'
  t.equal((await gql(app, HOME)).data.listPosts.total, 2, 'orFilters: the home page announcements')
  t.same(
    badRequest(
      await gql(app, CREATE, {
        input: {
          postType: 'ENTITY_ANNOUNCEMENT',
          resourceUrn: 'not-a-urn',
          content: { contentType: 'TEXT', title: 'x' },
        },
      }),
      'createPost',
    ).code,
    400,
  )
  await gql(
    app,
    `mutation { deletePost(urn: "${(await gql(app, '{ listPosts(input: { query: "Migrating" }) { posts { urn } } }')).data.listPosts.posts[0].urn}") }`,
  )

  const UPDATE = 'mutation u($input: UpdatePostInput!) { updatePost(input: $input) }'
  await gql(app, UPDATE, {
    input: {
      urn: welcome.urn,
      postType: 'HOME_PAGE_ANNOUNCEMENT',
      content: { contentType: 'TEXT', title: 'Welcome!' },
    },
  })
  const titles = (await gql(app, LIST)).data.listPosts.posts.map((p: Json) => p.content.title)
  t.same(titles, ['Welcome!', 'Runbook'], 'the updated post is now the newest')
  t.same((await gql(app, `mutation { deletePost(urn: "${welcome.urn}") }`)).data, { deletePost: true })
  t.equal((await gql(app, LIST)).data.listPosts.total, 1)
  for (const [query, field] of [
    [`mutation { deletePost(urn: "${welcome.urn}") }`, 'deletePost'],
    [
      `mutation { updatePost(input: { urn: "${welcome.urn}", postType: HOME_PAGE_ANNOUNCEMENT, content: { contentType: TEXT, title: "x" } }) }`,
      'updatePost',
    ],
  ] as const) {
    t.same(badRequest(await gql(app, query), field), {
      message: 'Post does not exist',
      code: 400,
      type: 'BAD_REQUEST',
    })
  }
  t.equal((await gql(app, LIST)).data.listPosts.total, 1, 'nothing written')
})

t.test('quick filters and recommendations from the example data', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const quick = await gql(
    app,
    '{ getQuickFilters(input: {}) { quickFilters { field value entity { urn } } } }',
  )
  const platform = (name: string) => {
    const urn = `urn:li:dataPlatform:${name}`
    return { field: 'platform', value: urn, entity: { urn } }
  }
  const type = (value: string) => ({ field: '_entityType', value, entity: null })
  t.same(quick.data.getQuickFilters.quickFilters, [
    ...['airflow', 'hdfs', 'hive', 'kafka', 'looker'].map(platform),
    ...['DATASET', 'DASHBOARD', 'DATA_FLOW'].map(type),
    ...['GLOSSARY_TERM', 'CORP_GROUP'].map(type),
  ])

  const RECS = `query r($scenario: ScenarioType!) {
    listRecommendations(input: { userUrn: "${ADMIN}", requestContext: { scenario: $scenario }, limit: 10 }) {
      modules { title moduleId renderType content { value entity { urn } params { searchParams { query filters { field values } } contentParams { count } } } }
    } }`
  const home = (await gql(app, RECS, { scenario: 'HOME' })).data.listRecommendations.modules
  t.same(
    home.map((m: Json) => [m.title, m.moduleId, m.renderType]),
    [
      ['Platforms', 'Platforms', 'PLATFORM_SEARCH_LIST'],
      ['Top Tags', 'TopTags', 'TAG_SEARCH_LIST'],
    ],
    'only modules with content; usage-based modules have none here',
  )
  t.same(
    home[0].content.map((c: Json) => [c.value, c.params.contentParams.count]),
    [
      ['urn:li:dataPlatform:hive', 6],
      ['urn:li:dataPlatform:looker', 3],
      ['urn:li:dataPlatform:hdfs', 1],
      ['urn:li:dataPlatform:kafka', 1],
      ['urn:li:dataPlatform:s3', 1],
    ],
    'platforms with a logo, most entities first (airflow has none)',
  )
  t.same(home[1].content, [
    {
      value: 'urn:li:tag:Legacy',
      entity: { urn: 'urn:li:tag:Legacy' },
      params: {
        searchParams: { query: '', filters: [{ field: 'tags', values: ['urn:li:tag:Legacy'] }] },
        contentParams: { count: 2 },
      },
    },
  ])
  const search = (await gql(app, RECS, { scenario: 'SEARCH_RESULTS' })).data.listRecommendations.modules
  t.same(
    search.map((m: Json) => m.moduleId),
    ['TopTags'],
    'platforms are a home module only',
  )
  const profile = (await gql(app, RECS, { scenario: 'ENTITY_PROFILE' })).data.listRecommendations.modules
  t.same(profile, [], 'no module of an entity page can be computed here')
})

t.test(
  'authorization: personal views are their creator’s, global views and posts need their privilege',
  async (t) => {
    const built = await build(t, { auth: true })
    const ALICE = 'urn:li:corpuser:alice'
    const alice = await tokenFor(built, ALICE)
    await assignRole(built, ALICE, 'Reader')
    const create = (token: string | undefined, viewType: string, name: string) =>
      asUser(built.app, token, CREATE_VIEW, {
        input: { viewType, name, definition: { entityTypes: [], filter: { operator: 'AND', filters: [] } } },
      })
    const refused = (answer: { body: Json }, field: string) =>
      t.match(answer.body, {
        data: { [field]: null },
        errors: [{ message: UNAUTHORIZED, extensions: { code: 403, type: 'UNAUTHORIZED' } }],
      })

    const own = await create(alice, 'PERSONAL', 'mine')
    t.equal(own.body.data.createView.name, 'mine', 'a Reader creates a personal view')
    refused(await create(alice, 'GLOBAL', 'everyone'), 'createView')
    const admins = (await create(built.adminToken, 'PERSONAL', 'admin only')).body.data.createView.urn
    const rename = (token: string, urn: string) =>
      asUser(built.app, token, `mutation { updateView(urn: "${urn}", input: { name: "renamed" }) { name } }`)
    refused(await rename(alice, admins), 'updateView')
    refused(await asUser(built.app, alice, `mutation { deleteView(urn: "${admins}") }`), 'deleteView')
    t.same((await rename(alice, own.body.data.createView.urn)).body.data, { updateView: { name: 'renamed' } })
    const mine = await asUser(built.app, alice, '{ listMyViews(input: {}) { views { name } } }')
    t.same(mine.body.data.listMyViews.views, [{ name: 'renamed' }], "only the caller's views")
    refused(
      await asUser(
        built.app,
        alice,
        'mutation { createPost(input: { postType: HOME_PAGE_ANNOUNCEMENT, content: { contentType: TEXT, title: "x" } }) }',
      ),
      'createPost',
    )
    const settings = await asUser(
      built.app,
      alice,
      'mutation { updateGlobalViewsSettings(input: { defaultView: null }) }',
    )
    t.match(
      settings.body,
      { data: null, errors: [{ message: UNAUTHORIZED }] },
      'Boolean!: the whole data is null',
    )
    const posts = await asUser(built.app, built.adminToken, '{ listPosts(input: {}) { total } }')
    t.equal(posts.body.data.listPosts.total, 0, 'nothing written')
  },
)

t.test("the web UI's own view and post operations execute", async (t) => {
  const { app } = await build(t)
  const fixture = (name: string) =>
    readFileSync(new URL(`../fixtures/datahub-web-graphql/${name}`, import.meta.url), 'utf8')
  const run = async (file: string, operationName: string, variables: Json) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: fixture(file), operationName, variables },
    })
    t.equal(res.statusCode, 200)
    return JSON.parse(res.body)
  }
  const created = await run('view.graphql', 'createView', {
    input: {
      viewType: 'PERSONAL',
      name: 'Tables',
      definition: { entityTypes: ['DATASET'], filter: { operator: 'AND', filters: [] } },
    },
  })
  t.notOk(created.errors)
  const urn = created.data.createView.urn
  const listed = await run('view.graphql', 'listMyViews', { start: 0, count: 10 })
  t.same(listed.data.listMyViews, {
    start: 0,
    count: 10,
    total: 1,
    views: [created.data.createView],
  })
  t.same((await run('view.graphql', 'getView', { urn })).data.view, created.data.createView)
  t.same((await run('view.graphql', 'getView', { urn: 'urn:li:dataHubView:none' })).data.view, null)
  t.same((await run('view.graphql', 'deleteView', { urn })).data, { deleteView: true })
  t.same(
    (await run('view.graphql', 'listGlobalViews', { start: 0, count: 10 })).data.listGlobalViews.total,
    0,
  )
  const posts = await run('post.graphql', 'listPosts', { input: { start: 0, count: 10 } })
  t.same(posts.data.listPosts, { start: 0, count: 10, total: 0, posts: [] })
})
