import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, type Json, postJson } from '../helpers/build.js'

/** The web UI's app shell: appConfig, me, step states, on DataHub's example data. */

async function gql(app: CatalogServer, query: string, variables: Json = {}, token?: string): Promise<Json> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: { query, variables },
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  })
  t.equal(res.statusCode, 200)
  return JSON.parse(res.body)
}

const APP_CONFIG = /* GraphQL */ `
  query appConfig {
    appConfig {
      appVersion
      authConfig { tokenAuthEnabled }
      analyticsConfig { enabled }
      policiesConfig { enabled platformPrivileges { type } resourcePrivileges { resourceType } }
      identityManagementConfig { enabled }
      managedIngestionConfig { enabled }
      lineageConfig { supportsImpactAnalysis }
      visualConfig { logoUrl appTitle hideGlossary showFullTitleInLineage theme { themeId } }
      telemetryConfig { enableThirdPartyLogging }
      testsConfig { enabled }
      viewsConfig { enabled }
      searchBarConfig { apiVariant }
      searchCardConfig { showDescription }
      searchFlagsConfig { defaultSkipHighlighting }
      homePageConfig { firstInPersonalSidebar }
      featureFlags { readOnlyModeEnabled showBrowseV2 showAutoCompleteResults lineageGraphV2 }
      chromeExtensionConfig { enabled lineageEnabled }
      semanticSearchConfig { enabled }
    }
  }
`

t.test('appConfig says what this catalog serves, and nothing it does not', async (t) => {
  const open = await build(t)
  const config = (await gql(open.app, APP_CONFIG)).data.appConfig
  const { appVersion, ...rest } = config
  t.same(rest, {
    authConfig: { tokenAuthEnabled: false },
    analyticsConfig: { enabled: false },
    policiesConfig: { enabled: false, platformPrivileges: [], resourcePrivileges: [] },
    identityManagementConfig: { enabled: false },
    managedIngestionConfig: { enabled: false },
    lineageConfig: { supportsImpactAnalysis: true },
    visualConfig: {
      logoUrl: null,
      appTitle: null,
      hideGlossary: false,
      showFullTitleInLineage: false,
      theme: null,
    },
    telemetryConfig: { enableThirdPartyLogging: false },
    testsConfig: { enabled: false },
    viewsConfig: { enabled: true },
    searchBarConfig: { apiVariant: 'AUTOCOMPLETE_FOR_MULTIPLE' },
    searchCardConfig: { showDescription: false },
    searchFlagsConfig: { defaultSkipHighlighting: false },
    homePageConfig: { firstInPersonalSidebar: 'YOUR_ASSETS' },
    featureFlags: {
      readOnlyModeEnabled: false,
      showBrowseV2: true,
      showAutoCompleteResults: true,
      lineageGraphV2: false,
    },
    chromeExtensionConfig: { enabled: false, lineageEnabled: false },
    semanticSearchConfig: null,
  })
  const { version } = (await open.app.inject({ method: 'GET', url: '/config' })).json().versions[
    'acryldata/datahub'
  ]
  t.match(appVersion, /^v\d+\.\d+\.\d+$/)
  t.equal(appVersion, version, 'the version /config reports')

  const secured = await build(t, { auth: true })
  const withAuth = await gql(
    secured.app,
    '{ appConfig { authConfig { tokenAuthEnabled } } }',
    {},
    secured.adminToken,
  )
  t.same(withAuth.data.appConfig.authConfig, { tokenAuthEnabled: true }, 'auth on: tokens required')
})

const ME = /* GraphQL */ `
  query getMe {
    me {
      corpUser { urn username type info { displayName email title } }
      platformPrivileges { managePolicies manageTokens generatePersonalAccessTokens manageIngestion viewAnalytics }
    }
  }
`

t.test('me: the token’s actor from the store, with the privileges its policies grant', async (t) => {
  const { app, adminToken } = await build(t, { auth: true })
  const minted = await gql(
    app,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:jdoe", duration: ONE_HOUR, name: "jdoe"}) { accessToken } }',
    {},
    adminToken,
  )
  const jdoe = minted.data.createAccessToken.accessToken as string
  const ingest = await app.inject({
    method: 'POST',
    url: '/aspects?action=ingestProposal',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: {
      proposal: {
        entityType: 'corpuser',
        entityUrn: 'urn:li:corpuser:jdoe',
        changeType: 'UPSERT',
        aspectName: 'corpUserInfo',
        aspect: {
          contentType: 'application/json',
          value: JSON.stringify({
            active: true,
            displayName: 'John Doe',
            email: 'jdoe@linkedin.com',
            title: 'Software Engineer',
          }),
        },
      },
    },
  })
  t.equal(ingest.statusCode, 200)
  const mine = await gql(app, ME, {}, jdoe)
  t.notOk(mine.errors)
  t.same(mine.data.me, {
    corpUser: {
      urn: 'urn:li:corpuser:jdoe',
      username: 'jdoe',
      type: 'CORP_USER',
      info: { displayName: 'John Doe', email: 'jdoe@linkedin.com', title: 'Software Engineer' },
    },
    // No role: only the default "All Users - Base Platform Privileges" policy applies.
    platformPrivileges: {
      managePolicies: false,
      manageTokens: false,
      generatePersonalAccessTokens: true,
      manageIngestion: false,
      viewAnalytics: true,
    },
  })
  const admin = await gql(app, '{ me { corpUser { urn username info { displayName } } } }', {}, adminToken)
  t.same(
    admin.data.me.corpUser,
    { urn: 'urn:li:corpuser:datahub', username: 'datahub', info: null },
    'no info stored: null',
  )
  const anonymous = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: { query: '{ me { corpUser { urn } } }' },
  })
  t.equal(anonymous.statusCode, 401, 'no token, no me')
})

t.test('batchGetStepStates reads dataHubStepState entities; ids never stored are left out', async (t) => {
  const { app } = await build(t)
  const id = 'urn:li:corpuser:datahub-search-results-filters'
  const written = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataHubStepState',
      entityUrn: `urn:li:dataHubStepState:${id}`,
      changeType: 'UPSERT',
      aspectName: 'dataHubStepStateProperties',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({
          properties: { state: 'COMPLETE' },
          lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' },
        }),
      },
    },
  })
  t.equal(written.status, 200)
  const query =
    'query s($input: BatchGetStepStatesInput!) { batchGetStepStates(input: $input) { results { id properties { key value } } } }'
  const read = await gql(app, query, { input: { ids: [id, 'urn:li:corpuser:datahub-never-seen'] } })
  t.notOk(read.errors)
  t.same(read.data.batchGetStepStates.results, [{ id, properties: [{ key: 'state', value: 'COMPLETE' }] }])
  const none = await gql(app, query, { input: { ids: [] } })
  t.same(none.data.batchGetStepStates.results, [])
})
