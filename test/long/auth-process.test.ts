import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t, { type Test } from 'tap'
import type { Json } from '../helpers/build.js'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { ROOT, type Running, startApp, startMetadataBehindGateway } from '../helpers/spawn.js'

/** Authentication across real processes: first start, restart, the token CLI, split mode. */

const run = promisify(execFile)
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
const enc = encodeURIComponent

function auth(token?: string): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {}
}

async function status(base: string, path: string, token?: string): Promise<number> {
  const res = await fetch(base + path, { headers: auth(token) })
  await res.arrayBuffer()
  return res.status
}

async function gql(
  base: string,
  token: string | undefined,
  query: string,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(token) },
    body: JSON.stringify({ query }),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

/** Runs the token CLI against a data dir; resolves with its stdout. */
async function tokenCli(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(ROOT, 'apps/cli/bin/catalog.mjs'), 'token', ...args], {
    cwd: ROOT,
    env: { ...process.env, CATALOG_DATA_DIR: dir, CATALOG_LOG_LEVEL: 'info' },
  })
  return stdout.trim()
}

/** Polls until `check` is true (cross-process revocation is seen within the verifier's cache lifetime). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 250))
  }
  return false
}

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-auth-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('first start writes admin.token; restarts reuse it; the CLI mints and revokes tokens', async (t) => {
  const dir = tempDir(t)
  const env = { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'on' }
  let app: Running = await startApp('apps/gateway/src/all-in-one.ts', env)
  t.teardown(() => app.stop())
  const adminFile = join(dir, 'admin.token')
  t.equal(statSync(adminFile).mode & 0o777, 0o600, 'admin.token is private (0600)')
  t.equal(statSync(join(dir, 'token.secret')).mode & 0o777, 0o600, 'token.secret is private (0600)')
  t.match(
    app.output(),
    new RegExp(`"adminTokenFile":"${adminFile.replace(/[/\\]/g, '\\$&')}"`),
    'the log says where the admin token is',
  )
  const admin = readFileSync(adminFile, 'utf8').trim()

  t.equal(await status(app.url, `/entitiesV2/${enc(HIVE)}`), 401, 'no token: 401')
  t.equal(await status(app.url, `/entitiesV2/${enc(HIVE)}`, admin), 200, 'admin token: 200')
  t.equal(await status(app.url, '/health'), 200, '/health is public')
  t.equal(await status(app.url, '/config'), 200, '/config is public')
  const noToken = await gql(app.url, undefined, '{ __typename }')
  t.equal(noToken.status, 401)
  t.equal(noToken.body.errors[0].extensions.type, 'UNAUTHORIZED')

  const alice = await tokenCli(
    dir,
    'create',
    '--actor',
    'urn:li:corpuser:alice',
    '--ttl',
    '30d',
    '--name',
    'from the cli',
  )
  t.match(alice, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the CLI prints a JWT')
  t.equal(
    await status(app.url, `/entitiesV2/${enc(HIVE)}`, alice),
    200,
    'the CLI token works against the running server',
  )
  const meta = await gql(
    app.url,
    alice,
    `query { getAccessTokenMetadata(token: "${alice}") { id actorUrn name expiresAt createdAt } }`,
  )
  const info = meta.body.data.getAccessTokenMetadata
  t.match(info, { actorUrn: 'urn:li:corpuser:alice', name: 'from the cli' })
  t.equal(info.expiresAt - info.createdAt, 30 * 86_400_000, '--ttl 30d')

  await t.rejects(
    tokenCli(dir, 'create', '--actor', 'bob'),
    'a bad actor fails with a message and a non-zero exit',
  )
  t.match(await tokenCli(dir, 'list'), new RegExp(`^${info.id}\turn:li:corpuser:alice\t`, 'm'), 'listed')
  await tokenCli(dir, 'revoke', info.id)
  t.notMatch(await tokenCli(dir, 'list'), info.id, 'not listed once revoked')
  t.ok(
    await eventually(async () => (await status(app.url, `/entitiesV2/${enc(HIVE)}`, alice)) === 401),
    'a token revoked by another process is refused within the cache lifetime',
  )

  await app.stop()
  app = await startApp('apps/gateway/src/all-in-one.ts', env)
  t.equal(readFileSync(adminFile, 'utf8').trim(), admin, 'a restart keeps the admin token')
  t.equal(await status(app.url, `/entitiesV2/${enc(HIVE)}`, admin), 200, 'and it still works')
  t.equal(await status(app.url, `/entitiesV2/${enc(HIVE)}`, alice), 401, 'the revoked token stays revoked')
})

t.test('split mode: the gateway and the metadata service both verify tokens', async (t) => {
  const dir = tempDir(t)
  const { metadata, gateway } = await startMetadataBehindGateway(t, dir, 'on')
  const admin = readFileSync(join(dir, 'admin.token'), 'utf8').trim()

  t.equal(await status(gateway.url, `/entitiesV2/${enc(HIVE)}`), 401, 'gateway without a token: 401')
  t.equal(
    await status(metadata.url, `/entitiesV2/${enc(HIVE)}`),
    401,
    'metadata service without a token: 401',
  )
  t.equal((await gql(gateway.url, undefined, '{ __typename }')).status, 401, 'GraphQL without a token: 401')

  for (const record of loadExample('tagsAndTerms')) {
    const call = toIngestCall(record)
    const res = await fetch(gateway.url + call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth(admin) },
      body: JSON.stringify(call.body),
    })
    t.equal(res.status, 200, `ingest ${call.urn} through the gateway`)
    await res.arrayBuffer()
  }
  const ds = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
  const minted = await gql(
    gateway.url,
    admin,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:carol", duration: ONE_HOUR, name: "c"}) { accessToken metadata { id } } }',
  )
  const carol = minted.body.data.createAccessToken.accessToken
  // Writes need a privilege (DataHub's policies): the admin makes carol an Editor.
  const role = await fetch(`${gateway.url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(admin) },
    body: JSON.stringify({
      proposal: {
        entityType: 'corpuser',
        entityUrn: 'urn:li:corpuser:carol',
        changeType: 'UPSERT',
        aspectName: 'roleMembership',
        aspect: { contentType: 'application/json', value: '{"roles":["urn:li:dataHubRole:Editor"]}' },
      },
    }),
  })
  t.equal(role.status, 200, 'the admin assigns a role')
  await role.arrayBuffer()
  const add = await gql(
    gateway.url,
    carol,
    `mutation { addTag(input: {tagUrn: "urn:li:tag:Legacy", resourceUrn: "${ds}"}) }`,
  )
  t.same(add.body, { data: { addTag: true } }, 'GraphQL writes over HTTP in split mode')
  const read = await gql(
    gateway.url,
    carol,
    `{ dataset(urn: "${ds}") { tags { tags { tag { urn name description } } } } }`,
  )
  t.same(read.body.data.dataset.tags.tags, [
    {
      tag: {
        urn: 'urn:li:tag:Legacy',
        name: 'Legacy',
        description: 'Indicates the dataset is no longer supported',
      },
    },
  ])
  const stored = await fetch(`${metadata.url}/entitiesV2/${enc(ds)}?aspects=List(globalTags)`, {
    headers: auth(admin),
  })
  t.equal(
    ((await stored.json()) as Json).aspects.globalTags.created.actor,
    'urn:li:corpuser:carol',
    'the forwarded token is the actor',
  )

  const revoke = await gql(
    gateway.url,
    admin,
    `mutation { revokeAccessToken(tokenId: "${minted.body.data.createAccessToken.metadata.id}") }`,
  )
  t.same(revoke.body, { data: { revokeAccessToken: true } })
  t.equal(
    await status(gateway.url, `/entitiesV2/${enc(ds)}`, carol),
    401,
    'the gateway refuses the revoked token at once',
  )
  t.ok(
    await eventually(async () => (await status(metadata.url, `/entitiesV2/${enc(ds)}`, carol)) === 401),
    'so does the metadata service',
  )
})
