import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isPublicPath, storeActiveCheck, TokenService, tokenInfoProposal } from '@catalog/auth'
import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import { createMetadataServices } from '@catalog/metadata-service'
import t from 'tap'
import { assignRole } from '../helpers/actors.js'
import { build, ingestExamples, type Json, type RouteEntry } from '../helpers/build.js'

/** Bearer-token authentication in the one-process catalog (`build(t, {auth: true})`). */

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
const enc = encodeURIComponent

interface Route {
  readonly method: string
  readonly url: string
}

/** Every route of the app with its wildcards filled and its Rest.li action as `?action=`. */
function routesOf(routes: readonly RouteEntry[]): Route[] {
  return routes.map((r) => ({
    method: r.method,
    url:
      r.path.replace(/:[A-Za-z]+/g, 'dataset').replace('*', enc(HIVE)) +
      (r.action ? `?action=${r.action}` : ''),
  }))
}

function withToken(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {}
}

async function gql(app: CatalogServer, token: string | undefined, query: string, variables?: unknown) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: withToken(token),
    payload: { query, variables },
  })
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : undefined }
}

async function getStatus(
  app: CatalogServer,
  url: string,
  token?: string,
): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method: 'GET', url, headers: withToken(token) })
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined }
}

t.test('every protected route answers 401 without a token; public ones answer', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken } = built
  const routes = routesOf(built.routes)
  t.ok(routes.length >= 15, `found ${routes.length} routes`)
  t.ok(
    routes.some((r) => r.url === '/api/graphql' && r.method === 'POST'),
    'GraphQL is among them',
  )
  for (const route of routes) {
    const res = await app.inject({
      method: route.method as 'GET',
      url: route.url,
      ...(route.method === 'GET' ? {} : { payload: {} }),
    })
    const label = `${route.method} ${route.url.slice(0, 70)}`
    if (isPublicPath(route.url)) {
      t.not(res.statusCode, 401, `${label}: public`)
      continue
    }
    t.equal(res.statusCode, 401, `${label}: 401`)
    const body = JSON.parse(res.body)
    if (route.url.startsWith('/api/graphql')) {
      t.match(body, {
        data: null,
        errors: [{ message: /Authorization: Bearer/, extensions: { code: 401, type: 'UNAUTHORIZED' } }],
      })
    } else {
      t.match(body, {
        exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
        message: /Authorization: Bearer/,
        status: 401,
      })
    }
  }
  for (const url of ['/health', '/ready', '/config'])
    t.equal((await getStatus(app, url)).status, 200, `${url} needs no token`)
  t.equal(
    (await app.inject({ method: 'GET', url: '/restli/docs' })).statusCode,
    200,
    '/restli/docs needs no token',
  )
  t.not((await getStatus(app, '/restli/docs/json')).status, 401, '/restli/docs/json needs no token')

  t.equal(
    (await getStatus(app, `/entitiesV2/${enc(HIVE)}`, adminToken)).status,
    200,
    'the admin token opens REST',
  )
  const graph = await gql(app, adminToken, `{ dataset(urn: "${HIVE}") { urn } }`)
  t.same(graph, { status: 200, body: { data: { dataset: { urn: HIVE } } } }, 'and GraphQL')
})

