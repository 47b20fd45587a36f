import t from 'tap'
import { aspectOf, assignRole, get, gql as gqlAs, post, tokenFor, upsert } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql } from '../helpers/mutation-kit.js'

/** Connections to external platforms (DataHub's `upsertConnection` and `connection`), their JSON encrypted at rest. */

const UPSERT = `mutation($input: UpsertDataHubConnectionInput!) { upsertConnection(input: $input) {
  urn type details { type name json { blob } } platform { urn name } } }`
const READ = `query($urn: String!) { connection(urn: $urn) { urn details { type name json { blob } } platform { urn } } }`
const BLOB = JSON.stringify({ account: 'acme', password: 'hunter2' })

t.test('upsert a connection, read it back decrypted; the stored blob is encrypted', async (t) => {
  const built = await build(t, { auth: true })
  const made = await gqlAs(built.app, built.adminToken, UPSERT, {
    input: {
      id: 'snowflake-prod',
      type: 'JSON',
      platformUrn: 'urn:li:dataPlatform:snowflake',
      json: { blob: BLOB },
    },
  })
  t.notOk(made.body.errors, 'no errors')
  t.same(made.body.data.upsertConnection, {
    urn: 'urn:li:dataHubConnection:snowflake-prod',
    type: 'DATAHUB_CONNECTION',
    details: { type: 'JSON', name: 'snowflake-prod', json: { blob: BLOB } },
    platform: { urn: 'urn:li:dataPlatform:snowflake', name: 'snowflake' },
  })
  const stored = (await aspectOf(
    built,
    'urn:li:dataHubConnection:snowflake-prod',
    'dataHubConnectionDetails',
  )) as {
    json: { encryptedBlob: string }
  }
  t.equal(stored.json.encryptedBlob.includes('hunter2'), false, 'encrypted at rest')
  t.same(await aspectOf(built, 'urn:li:dataHubConnection:snowflake-prod', 'dataPlatformInstance'), {
    platform: 'urn:li:dataPlatform:snowflake',
  })

  const renamed = await gqlAs(built.app, built.adminToken, UPSERT, {
    input: {
      id: 'snowflake-prod',
      name: 'Snowflake (prod)',
      type: 'JSON',
      platformUrn: 'urn:li:dataPlatform:snowflake',
      json: { blob: '{}' },
    },
  })
  t.same(
    renamed.body.data.upsertConnection.details,
    { type: 'JSON', name: 'Snowflake (prod)', json: { blob: '{}' } },
    'replaced whole',
  )

  const noId = await gqlAs(built.app, built.adminToken, UPSERT, {
    input: { type: 'JSON', platformUrn: 'urn:li:dataPlatform:looker', json: { blob: '{}' } },
  })
  t.match(
    noId.body.data.upsertConnection,
    { urn: /^urn:li:dataHubConnection:[0-9a-f-]{36}$/, details: { name: null } },
    'a new id without one',
  )

  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const seen = await gqlAs(built.app, token, READ, { urn: 'urn:li:dataHubConnection:snowflake-prod' })
  t.same(
    seen.body.data.connection.details,
    { type: 'JSON', name: 'Snowflake (prod)', json: null },
    'the blob only for those who may manage connections',
  )
  const denied = await gqlAs(built.app, token, UPSERT, {
    input: { id: 'mine', type: 'JSON', platformUrn: 'urn:li:dataPlatform:looker', json: { blob: '{}' } },
  })
  t.equal(
    denied.body.errors?.[0]?.message,
    'Unauthorized to upsert Connection. Please contact your DataHub administrator for more information.',
  )
  t.equal(
    await aspectOf(built, 'urn:li:dataHubConnection:mine', 'dataHubConnectionDetails'),
    undefined,
    'nothing written',
  )

  const search = await gqlAs(
    built.app,
    built.adminToken,
    '{ searchAcrossEntities(input: {query: "snowflake", start: 0, count: 10}) { total } }',
  )
  t.equal(search.body.data.searchAcrossEntities.total, 0, 'connections are not searched')
})

t.test('bad input: nothing written; a connection that does not exist is null', async (t) => {
  const { app } = await build(t, { auth: false })
  const noJson = await gql(app, UPSERT, {
    input: { id: 'x', type: 'JSON', platformUrn: 'urn:li:dataPlatform:looker' },
  })
  t.equal(noJson.errors?.[0]?.message, "Connections with type JSON must provide the field 'json'.")
  const badPlatform = await gql(app, UPSERT, {
    input: { id: 'x', type: 'JSON', platformUrn: 'urn:li:corpuser:x', json: { blob: '{}' } },
  })
  t.equal(badPlatform.errors?.[0]?.message, 'Malformed urn urn:li:corpuser:x provided.')
  const read = await gql(app, READ, { urn: 'urn:li:dataHubConnection:x' })
  t.notOk(read.errors)
  t.equal(read.data.connection, null, 'none written, none read')
  const wrongType = await gql(app, READ, { urn: 'urn:li:corpuser:x' })
  t.equal(wrongType.errors?.[0]?.message, 'Malformed urn urn:li:corpuser:x provided.')
})

t.test('over REST too, only those who may manage connections write or read them', async (t) => {
  const built = await build(t, { auth: true })
  await gqlAs(built.app, built.adminToken, UPSERT, {
    input: {
      id: 'warehouse',
      type: 'JSON',
      platformUrn: 'urn:li:dataPlatform:snowflake',
      json: { blob: BLOB },
    },
  })
  const admin = 'urn:li:corpuser:admin-role'
  await assignRole(built, admin, 'Admin')
  const token = await tokenFor(built, admin)
  const urn = 'urn:li:dataHubConnection:warehouse'
  const stored = (await aspectOf(built, urn, 'dataHubConnectionDetails')) as Record<string, unknown>
  const write = await post(
    built.app,
    '/aspects?action=ingestProposal',
    token,
    upsert(urn, 'dataHubConnectionDetails', { ...stored, name: 'mine' }),
  )
  t.equal(write.status, 403, 'EDIT_ENTITY on everything is not enough to write one')
  t.equal(
    ((await aspectOf(built, urn, 'dataHubConnectionDetails')) as { name: string }).name,
    'warehouse',
    'unchanged',
  )
  const read = await get(
    built.app,
    `/entitiesV2/${encodeURIComponent(urn)}?aspects=List(dataHubConnectionDetails)`,
    token,
  )
  t.equal(read.status, 403, 'nor to read its encrypted blob')
})
