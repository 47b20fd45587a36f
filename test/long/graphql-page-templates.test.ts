import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/**
 * Home page templates and modules, and asset summary settings, as DataHub serves them: the
 * bootstrapped defaults, upserts, deletes (references go with them) and who may do what.
 */

const TEMPLATE_FIELDS = `urn type properties { rows { modules { urn properties { name type } } }
  surface { surfaceType } visibility { scope } assetSummary { summaryElements { elementType } }
  created { time actor { urn } } lastModified { time } }`
const UPSERT_TEMPLATE = `mutation($input: UpsertPageTemplateInput!) { upsertPageTemplate(input: $input) { ${TEMPLATE_FIELDS} } }`
const UPSERT_MODULE = `mutation($input: UpsertPageModuleInput!) { upsertPageModule(input: $input) {
  urn type exists properties { name type visibility { scope } params { linkParams { linkUrl imageUrl description }
  richTextParams { content } assetCollectionParams { assetUrns dynamicFilterJson } } created { actor { urn } } } } }`
const DELETE_TEMPLATE = 'mutation($urn: String!) { deletePageTemplate(input: {urn: $urn}) }'
const DELETE_MODULE = 'mutation($urn: String!) { deletePageModule(input: {urn: $urn}) }'
const HOME = `{ globalHomePageSettings { defaultTemplate { ${TEMPLATE_FIELDS} } } }`
const MINE = '{ me { corpUser { settings { homePage { pageTemplate { urn } } } } } }'
const SET_HOME = 'mutation($t: String) { updateUserHomePageSettings(input: {pageTemplate: $t}) }'
const ASSET_SETTINGS = `mutation($input: UpdateAssetSettingsInput!) { updateAssetSettings(input: $input) {
  assetSummary { templates { template { urn } } } } }`
const DOMAIN = 'urn:li:domain:sales'
const ROOT = 'urn:li:corpuser:datahub'