t.test('malformed, foreign, expired and revoked tokens are refused', async (t) => {
  const { app, adminToken, dir, store, registry } = await build(t, { auth: true })
  const url = `/entitiesV2/${enc(HIVE)}`
  const refused = async (authorization: string, message: RegExp, label: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization } })
    t.equal(res.statusCode, 401, `${label}: 401`)
    t.match(JSON.parse(res.body), { status: 401, message }, label)
  }
  await refused(`Basic ${adminToken}`, /must be 'Bearer <token>'/, 'not a bearer header')
  await refused('Bearer not.a.jwt', /malformed/, 'garbage')
  await refused('Bearer abc', /malformed/, 'not three parts')
  const [h, p] = (adminToken as string).split('.')
  await refused(
    `Bearer ${h}.${p}.${Buffer.from('x'.repeat(32)).toString('base64url')}`,
    /signature is invalid/,
    'bad signature',
  )
  const noneAlg = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
  await refused(`Bearer ${noneAlg}.${p}.x`, /not signed with HS256/, 'alg none')
  const foreign = new TokenService('another-secret-of-at-least-32-characters!', async () => true)
  const stranger = foreign.issue({ actorUrn: ROOT_ACTOR, ownerUrn: ROOT_ACTOR, ttlMs: 60_000, name: 'x' })
  await refused(`Bearer ${stranger.accessToken}`, /signature is invalid/, 'signed with another secret')

  // Signed with the right secret, stored, but minted two hours ago for one hour.
  const secret = readFileSync(join(dir, 'token.secret'), 'utf8').trim()
  const past = new TokenService(secret, storeActiveCheck(store), { now: () => Date.now() - 2 * 3_600_000 })
  const old = past.issue({
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
    ttlMs: 3_600_000,
    name: 'old',
  })
  await createMetadataServices(registry, store).ingest.ingestProposals(
    [tokenInfoProposal(old.id, old.info)],
    ROOT_ACTOR,
  )
  await refused(`Bearer ${old.accessToken}`, /expired at/, 'expired')

  const created = await gql(
    app,
    adminToken,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:alice", duration: ONE_DAY, name: "alice laptop"}) { accessToken metadata { urn id name actorUrn ownerUrn createdAt expiresAt } } }',
  )
  const minted = created.body.data.createAccessToken
  t.match(minted.metadata, {
    urn: `urn:li:dataHubAccessToken:${minted.metadata.id}`,
    name: 'alice laptop',
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
  })
  t.equal(minted.metadata.expiresAt - minted.metadata.createdAt, 86_400_000, 'ONE_DAY')
  t.equal((await getStatus(app, url, minted.accessToken)).status, 200, 'the new token works')
  const revoked = await gql(app, adminToken, 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', {
    id: minted.metadata.id,
  })
  t.same(revoked.body, { data: { revokeAccessToken: true } })
  await refused(`Bearer ${minted.accessToken}`, /revoked/, 'revoked at once')
  const graph = await gql(app, minted.accessToken, '{ __typename }')
  t.equal(graph.status, 401)
  t.match(graph.body.errors[0], { message: /revoked/, extensions: { code: 401, type: 'UNAUTHORIZED' } })
  const v2 = await getStatus(
    app,
    `/entitiesV2/${enc(`urn:li:dataHubAccessToken:${minted.metadata.id}`)}`,
    adminToken,
  )
  t.same(Object.keys(v2.body.aspects), ['dataHubAccessTokenKey'], 'revocation hard-deleted the token entity')
})

t.test('service tokens need no stored entity; personal tokens do', async (t) => {
  const { app, tokens } = await build(t, { auth: true })
  const service = tokens?.serviceToken() as string
  t.equal(
    (await getStatus(app, `/aspects/${enc(HIVE)}?aspect=status&version=0`, service)).status,
    404,
    'a service token is accepted (404: no such aspect, not 401)',
  )
  t.equal(tokens?.serviceToken(), service, 'and is reused while fresh')
  const unstored = tokens?.issue({
    actorUrn: 'urn:li:corpuser:eve',
    ownerUrn: 'urn:li:corpuser:eve',
    ttlMs: 60_000,
    name: 'never stored',
  })
  const res = await getStatus(app, `/entitiesV2/${enc(HIVE)}`, unstored?.accessToken)
  t.equal(res.status, 401, 'a signed personal token without its token entity is refused')
  t.match(res.body.message, /revoked/)
})

