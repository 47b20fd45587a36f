import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/**
 * updateCorpUserProperties, updateCorpGroupProperties, updateUserSetting,
 * updateCorpUserLocaleSettings, updateUserHomePageSettings, batchUpdateStepStates, updateEmbed
 * and updateDisplayProperties: values read back over GraphQL and REST, bad input, Readers.
 */

const ALICE = 'urn:li:corpuser:alice'
const ENG = 'urn:li:corpGroup:eng'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,users_settings,PROD)'
const DOMAIN = 'urn:li:domain:marketing'

const USER_UPDATE = `mutation($urn: String!, $input: CorpUserUpdateInput!) {
  updateCorpUserProperties(urn: $urn, input: $input) { urn editableProperties { displayName title aboutMe teams skills slack email phone } } }`
const GROUP_UPDATE = `mutation($urn: String!, $input: CorpGroupUpdateInput!) {
  updateCorpGroupProperties(urn: $urn, input: $input) { urn editableProperties { description slack email pictureLink } } }`
const SETTINGS = `{ me { corpUser { urn settings {
  appearance { showSimplifiedHomepage showThemeV2 } homePage { dismissedAnnouncementUrns } locale { language } } } } }`
const HOME = `mutation($input: UpdateUserHomePageSettingsInput!) { updateUserHomePageSettings(input: $input) }`

t.test('updateCorpUserProperties and updateCorpGroupProperties edit the editable profile', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'corpuser', ALICE, 'corpUserInfo', { active: true, displayName: 'Alice' })
  await ingestAspect(app, 'corpGroup', ENG, 'corpGroupInfo', { admins: [], members: [], groups: [] })

  const first = await gql(app, USER_UPDATE, {
    urn: ALICE,
    input: { displayName: 'Alice A.', title: 'Engineer', teams: ['core', 'infra'], slack: '@alice' },
  })
  t.same(first, {
    data: {
      updateCorpUserProperties: {
        urn: ALICE,
        editableProperties: {
          displayName: 'Alice A.',
          title: 'Engineer',
          aboutMe: null,
          teams: ['core', 'infra'],
          skills: null,
          slack: '@alice',
          email: null,
          phone: null,
        },
      },
    },
  })
  await gql(app, USER_UPDATE, {
    urn: ALICE,
    input: { aboutMe: 'hi', teams: ['core'], platformUrns: ['urn:li:dataPlatform:hive'] },
  })
  t.same(
    (await restAspects(app, ALICE)).corpUserEditableInfo?.value,
    {
      displayName: 'Alice A.',
      title: 'Engineer',
      teams: ['core'],
      slack: '@alice',
      aboutMe: 'hi',
      platforms: ['urn:li:dataPlatform:hive'],
    },
    'given fields replace the stored ones (lists whole), the rest is kept',
  )
  t.equal((await restAspects(app, ALICE)).corpUserInfo?.value.displayName, 'Alice', 'corpUserInfo untouched')

  const group = await gql(app, GROUP_UPDATE, {
    urn: ENG,
    input: { description: 'The engineers', email: 'e@x.io' },
  })
  t.same(group.data.updateCorpGroupProperties.editableProperties, {
    description: 'The engineers',
    slack: null,
    email: 'e@x.io',
    pictureLink: null,
  })
  await gql(app, GROUP_UPDATE, { urn: ENG, input: { slack: '#eng' } })
  t.same((await restAspects(app, ENG)).corpGroupEditableInfo?.value, {
    description: 'The engineers',
    email: 'e@x.io',
    slack: '#eng',
  })
})

t.test('concurrent profile edits of different fields all land', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'corpuser', ALICE, 'corpUserInfo', { active: true })
  const fields = ['displayName', 'title', 'aboutMe', 'slack', 'email', 'phone'] as const
  const answers = await Promise.all(
    fields.map((f) => gql(app, USER_UPDATE, { urn: ALICE, input: { [f]: `${f}-value` } })),
  )
  t.same(
    answers.map((a) => a.errors),
    fields.map(() => undefined),
  )
  t.same(
    (await restAspects(app, ALICE)).corpUserEditableInfo?.value,
    Object.fromEntries(fields.map((f) => [f, `${f}-value`])),
  )
})

