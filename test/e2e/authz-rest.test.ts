import { accessTokenUrn, tokenInfoProposal } from '@catalog/auth'
import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { post } from '../helpers/actors.js'
import { type Built, build } from '../helpers/build.js'

/** Authorization of REST writes and operations by DataHub's policies (`build(t, {auth: true})`). */

const ALICE = 'urn:li:corpuser:alice'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_orders,PROD)'

const upsert = (entityUrn: string, aspectName: string, value: unknown) => ({
  proposal: {
    entityType: entityUrn.split(':')[2],
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  },
})

const ingest = (app: CatalogServer, token: string | undefined, body: unknown) =>
  post(app, '/aspects?action=ingestProposal', token, body)

/** A stored personal token for `actor`, minted the way the catalog mints them. */
async function tokenFor(built: Built, actor: string): Promise<{ token: string; id: string }> {
  const issued = built.tokens?.issue({ actorUrn: actor, ownerUrn: actor, ttlMs: 3_600_000, name: actor })
  if (!issued) throw new Error('auth is off')
  const stored = await post(built.app, '/aspects?action=ingestProposalBatch', built.adminToken, {
    proposals: [tokenInfoProposal(issued.id, issued.info)],
  })
  if (stored.status !== 200) throw new Error(`storing the token: ${stored.status}`)
  return { token: issued.accessToken, id: issued.id }
}

async function latest(built: Built, urn: string, aspect: string): Promise<unknown> {
  const rows = (await built.store.latest([urn], [aspect])).get(urn) ?? []
  return rows[0]?.value
}

t.test('the attacks of an ordinary user are refused and change nothing', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken, tokens } = built
  const alice = await tokenFor(built, ALICE)
  const adminId = (await tokens?.verify(adminToken as string))?.jti as string
  const headBefore = await built.store.head()

  const revoke = {
    proposal: {
      entityType: 'dataHubAccessToken',
      entityUrn: accessTokenUrn(adminId),
      changeType: 'DELETE',
      aspectName: 'dataHubAccessTokenKey',
    },
  }
  t.equal((await ingest(app, undefined, revoke)).status, 401, 'no token: 401')
  const refused = await ingest(app, alice.token, revoke)
  t.equal(refused.status, 403, "alice cannot revoke the admin's token")
  t.equal(
    refused.body.message,
    `User ${ALICE} is unauthorized to modify entity: HttpStatus: 403 Urn: ${accessTokenUrn(adminId)}`,
  )
  t.equal(refused.body.status, 403)
  const encoded = await post(app, '/%61spects?action=ingestProposal', alice.token, revoke)
  t.equal(encoded.status, 403, 'a percent-encoded path is the same route, and refused')

  // A token the admin revoked stays revoked.
  const victim = await tokenFor(built, 'urn:li:corpuser:bob')
  const info = await latest(built, accessTokenUrn(victim.id), 'dataHubAccessTokenInfo')
  const revokeVictim = { proposal: { ...revoke.proposal, entityUrn: accessTokenUrn(victim.id) } }
  t.equal((await ingest(app, adminToken, revokeVictim)).status, 200, 'the admin revokes a token')
  const unrevoke = await ingest(
    app,
    alice.token,
    upsert(accessTokenUrn(victim.id), 'dataHubAccessTokenInfo', info),
  )
  t.equal(unrevoke.status, 403, 'alice cannot un-revoke it')
  t.equal(
    await latest(built, accessTokenUrn(victim.id), 'dataHubAccessTokenInfo'),
    undefined,
    'still revoked',
  )
  await t.rejects(tokens?.authenticate(`Bearer ${victim.token}`) as Promise<unknown>, /revoked/)

  const rootInfo = await latest(built, ROOT_ACTOR, 'corpUserInfo')
  const overwrite = await ingest(
    app,
    alice.token,
    upsert(ROOT_ACTOR, 'corpUserInfo', { active: false, displayName: 'owned', email: 'alice@evil' }),
  )
  t.equal(overwrite.status, 403, "alice cannot overwrite the root user's corpUserInfo")
  t.same(await latest(built, ROOT_ACTOR, 'corpUserInfo'), rootInfo, 'unchanged')
  const snapshot = await post(app, '/entities?action=ingest', alice.token, {
    entity: {
      value: {
        'com.linkedin.metadata.snapshot.CorpUserSnapshot': {
          urn: ROOT_ACTOR,
          aspects: [{ 'com.linkedin.identity.CorpUserInfo': { active: false, displayName: 'owned' } }],
        },
      },
    },
  })
  t.equal(snapshot.status, 403, 'nor through a snapshot')

  const truncate = await post(app, '/operations?action=truncateTimeseriesAspect', alice.token, {
    entityType: 'dataset',
    aspect: 'datasetProfile',
    endTimeMillis: Date.now(),
    dryRun: false,
  })
  t.same(
    [truncate.status, truncate.body.message],
    [403, 'User is unauthorized to truncate timeseries index'],
    'truncateTimeseriesAspect',
  )
  for (const [url, message] of [
    ['/operations?action=restoreIndices', 'User is unauthorized to restore indices.'],
    ['/aspects?action=restoreIndices', 'User is unauthorized to restore indices.'],
    ['/operations?action=getIndexSizes', 'User is unauthorized to get index sizes.'],
    ['/operations?action=getEsTaskStatus', 'User is unauthorized to get ES task status'],
  ] as const) {
    const res = await post(app, url, alice.token, url.endsWith('getEsTaskStatus') ? { task: 'n:1' } : {})
    t.same([res.status, res.body.message], [403, message], url)
  }

  const changes = await app.inject({
    method: 'GET',
    url: '/internal/changes?after=0&limit=10',
    headers: { authorization: `Bearer ${alice.token}` },
  })
  t.equal(changes.statusCode, 404, '/internal/changes is not served by the gateway')
  const written = await built.store.changes(headBefore, 100)
  t.same(
    [...new Set(written.map((e) => e.urn))],
    [accessTokenUrn(victim.id)],
    'the only writes were bob’s token and its revocation by the admin',
  )

  // The admin keeps full rights.
  t.equal(
    (await tokens?.authenticate(`Bearer ${adminToken}`))?.actor,
    ROOT_ACTOR,
    'the admin token still works',
  )
  t.equal((await post(app, '/operations?action=getIndexSizes', adminToken, {})).status, 200)
  const restore = await post(app, '/operations?action=restoreIndices', adminToken, { urn: ROOT_ACTOR })
  t.equal(restore.status, 200, 'the admin restores indices')
  const edited = await ingest(
    app,
    adminToken,
    upsert(ROOT_ACTOR, 'corpUserInfo', { active: true, displayName: 'Root' }),
  )
  t.equal(edited.status, 200, 'the admin edits the root user')
})