t.test('the actor of the token stamps every write', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken } = built
  // Deprecating needs EDIT_DEPRECATION_PRIVILEGE: alice is an Editor.
  await assignRole(built, 'urn:li:corpuser:alice', 'Editor')
  const ingest = await app.inject({
    method: 'POST',
    url: '/entities?action=ingest',
    headers: withToken(adminToken),
    payload: {
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn: HIVE,
            aspects: [{ 'com.linkedin.dataset.DatasetProperties': { description: 'x' } }],
          },
        },
      },
    },
  })
  t.equal(ingest.statusCode, 200)
  const alice = (
    await gql(
      app,
      adminToken,
      'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:alice", duration: ONE_HOUR, name: "a"}) { accessToken } }',
    )
  ).body.data.createAccessToken.accessToken as string
  const deprecate = await gql(
    app,
    alice,
    `mutation { updateDeprecation(input: {urn: "${HIVE}", deprecated: true, note: "by alice"}) }`,
  )
  t.same(deprecate.body, { data: { updateDeprecation: true } })
  const read = await gql(app, alice, `{ dataset(urn: "${HIVE}") { deprecation { actor note } } }`)
  t.same(read.body.data.dataset.deprecation, { actor: 'urn:li:corpuser:alice', note: 'by alice' })
  const v2 = await getStatus(
    app,
    `/entitiesV2/${enc(HIVE)}?aspects=List(deprecation,datasetProperties)`,
    alice,
  )
  t.equal(
    v2.body.aspects.deprecation.created.actor,
    'urn:li:corpuser:alice',
    'audit stamp of the GraphQL write',
  )
  t.equal(v2.body.aspects.datasetProperties.created.actor, ROOT_ACTOR, 'audit stamp of the admin REST write')

  const forBob = await gql(
    app,
    alice,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:bob", duration: ONE_HOUR, name: "b"}) { accessToken } }',
  )
  t.match(forBob.body.errors[0], {
    message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
    extensions: { code: 403, type: 'UNAUTHORIZED' },
  })
  const own = await gql(
    app,
    alice,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:alice", duration: NO_EXPIRY, name: "mine"}) { accessToken metadata { id expiresAt } } }',
  )
  t.equal(
    own.body.data.createAccessToken.metadata.expiresAt,
    null,
    'a user mints its own tokens; NO_EXPIRY has no expiry',
  )
  const meta = await gql(
    app,
    alice,
    'query($t: String!) { getAccessTokenMetadata(token: $t) { actorUrn ownerUrn name } }',
    {
      t: own.body.data.createAccessToken.accessToken,
    },
  )
  t.same(meta.body.data.getAccessTokenMetadata, {
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: 'urn:li:corpuser:alice',
    name: 'mine',
  })
  const adminId = (
    await gql(app, adminToken, 'query($t: String!) { getAccessTokenMetadata(token: $t) { id } }', {
      t: adminToken,
    })
  ).body.data.getAccessTokenMetadata.id
  const steal = await gql(app, alice, 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', {
    id: adminId,
  })
  t.match(
    steal.body.errors[0],
    { extensions: { code: 403, type: 'UNAUTHORIZED' } },
    "alice cannot revoke the admin's token",
  )
  const unknown = await gql(app, adminToken, 'mutation { revokeAccessToken(tokenId: "nope") }')
  t.match(unknown.body.errors[0], {
    message: 'Access token nope does not exist',
    extensions: { code: 404, type: 'NOT_FOUND' },
  })
})

t.test('auth off (the default of build): no token needed, the root user acts', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'deprecation')
  const res = await gql(
    app,
    undefined,
    'mutation { updateDeprecation(input: {urn: "urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)", deprecated: true}) }',
  )
  t.same(res, { status: 200, body: { data: { updateDeprecation: true } } })
  const minted = await gql(
    app,
    undefined,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:x", duration: ONE_HOUR, name: "x"}) { accessToken } }',
  )
  t.match(
    minted.body.errors[0],
    { message: /no signing secret/, extensions: { type: 'SERVER_ERROR' } },
    'build(t) without auth has no token service',
  )
})