t.test('the bootstrapped home page, modules and templates made, used and deleted', async (t) => {
  const { app } = await build(t)
  const home = await gql(app, HOME)
  t.notOk(home.errors, 'no errors')
  t.same(
    home.data.globalHomePageSettings.defaultTemplate,
    {
      urn: 'urn:li:dataHubPageTemplate:home_default_1',
      type: 'DATAHUB_PAGE_TEMPLATE',
      properties: {
        rows: [
          {
            modules: [
              {
                urn: 'urn:li:dataHubPageModule:your_assets',
                properties: { name: 'Your Assets', type: 'OWNED_ASSETS' },
              },
            ],
          },
          {
            modules: [
              {
                urn: 'urn:li:dataHubPageModule:top_domains',
                properties: { name: 'Domains', type: 'DOMAINS' },
              },
              {
                urn: 'urn:li:dataHubPageModule:platforms',
                properties: { name: 'Platforms', type: 'PLATFORMS' },
              },
            ],
          },
        ],
        surface: { surfaceType: 'HOME_PAGE' },
        visibility: { scope: 'GLOBAL' },
        assetSummary: null,
        created: { time: 0, actor: { urn: 'urn:li:corpuser:__datahub_system' } },
        lastModified: { time: 0 },
      },
    },
    "DataHub's bootstrapped home page",
  )
  const columns = await gql(
    app,
    '{ entity(urn: "urn:li:dataHubPageModule:columns") { ... on DataHubPageModule { exists properties { name type } } } }',
  )
  t.same(columns.data.entity, { exists: true, properties: { name: 'Columns', type: 'COLUMNS' } })

  // Modules: only the user-made types, each with its params.
  const link = await gql(app, UPSERT_MODULE, {
    input: {
      urn: 'urn:li:dataHubPageModule:wiki',
      name: 'Wiki',
      type: 'LINK',
      scope: 'PERSONAL',
      params: { linkParams: { linkUrl: 'https://wiki.example.com', description: 'Team wiki' } },
    },
  })
  t.notOk(link.errors)
  t.same(link.data.upsertPageModule, {
    urn: 'urn:li:dataHubPageModule:wiki',
    type: 'DATAHUB_PAGE_MODULE',
    exists: true,
    properties: {
      name: 'Wiki',
      type: 'LINK',
      visibility: { scope: 'PERSONAL' },
      params: {
        linkParams: { linkUrl: 'https://wiki.example.com', imageUrl: null, description: 'Team wiki' },
        richTextParams: null,
        assetCollectionParams: null,
      },
      created: { actor: { urn: ROOT } },
    },
  })
  const made = await gql(app, UPSERT_MODULE, {
    input: {
      name: 'Notes',
      type: 'RICH_TEXT',
      scope: 'GLOBAL',
      params: { richTextParams: { content: '# Hi' } },
    },
  })
  const notes = made.data.upsertPageModule.urn
  t.match(notes, /^urn:li:dataHubPageModule:[0-9a-f-]{36}$/, 'a new module gets a random id')
  for (const [input, message] of [
    [
      { name: 'X', type: 'RICH_TEXT', scope: 'GLOBAL', params: {} },
      'Did not provide rich text params for rich text module',
    ],
    [{ name: 'X', type: 'LINK', scope: 'GLOBAL', params: {} }, 'Did not provide link params for link module'],
    [
      { name: 'X', type: 'ASSET_COLLECTION', scope: 'GLOBAL', params: {} },
      'Did not provide asset collection params for asset collection module',
    ],
    [
      { name: 'X', type: 'HIERARCHY', scope: 'GLOBAL', params: {} },
      'Did not provide hierarchy view params for hierarchy view module',
    ],
    [
      { name: 'X', type: 'OWNED_ASSETS', scope: 'GLOBAL', params: {} },
      'Attempted to create an unsupported module type.',
    ],
    [
      {
        urn: 'urn:li:corpuser:x',
        name: 'X',
        type: 'RICH_TEXT',
        scope: 'GLOBAL',
        params: { richTextParams: { content: '' } },
      },
      'urn:li:corpuser:x is not a dataHubPageModule urn',
    ],
  ] as const) {
    const refused = await gql(app, UPSERT_MODULE, { input })
    t.equal(refused.errors?.[0]?.message, message, message)
  }

  // A personal template of modules that exist; a summary given once is kept.
  const TEMPLATE = 'urn:li:dataHubPageTemplate:mine'
  const missing = await gql(app, UPSERT_TEMPLATE, {
    input: {
      urn: TEMPLATE,
      rows: [{ modules: ['urn:li:dataHubPageModule:nope'] }],
      scope: 'PERSONAL',
      surfaceType: 'HOME_PAGE',
    },
  })
  t.equal(
    missing.errors?.[0]?.message,
    'Failed to add page template rows as module with urn urn:li:dataHubPageModule:nope does not exist',
  )
  t.same((await restAspects(app, TEMPLATE)).dataHubPageTemplateProperties, undefined, 'nothing written')
  const first = await gql(app, UPSERT_TEMPLATE, {
    input: {
      urn: TEMPLATE,
      rows: [{ modules: ['urn:li:dataHubPageModule:your_assets', 'urn:li:dataHubPageModule:wiki'] }],
      assetSummary: { summaryElements: [{ elementType: 'OWNERS' }] },
      scope: 'PERSONAL',
      surfaceType: 'HOME_PAGE',
    },
  })
  t.notOk(first.errors)
  const created = first.data.upsertPageTemplate.properties.created
  const second = await gql(app, UPSERT_TEMPLATE, {
    input: {
      urn: TEMPLATE,
      rows: [{ modules: ['urn:li:dataHubPageModule:wiki'] }, { modules: [notes] }],
      scope: 'PERSONAL',
      surfaceType: 'HOME_PAGE',
    },
  })
  t.same(
    second.data.upsertPageTemplate.properties.rows.map((r: { modules: { urn: string }[] }) =>
      r.modules.map((m) => m.urn),
    ),
    [['urn:li:dataHubPageModule:wiki'], [notes]],
  )
  t.same(second.data.upsertPageTemplate.properties.created, created, 'created is kept')
  t.same(
    second.data.upsertPageTemplate.properties.assetSummary,
    { summaryElements: [{ elementType: 'OWNERS' }] },
    'the summary is kept',
  )

  // The caller's home page.
  await gql(app, SET_HOME, { t: TEMPLATE })
  t.same((await gql(app, MINE)).data.me.corpUser.settings.homePage, { pageTemplate: { urn: TEMPLATE } })

  // Deleting a module takes it out of the templates' rows.
  t.same((await gql(app, DELETE_MODULE, { urn: 'urn:li:dataHubPageModule:wiki' })).data, {
    deletePageModule: true,
  })
  const rows = (
    await gql(
      app,
      `{ entity(urn: "${TEMPLATE}") { ... on DataHubPageTemplate { properties { rows { modules { urn } } } } } }`,
    )
  ).data.entity.properties.rows
  t.same(rows, [{ modules: [] }, { modules: [{ urn: notes }] }], 'the row stays, without the module')
  const stored = (await restAspects(app, TEMPLATE)).dataHubPageTemplateProperties?.value
  t.same(stored.rows, [{ modules: [] }, { modules: [notes] }], 'and so it is stored')

  const defaultModule = await gql(app, DELETE_MODULE, { urn: 'urn:li:dataHubPageModule:your_assets' })
  t.equal(
    defaultModule.errors?.[0]?.message,
    'Cannot delete default page module with urn urn:li:dataHubPageModule:your_assets',
  )
  const defaultTemplate = await gql(app, DELETE_TEMPLATE, {
    urn: 'urn:li:dataHubPageTemplate:home_default_1',
  })
  t.equal(defaultTemplate.errors?.[0]?.message, 'Attempted to delete the default page template')
  const none = await gql(app, DELETE_TEMPLATE, { urn: 'urn:li:dataHubPageTemplate:none' })
  t.equal(
    none.errors?.[0]?.message,
    'Attempted to delete a page template that does not exist with urn urn:li:dataHubPageTemplate:none',
  )

  // Deleting the template clears the home page that used it.
  t.same((await gql(app, DELETE_TEMPLATE, { urn: TEMPLATE })).data, { deletePageTemplate: true })
  t.same((await gql(app, MINE)).data.me.corpUser.settings.homePage, { pageTemplate: null })
  t.same((await restAspects(app, ROOT)).corpUserSettings?.value.homePage, {}, 'the pointer is gone')

  // Editing the organization's default in place.
  const edited = await gql(app, UPSERT_TEMPLATE, {
    input: {
      urn: 'urn:li:dataHubPageTemplate:home_default_1',
      rows: [{ modules: [notes, 'urn:li:dataHubPageModule:your_assets'] }],
      scope: 'GLOBAL',
      surfaceType: 'HOME_PAGE',
    },
  })
  t.notOk(edited.errors)
  t.same(
    edited.data.upsertPageTemplate.properties.created,
    { time: 0, actor: { urn: 'urn:li:corpuser:__datahub_system' } },
    "the bootstrap's creation is kept",
  )
  const homeNow = (await gql(app, HOME)).data.globalHomePageSettings.defaultTemplate.properties.rows
  t.same(
    homeNow.map((r: { modules: { urn: string }[] }) => r.modules.map((m) => m.urn)),
    [[notes, 'urn:li:dataHubPageModule:your_assets']],
  )
})