t.test('policies and role memberships are stored entities that take effect at once', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken } = built
  const alice = await tokenFor(built, ALICE)
  t.match(await latest(built, 'urn:li:dataHubPolicy:0', 'dataHubPolicyInfo'), {
    displayName: 'Root User - All Platform Privileges',
    type: 'PLATFORM',
  })
  t.match(await latest(built, 'urn:li:dataHubRole:Editor', 'dataHubRoleInfo'), { name: 'Editor' })

  const props = upsert(DS, 'datasetProperties', { description: 'orders', customProperties: {} })
  t.equal((await ingest(app, alice.token, props)).status, 403, 'no role, no ownership: no EDIT_ENTITY')
  t.equal(await latest(built, DS, 'datasetProperties'), undefined, 'nothing stored')

  // Ownership: the default "Asset Owners" policy grants EDIT_ENTITY on what alice owns.
  const owned = upsert(DS, 'ownership', {
    owners: [{ owner: ALICE, type: 'TECHNICAL_OWNER' }],
    lastModified: { time: 0, actor: ROOT_ACTOR },
  })
  t.equal((await ingest(app, adminToken, owned)).status, 200)
  t.equal((await ingest(app, alice.token, props)).status, 200, 'an owner edits her dataset')

  // A role membership, written by the admin, makes alice an Editor.
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_other,PROD)'
  const otherProps = upsert(other, 'datasetProperties', { description: 'x', customProperties: {} })
  t.equal((await ingest(app, alice.token, otherProps)).status, 403)
  const membership = upsert(ALICE, 'roleMembership', { roles: ['urn:li:dataHubRole:Editor'] })
  t.equal((await ingest(app, alice.token, membership)).status, 403, 'alice cannot give herself a role')
  t.equal((await ingest(app, adminToken, membership)).status, 200)
  t.equal((await ingest(app, alice.token, otherProps)).status, 200, 'an Editor edits any dataset')
  const policy = upsert('urn:li:dataHubPolicy:alice-truncate', 'dataHubPolicyInfo', {
    displayName: 'alice truncates',
    description: 'Members of ops may truncate time-series indices.',
    type: 'PLATFORM',
    state: 'ACTIVE',
    privileges: ['TRUNCATE_TIMESERIES_INDEX_PRIVILEGE'],
    actors: { groups: ['urn:li:corpGroup:ops'] },
    editable: true,
  })
  t.equal((await ingest(app, alice.token, policy)).status, 403, 'an Editor cannot manage policies')
  t.equal((await ingest(app, adminToken, policy)).status, 200)
  const truncate = { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 0 }
  const op = () => post(app, '/operations?action=truncateTimeseriesAspect', alice.token, truncate)
  t.equal((await op()).status, 403, 'alice is not in the group yet')
  const join = upsert(ALICE, 'groupMembership', { groups: ['urn:li:corpGroup:ops'] })
  t.equal((await ingest(app, adminToken, join)).status, 200)
  t.equal((await op()).status, 200, 'a group-based policy grants the operation')
  const credentials = upsert(ROOT_ACTOR, 'corpUserCredentials', { salt: 'x', hashedPassword: 'y' })
  t.equal(
    (await ingest(app, alice.token, credentials)).status,
    403,
    'credentials need MANAGE_USER_CREDENTIALS',
  )
})