t.test('bad profile input gets DataHub errors and writes nothing', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'corpuser', ALICE, 'corpUserInfo', { active: true })
  await ingestAspect(app, 'corpGroup', ENG, 'corpGroupInfo', { admins: [], members: [], groups: [] })
  const before = [await snapshot(app, ALICE), await snapshot(app, ENG)]
  const cases: [string, string, Record<string, unknown>, string][] = [
    [
      'updateCorpUserProperties',
      USER_UPDATE,
      { urn: 'urn:li:corpuser:nobody', input: { title: 'x' } },
      'Failed to update urn:li:corpuser:nobody. urn:li:corpuser:nobody does not exist.',
    ],
    [
      'updateCorpUserProperties',
      USER_UPDATE,
      { urn: ENG, input: { title: 'x' } },
      `${ENG} is not a corpuser urn`,
    ],
    ['updateCorpUserProperties', USER_UPDATE, { urn: ALICE, input: { personaUrn: 'not a urn' } }, ''],
    [
      'updateCorpGroupProperties',
      GROUP_UPDATE,
      { urn: ALICE, input: { slack: 'x' } },
      `${ALICE} is not a corpGroup urn`,
    ],
    [
      'updateCorpGroupProperties',
      GROUP_UPDATE,
      { urn: 'urn:li:corpGroup:none', input: { slack: 'x' } },
      'Failed to update urn:li:corpGroup:none. urn:li:corpGroup:none does not exist.',
    ],
  ]
  for (const [field, query, variables, message] of cases) {
    const body = await gql(app, query, variables)
    const error = badRequest(body, field)
    t.match(error, { code: 400, type: 'BAD_REQUEST' }, JSON.stringify(variables))
    if (message) t.equal(error.message, message)
  }
  t.same([await snapshot(app, ALICE), await snapshot(app, ENG)], before, 'nothing written')
})