t.test('asset summary settings', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'domain', DOMAIN, 'domainProperties', { name: 'Sales' })
  const summary = await gql(app, UPSERT_TEMPLATE, {
    input: {
      urn: 'urn:li:dataHubPageTemplate:sales_summary',
      rows: [{ modules: ['urn:li:dataHubPageModule:assets'] }],
      assetSummary: { summaryElements: [{ elementType: 'CREATED' }, { elementType: 'OWNERS' }] },
      scope: 'GLOBAL',
      surfaceType: 'ASSET_SUMMARY',
    },
  })
  t.notOk(summary.errors)
  const set = await gql(app, ASSET_SETTINGS, {
    input: { urn: DOMAIN, summary: { template: 'urn:li:dataHubPageTemplate:sales_summary' } },
  })
  t.same(set.data.updateAssetSettings, {
    assetSummary: { templates: [{ template: { urn: 'urn:li:dataHubPageTemplate:sales_summary' } }] },
  })
  const read = await gql(
    app,
    `{ domain(urn: "${DOMAIN}") { settings { assetSummary { templates { template { urn properties { surface { surfaceType } } } } } } } }`,
  )
  t.same(read.data.domain.settings.assetSummary.templates, [
    {
      template: {
        urn: 'urn:li:dataHubPageTemplate:sales_summary',
        properties: { surface: { surfaceType: 'ASSET_SUMMARY' } },
      },
    },
  ])
  const noTemplate = await gql(app, ASSET_SETTINGS, {
    input: { urn: DOMAIN, summary: { template: 'urn:li:dataHubPageTemplate:none' } },
  })
  t.equal(noTemplate.errors?.[0]?.message, 'Page template urn:li:dataHubPageTemplate:none does not exist')
  const user = await gql(app, ASSET_SETTINGS, {
    input: { urn: ROOT, summary: { template: 'urn:li:dataHubPageTemplate:sales_summary' } },
  })
  t.equal(user.errors?.[0]?.message, `Entity type corpuser of ${ROOT} has no asset settings`)
  t.same((await restAspects(app, ROOT)).assetSettings, undefined, 'nothing written')

  // Deleting the template leaves the domain without a summary template.
  await gql(app, DELETE_TEMPLATE, { urn: 'urn:li:dataHubPageTemplate:sales_summary' })
  const after = await gql(
    app,
    `{ domain(urn: "${DOMAIN}") { settings { assetSummary { templates { template { urn } } } } } }`,
  )
  t.same(after.data.domain.settings, { assetSummary: { templates: [] } })
})