t.test('OpenAPI writes, deletes and rollbacks need the same privileges', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken, tokens } = built
  const alice = await tokenFor(built, ALICE)
  const adminId = (await tokens?.verify(adminToken as string))?.jti as string
  const send = (
    method: 'DELETE' | 'POST' | 'PATCH',
    url: string,
    token: string | undefined,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    })
  const tokenUrl = `/openapi/v3/entity/dataHubAccessToken/${encodeURIComponent(accessTokenUrn(adminId))}`
  t.equal((await send('DELETE', tokenUrl, undefined)).statusCode, 401, 'no token: 401')
  const del = await send('DELETE', tokenUrl, alice.token)
  t.equal(del.statusCode, 403, "alice cannot delete the admin's token through OpenAPI")
  t.match(JSON.parse(del.body), {
    status: 403,
    message: `User ${ALICE} is unauthorized to DELETE entities: `,
  })
  t.equal(
    (await tokens?.authenticate(`Bearer ${adminToken}`))?.actor,
    ROOT_ACTOR,
    'the admin token still works',
  )

  const rootInfo = await latest(built, ROOT_ACTOR, 'corpUserInfo')
  const overwrite = [{ urn: ROOT_ACTOR, corpUserInfo: { value: { active: false, displayName: 'owned' } } }]
  t.equal((await send('POST', '/openapi/v3/entity/corpuser', alice.token, overwrite)).statusCode, 403)
  const one = `/openapi/v3/entity/corpuser/${encodeURIComponent(ROOT_ACTOR)}/corpUserInfo`
  t.equal((await send('POST', one, alice.token, { value: { active: false } })).statusCode, 403, 'one aspect')
  t.same(await latest(built, ROOT_ACTOR, 'corpUserInfo'), rootInfo, 'unchanged')

  const entityDelete = await post(app, '/entities?action=delete', alice.token, { urn: ROOT_ACTOR })
  t.same(
    [entityDelete.status, entityDelete.body.message],
    [403, `User is unauthorized to delete entity: ${ROOT_ACTOR}`],
  )
  const refs = await post(app, '/entities?action=deleteReferences', alice.token, { urn: ROOT_ACTOR })
  t.equal(refs.status, 403, 'deleteReferences')
  const rollback = await post(app, '/runs?action=rollback', alice.token, { runId: 'any-run', dryRun: false })
  t.same([rollback.status, rollback.body.message], [403, 'User is unauthorized to delete entities.'])

  const bob = await tokenFor(built, 'urn:li:corpuser:bob')
  const bobUrl = `/openapi/v3/entity/dataHubAccessToken/${encodeURIComponent(accessTokenUrn(bob.id))}`
  t.equal((await send('DELETE', bobUrl, adminToken)).statusCode, 200, 'the admin deletes through OpenAPI')
  await t.rejects(tokens?.authenticate(`Bearer ${bob.token}`) as Promise<unknown>, /revoked/)
  const byAdmin = await send('POST', one, adminToken, { value: { active: true, displayName: 'Root' } })
  t.ok(byAdmin.statusCode < 300, `the admin writes one aspect (${byAdmin.statusCode})`)
})