t.test("the caller's settings: appearance, locale and home page", async (t) => {
  const { app } = await build(t)
  t.same(await gql(app, 'mutation { updateUserSetting(input: {name: SHOW_THEME_V2, value: true}) }'), {
    data: { updateUserSetting: true },
  })
  t.same((await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value, { appearance: { showThemeV2: true } })
  await gql(app, 'mutation { updateCorpUserLocaleSettings(input: {language: "fr"}) }')
  await gql(app, HOME, {
    input: { newDismissedAnnouncements: ['urn:li:post:a', 'urn:li:post:b', 'urn:li:post:a'] },
  })
  await gql(app, HOME, {
    input: {
      newDismissedAnnouncements: ['urn:li:post:b', 'urn:li:post:c'],
      pageTemplate: 'urn:li:dataHubPageTemplate:mine',
    },
  })
  await gql(app, 'mutation { updateUserSetting(input: {name: SHOW_SIMPLIFIED_HOMEPAGE, value: true}) }')
  const me = await gql(app, SETTINGS)
  t.same(me.data.me.corpUser.settings, {
    appearance: { showSimplifiedHomepage: true, showThemeV2: true },
    homePage: { dismissedAnnouncementUrns: ['urn:li:post:a', 'urn:li:post:b', 'urn:li:post:c'] },
    locale: { language: 'fr' },
  })
  t.same((await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value, {
    appearance: { showThemeV2: true, showSimplifiedHomepage: true },
    locale: { language: 'fr' },
    homePage: {
      dismissedAnnouncements: ['urn:li:post:a', 'urn:li:post:b', 'urn:li:post:c'],
      pageTemplate: 'urn:li:dataHubPageTemplate:mine',
    },
  })
  await gql(app, HOME, { input: { removePageTemplate: true } })
  await gql(app, 'mutation { updateCorpUserLocaleSettings(input: {}) }')
  const after = (await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value
  t.same(after.homePage, { dismissedAnnouncements: ['urn:li:post:a', 'urn:li:post:b', 'urn:li:post:c'] })
  t.same(after.locale, {}, 'a null language is removed')

  const bad = await gql(app, HOME, { input: { newDismissedAnnouncements: ['urn:li:post:d', 'no urn'] } })
  t.match(badRequest(bad, 'updateUserHomePageSettings'), { code: 400, type: 'BAD_REQUEST' })
  t.same((await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value, after, 'nothing written')
})

t.test('a first settings write defaults the appearance as DataHub does', async (t) => {
  const { app } = await build(t)
  await gql(app, 'mutation { updateCorpUserLocaleSettings(input: {language: "de"}) }')
  t.same((await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value, {
    appearance: { showSimplifiedHomepage: false },
    locale: { language: 'de' },
  })
})

t.test('concurrent settings writes lose nothing', async (t) => {
  const { app } = await build(t)
  const posts = Array.from({ length: 12 }, (_, i) => `urn:li:post:p${i}`)
  const answers = await Promise.all([
    ...posts.map((p) => gql(app, HOME, { input: { newDismissedAnnouncements: [p] } })),
    gql(app, 'mutation { updateCorpUserLocaleSettings(input: {language: "nl"}) }'),
    gql(app, 'mutation { updateUserSetting(input: {name: SHOW_THEME_V2, value: false}) }'),
  ])
  t.same(
    answers.map((a) => a.errors),
    answers.map(() => undefined),
  )
  const value = (await restAspects(app, ROOT_ACTOR)).corpUserSettings?.value
  t.same([...value.homePage.dismissedAnnouncements].sort(), [...posts].sort(), 'every dismissal kept')
  t.same(value.locale, { language: 'nl' })
  t.equal(value.appearance.showThemeV2, false)
})

t.test('batchUpdateStepStates writes the onboarding steps batchGetStepStates reads', async (t) => {
  const { app } = await build(t)
  const res = await gql(
    app,
    `mutation($input: BatchUpdateStepStatesInput!) { batchUpdateStepStates(input: $input) { results { id succeeded } } }`,
    {
      input: {
        states: [
          { id: 'datahub-search-onboarding', properties: [{ key: 'state', value: 'complete' }] },
          { id: 'datahub-home-onboarding', properties: [{ key: 'state', value: null }] },
          {
            id: 'datahub-lineage-onboarding',
            properties: [
              { key: 'a', value: '1' },
              { key: 'a', value: '2' },
            ],
          },
        ],
      },
    },
  )
  t.same(res.data.batchUpdateStepStates.results, [
    { id: 'datahub-search-onboarding', succeeded: true },
    { id: 'datahub-home-onboarding', succeeded: false },
    { id: 'datahub-lineage-onboarding', succeeded: false },
  ])
  const read = await gql(
    app,
    `{ batchGetStepStates(input: {ids: ["datahub-search-onboarding", "datahub-home-onboarding", "datahub-lineage-onboarding"]}) { results { id properties { key value } } } }`,
  )
  t.same(read.data.batchGetStepStates.results, [
    { id: 'datahub-search-onboarding', properties: [{ key: 'state', value: 'complete' }] },
  ])
  const stored = (await restAspects(app, 'urn:li:dataHubStepState:datahub-search-onboarding'))
    .dataHubStepStateProperties?.value
  t.equal(stored.lastModified.actor, ROOT_ACTOR)
})

t.test('updateEmbed and updateDisplayProperties', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', {
    name: 'users_settings',
    customProperties: {},
  })
  await ingestAspect(app, 'domain', DOMAIN, 'domainProperties', { name: 'Marketing' })
  t.same(await gql(app, `mutation { updateEmbed(input: {urn: "${DS}", renderUrl: "https://x.io/e"}) }`), {
    data: { updateEmbed: true },
  })
  t.same((await restAspects(app, DS)).embed?.value, { renderUrl: 'https://x.io/e' })
  const setColor = `mutation($urn: String!, $input: DisplayPropertiesUpdateInput!) { updateDisplayProperties(urn: $urn, input: $input) }`
  await gql(app, setColor, { urn: DOMAIN, input: { colorHex: '#FF0000' } })
  await gql(app, setColor, {
    urn: DOMAIN,
    input: { icon: { iconLibrary: 'MATERIAL', name: 'Cloud', style: 'Outlined' } },
  })
  const domain = await gql(
    app,
    `{ domain(urn: "${DOMAIN}") { displayProperties { colorHex icon { iconLibrary name style } } } }`,
  )
  t.same(domain.data.domain.displayProperties, {
    colorHex: '#FF0000',
    icon: { iconLibrary: 'MATERIAL', name: 'Cloud', style: 'Outlined' },
  })

  const missing = 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)'
  const before = await snapshot(app, DS)
  t.match(
    badRequest(
      await gql(app, `mutation { updateEmbed(input: {urn: "${missing}", renderUrl: "x"}) }`),
      'updateEmbed',
    ),
    {
      message: `Failed to update embed for entity with urn ${missing}. Entity does not exist!`,
      code: 400,
    },
  )
  t.match(
    badRequest(
      await gql(app, setColor, { urn: 'urn:li:domain:none', input: { colorHex: '#000' } }),
      'updateDisplayProperties',
    ),
    {
      message: 'Failed to update urn:li:domain:none. urn:li:domain:none does not exist.',
      code: 400,
    },
  )
  t.match(
    badRequest(await gql(app, setColor, { urn: DS, input: { colorHex: '#000' } }), 'updateDisplayProperties'),
    {
      code: 400,
    },
    'a dataset has no displayProperties',
  )
  t.equal(await snapshot(app, DS), before, 'nothing written')
})

t.test('a Reader edits its own profile and settings, nothing else', async (t) => {
  const built = await build(t, { auth: true })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  await adminWrite(built, reader, 'corpUserInfo', { active: true })
  await adminWrite(built, ALICE, 'corpUserInfo', { active: true })
  await adminWrite(built, ENG, 'corpGroupInfo', { admins: [], members: [], groups: [] })
  await adminWrite(built, DS, 'datasetProperties', { name: 'users_settings', customProperties: {} })
  await adminWrite(built, DOMAIN, 'domainProperties', { name: 'Marketing' })
  const token = await tokenFor(built, reader)

  const own = await gqlAs(built.app, token, USER_UPDATE, { urn: reader, input: { title: 'Reader' } })
  t.equal(own.body.data?.updateCorpUserProperties?.editableProperties?.title, 'Reader', 'own profile')
  const setting = await gqlAs(
    built.app,
    token,
    'mutation { updateUserSetting(input: {name: SHOW_THEME_V2, value: true}) }',
  )
  t.same(setting.body, { data: { updateUserSetting: true } }, 'own settings')
  t.same(await aspectOf(built, reader, 'corpUserSettings'), { appearance: { showThemeV2: true } })

  const before = await Promise.all([ALICE, ENG, DS, DOMAIN].map((u) => restSnapshot(built, u)))
  const calls: Record<string, [string, Record<string, unknown>?]> = {
    updateCorpUserProperties: [USER_UPDATE, { urn: ALICE, input: { title: 'x' } }],
    updateCorpGroupProperties: [GROUP_UPDATE, { urn: ENG, input: { description: 'x' } }],
    updateEmbed: [`mutation { updateEmbed(input: {urn: "${DS}", renderUrl: "x"}) }`],
    updateDisplayProperties: [
      `mutation { updateDisplayProperties(urn: "${DOMAIN}", input: {colorHex: "#000"}) }`,
    ],
  }
  for (const [name, [query, variables]] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(
    await Promise.all([ALICE, ENG, DS, DOMAIN].map((u) => restSnapshot(built, u))),
    before,
    'nothing written',
  )
})

/** The aspect each refused mutation would have written, per entity. */
const WRITTEN: Record<string, string> = {
  [ALICE]: 'corpUserEditableInfo',
  [ENG]: 'corpGroupEditableInfo',
  [DS]: 'embed',
  [DOMAIN]: 'displayProperties',
}

function restSnapshot(built: Awaited<ReturnType<typeof build>>, urn: string): Promise<unknown> {
  return aspectOf(built, urn, WRITTEN[urn] as string)
}