t.test(
  "global templates and modules are for home page managers; personal ones their creator's",
  async (t) => {
    const built = await build(t, { auth: true })
    const alice = 'urn:li:corpuser:alice'
    const bob = 'urn:li:corpuser:bob'
    await assignRole(built, alice, 'Admin')
    await assignRole(built, bob, 'Admin')
    const [aliceToken, bobToken] = [await tokenFor(built, alice), await tokenFor(built, bob)]
    const globalUpsert = await gqlAs(built.app, aliceToken, UPSERT_TEMPLATE, {
      input: {
        urn: 'urn:li:dataHubPageTemplate:home_default_1',
        rows: [],
        scope: 'GLOBAL',
        surfaceType: 'HOME_PAGE',
      },
    })
    t.equal(
      globalUpsert.body.errors?.[0]?.message,
      'User does not have permission to update global templates.',
    )
    const takeOver = await gqlAs(built.app, aliceToken, UPSERT_TEMPLATE, {
      input: {
        urn: 'urn:li:dataHubPageTemplate:home_default_1',
        rows: [],
        scope: 'PERSONAL',
        surfaceType: 'HOME_PAGE',
      },
    })
    t.equal(
      takeOver.body.errors?.[0]?.message,
      'User does not have permission to update global templates.',
      'nor as a personal one',
    )
    const globalModule = await gqlAs(built.app, aliceToken, UPSERT_MODULE, {
      input: { name: 'N', type: 'RICH_TEXT', scope: 'GLOBAL', params: { richTextParams: { content: 'x' } } },
    })
    t.equal(globalModule.body.errors?.[0]?.message, 'User does not have permission to update global modules.')

    const mine = await gqlAs(built.app, aliceToken, UPSERT_TEMPLATE, {
      input: {
        urn: 'urn:li:dataHubPageTemplate:alice',
        rows: [{ modules: ['urn:li:dataHubPageModule:your_assets'] }],
        scope: 'PERSONAL',
        surfaceType: 'HOME_PAGE',
      },
    })
    t.notOk(mine.body.errors, "a personal template is anyone's to make")
    const overwrite = await gqlAs(built.app, bobToken, UPSERT_TEMPLATE, {
      input: {
        urn: 'urn:li:dataHubPageTemplate:alice',
        rows: [],
        scope: 'PERSONAL',
        surfaceType: 'HOME_PAGE',
      },
    })
    t.equal(
      overwrite.body.errors?.[0]?.message,
      'User does not have permission to update global templates.',
      "not another user's",
    )
    t.same(
      (
        (await aspectOf(built, 'urn:li:dataHubPageTemplate:alice', 'dataHubPageTemplateProperties')) as {
          rows: unknown[]
        }
      ).rows,
      [{ modules: ['urn:li:dataHubPageModule:your_assets'] }],
      'unchanged',
    )
    const bobDelete = await gqlAs(built.app, bobToken, DELETE_TEMPLATE, {
      urn: 'urn:li:dataHubPageTemplate:alice',
    })
    t.equal(
      bobDelete.body.errors?.[0]?.message,
      'Attempted to delete personal a page template that was not created by the actor',
    )
    t.same(
      (await gqlAs(built.app, aliceToken, DELETE_TEMPLATE, { urn: 'urn:li:dataHubPageTemplate:alice' })).body
        .data,
      { deletePageTemplate: true },
    )

    // A global module made by the root user: deleted only by a home page manager.
    const made = await gqlAs(built.app, built.adminToken, UPSERT_MODULE, {
      input: {
        urn: 'urn:li:dataHubPageModule:news',
        name: 'News',
        type: 'RICH_TEXT',
        scope: 'GLOBAL',
        params: { richTextParams: { content: 'x' } },
      },
    })
    t.notOk(made.body.errors)
    const aliceDelete = await gqlAs(built.app, aliceToken, DELETE_MODULE, {
      urn: 'urn:li:dataHubPageModule:news',
    })
    t.equal(aliceDelete.body.errors?.[0]?.message, 'User is unauthorized to delete global modules.')
    t.same(
      (await gqlAs(built.app, built.adminToken, DELETE_MODULE, { urn: 'urn:li:dataHubPageModule:news' })).body
        .data,
      { deletePageModule: true },
    )

    // Asset summaries: EDIT_ENTITY (or MANAGE_ASSET_SUMMARY) on the asset.
    await adminWrite(built, DOMAIN, 'domainProperties', { name: 'Sales' })
    const reader = 'urn:li:corpuser:reader'
    await assignRole(built, reader, 'Reader')
    const input = { urn: DOMAIN, summary: { template: 'urn:li:dataHubPageTemplate:home_default_1' } }
    const refused = await gqlAs(built.app, await tokenFor(built, reader), ASSET_SETTINGS, { input })
    t.equal(refused.body.errors?.[0]?.message, `Unauthorized to modify assetSettings on entity: ${DOMAIN}`)
    const allowed = await gqlAs(built.app, aliceToken, ASSET_SETTINGS, { input })
    t.notOk(allowed.body.errors, 'an Admin edits every entity')
    const PRIVILEGES = `{ domain(urn: "${DOMAIN}") { privileges { canManageAssetSummary } } }`
    const readerSees = await gqlAs(built.app, await tokenFor(built, reader), PRIVILEGES)
    t.same(readerSees.body.data.domain.privileges, { canManageAssetSummary: false })
    const aliceSees = await gqlAs(built.app, aliceToken, PRIVILEGES)
    t.same(aliceSees.body.data.domain.privileges, { canManageAssetSummary: true })
  },
)
