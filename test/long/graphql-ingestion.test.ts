import t from 'tap'
import { adminWrite, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, getJson, type Json, postJson } from '../helpers/build.js'
import { badRequest, gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * The web UI's Ingestion page over GraphQL, as DataHub serves it: ingestion sources (create,
 * update, delete, list, read), the run history the `datahub` CLI reports (`listExecutionRequests`,
 * a source's `executions`, `executionRequest`), `rollbackIngestion`, and secrets (encrypted as
 * DataHub encrypts them). Running a source needs DataHub's executor, which this catalog has not:
 * those mutations say so.
 */

const enc = encodeURIComponent
const SOURCE_FIELDS = `urn type name schedule { interval timezone } platform { urn }
  config { recipe executorId version debugMode extraArgs { key value } }`
const CREATE = 'mutation($input: UpdateIngestionSourceInput!) { createIngestionSource(input: $input) }'
const UPDATE =
  'mutation($urn: String!, $input: UpdateIngestionSourceInput!) { updateIngestionSource(urn: $urn, input: $input) }'
const LIST = `query($input: ListIngestionSourcesInput!) { listIngestionSources(input: $input) {
  start count total ingestionSources { ${SOURCE_FIELDS} } } }`
const ONE = `query($urn: String!) { ingestionSource(urn: $urn) { ${SOURCE_FIELDS}
  executions { start count total executionRequests { urn id result { status } } }
  latestSuccessfulExecution { urn } } }`

const RECIPE = JSON.stringify({ source: { type: 'mysql', config: { host_port: 'db:3306' } } })
const input = (more: Json = {}) => ({
  name: 'Production MySQL',
  type: 'mysql',
  schedule: { interval: '0 5 * * *', timezone: 'Europe/Paris' },
  config: {
    recipe: RECIPE,
    executorId: 'default',
    version: '0.14.1',
    debugMode: false,
    extraArgs: [{ key: 'extra_pip_requirements', value: '[]' }],
  },
  ...more,
})

t.test('ingestion sources: create, read, list, update, delete', async (t) => {
  const { app } = await build(t)
  const created = await gql(app, CREATE, { input: input() })
  t.notOk(created.errors, 'no errors')
  const urn = created.data.createIngestionSource
  t.match(urn, /^urn:li:dataHubIngestionSource:[0-9a-f-]{36}$/)
  const one = await gql(app, ONE, { urn })
  t.same(one.data.ingestionSource, {
    urn,
    type: 'mysql',
    name: 'Production MySQL',
    schedule: { interval: '0 5 * * *', timezone: 'Europe/Paris' },
    platform: null,
    config: {
      recipe: RECIPE,
      executorId: 'default',
      version: '0.14.1',
      debugMode: false,
      extraArgs: [{ key: 'extra_pip_requirements', value: '[]' }],
    },
    executions: { start: 0, count: 10, total: 0, executionRequests: [] },
    latestSuccessfulExecution: null,
  })

  const other = (
    await gql(app, CREATE, { input: input({ name: 'Snowflake', type: 'snowflake', schedule: null }) })
  ).data.createIngestionSource
  let list = await gql(app, LIST, { input: {} })
  t.match(list.data.listIngestionSources, { start: 0, total: 2 })
  list = await gql(app, LIST, { input: { query: 'Snowflake' } })
  t.same(
    list.data.listIngestionSources.ingestionSources.map((s: Json) => s.urn),
    [other],
  )
  list = await gql(app, LIST, { input: { filters: [{ field: 'type', values: ['mysql'] }] } })
  t.same(
    list.data.listIngestionSources.ingestionSources.map((s: Json) => s.urn),
    [urn],
  )
  list = await gql(app, LIST, { input: { sort: { field: 'name', sortOrder: 'ASCENDING' } } })
  t.same(
    list.data.listIngestionSources.ingestionSources.map((s: Json) => s.type),
    ['mysql', 'snowflake'],
  )

  const updated = await gql(app, UPDATE, { urn, input: input({ name: 'MySQL (prod)', schedule: null }) })
  t.same(updated.data, { updateIngestionSource: urn })
  const after = (await gql(app, ONE, { urn })).data.ingestionSource
  t.equal(after.name, 'MySQL (prod)')
  t.equal(after.schedule, null, 'replaced whole')

  const deleted = await gql(app, 'mutation($urn: String!) { deleteIngestionSource(urn: $urn) }', { urn })
  t.same(deleted.data, { deleteIngestionSource: urn })
  const gone = await gql(app, ONE, { urn })
  t.match(gone.errors?.[0], {
    message: `Failed to find Ingestion Source with urn ${urn}`,
    extensions: { code: 404 },
  })
})

t.test('bad schedules and urns get a clear error; running a source says why it cannot', async (t) => {
  const { app } = await build(t)
  const cases: Array<[Json, string]> = [
    [
      { interval: '61 * * * *', timezone: 'UTC' },
      'Invalid cron schedule `61 * * * *`: minute value 61 is not in the range [0, 59]',
    ],
    [
      { interval: '* * *', timezone: 'UTC' },
      'Invalid cron schedule `* * *`: Cron expression must consist of 5 fields (found 3)',
    ],
    [{ interval: '0 5 * * MON-FRI', timezone: 'Mars/Olympus' }, 'Invalid timezone `Mars/Olympus`'],
  ]
  for (const [schedule, message] of cases) {
    const answer = await gql(app, CREATE, { input: input({ schedule }) })
    t.match(badRequest(answer, 'createIngestionSource'), { code: 400, type: 'BAD_REQUEST' })
    t.match(answer.errors[0].message, message)
  }
  t.equal((await gql(app, LIST, { input: {} })).data.listIngestionSources.total, 0, 'nothing written')
  const valid = await gql(app, CREATE, {
    input: input({ schedule: { interval: '*/15 0-6 1,15 JAN-MAR ?', timezone: 'UTC' } }),
  })
  t.notOk(valid.errors, 'steps, ranges, lists and names are fine')
  const malformed = await gql(app, ONE, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)' })
  t.match(malformed.errors?.[0], { message: /^Malformed urn /, extensions: { code: 400 } })

  const run = await gql(
    app,
    'mutation($urn: String!) { createIngestionExecutionRequest(input: {ingestionSourceUrn: $urn}) }',
    {
      urn: valid.data.createIngestionSource,
    },
  )
  t.match(run.errors?.[0]?.message, /no ingestion executor.*datahub ingest -c/)
  const test = await gql(app, 'mutation { createTestConnectionRequest(input: {recipe: "{}"}) }')
  t.match(test.errors?.[0]?.message, /no ingestion executor/)
})

/** What `datahub ingest` reports of a run (DatahubIngestionRunSummaryProvider). */
async function cliRun(app: Parameters<typeof gql>[0], runId: string, status: string, requestedAt: number) {
  const source = 'urn:li:dataHubIngestionSource:cli-4b1e1d'
  await ingestAspect(app, 'dataHubIngestionSource', source, 'dataHubIngestionSourceInfo', {
    name: '[CLI] mysql',
    type: 'mysql',
    platform: 'urn:li:dataPlatform:mysql',
    config: { recipe: RECIPE, version: '0.14.1', executorId: '__datahub_cli_' },
  })
  const request = `urn:li:dataHubExecutionRequest:${runId}`
  await ingestAspect(app, 'dataHubExecutionRequest', request, 'dataHubExecutionRequestInput', {
    task: 'CLI Ingestion',
    args: { recipe: RECIPE, version: '0.14.1' },
    executorId: '__datahub_cli_',
    requestedAt,
    source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: source },
  })
  await ingestAspect(app, 'dataHubExecutionRequest', request, 'dataHubExecutionRequestResult', {
    status,
    startTimeMs: requestedAt,
    durationMs: 1234,
    report: '~~~~ Ingestion Report ~~~~\n{}',
    structuredReport: { type: 'CLI_INGEST', serializedValue: '{}', contentType: 'application/json' },
  })
  return { source, request }
}

t.test("the CLI's reported runs: history, a source's executions, one run, rollback", async (t) => {
  const { app } = await build(t)
  const { source, request: failed } = await cliRun(app, 'mysql-2026_11_27-10_00_00-abc123', 'FAILURE', 1_000)
  const { request: ok } = await cliRun(app, 'mysql-2026_11_27-11_00_00-def456', 'SUCCESS', 2_000)

  const history = await gql(
    app,
    `query { listExecutionRequests(input: {}) { start count total executionRequests { urn id
      input { task requestedAt executorId source { type ingestionSource } arguments { key } }
      result { status startTimeMs durationMs report structuredReport { type contentType } }
      source { urn name config { executorId } } } } }`,
  )
  t.notOk(history.errors, 'no errors')
  const requests = history.data.listExecutionRequests.executionRequests
  t.same(
    requests.map((r: Json) => r.urn),
    [ok, failed],
    'newest first',
  )
  t.match(requests[0], {
    id: 'mysql-2026_11_27-11_00_00-def456',
    input: {
      task: 'CLI Ingestion',
      requestedAt: 2_000,
      executorId: '__datahub_cli_',
      source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: source },
      arguments: [{ key: 'recipe' }, { key: 'version' }],
    },
    result: {
      status: 'SUCCESS',
      startTimeMs: 2_000,
      durationMs: 1234,
      structuredReport: { type: 'CLI_INGEST' },
    },
    source: { urn: source, name: '[CLI] mysql', config: { executorId: '__datahub_cli_' } },
  })
  const one = await gql(app, ONE, { urn: source })
  t.match(one.data.ingestionSource, {
    platform: { urn: 'urn:li:dataPlatform:mysql' },
    executions: {
      total: 2,
      executionRequests: [{ urn: ok }, { urn: failed, result: { status: 'FAILURE' } }],
    },
    latestSuccessfulExecution: { urn: ok },
  })
  const cliOnly = await gql(app, LIST, {
    input: { filters: [{ field: 'sourceExecutorId', values: ['__datahub_cli_'] }] },
  })
  t.same(
    cliOnly.data.listIngestionSources.ingestionSources.map((s: Json) => s.urn),
    [source],
    "the UI's CLI tab",
  )
  const byUrn = await gql(app, `{ executionRequest(urn: "${ok}") { urn result { status } } }`)
  t.same(byUrn.data.executionRequest, { urn: ok, result: { status: 'SUCCESS' } })

  // Rollback: what the run wrote goes; its execution request says so.
  const runId = 'mysql-2026_11_27-11_00_00-def456'
  const ds = 'urn:li:dataset:(urn:li:dataPlatform:mysql,shop.orders,PROD)'
  const res = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: ds,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { value: JSON.stringify({ name: 'orders' }), contentType: 'application/json' },
      systemMetadata: { runId, lastObserved: 5 },
    },
  })
  t.equal(res.status, 200)
  const rollback = await gql(app, 'mutation($runId: String!) { rollbackIngestion(input: {runId: $runId}) }', {
    runId,
  })
  t.same(rollback.data, { rollbackIngestion: 'true' })
  t.equal(
    (await getJson(app, `/aspects/${enc(ds)}?aspect=datasetProperties&version=0`)).status,
    404,
    'rolled back',
  )
  const marked = await gql(app, `{ executionRequest(urn: "${ok}") { result { status report } } }`)
  t.same(marked.data.executionRequest.result, {
    status: 'ROLLED_BACK',
    report: '~~~~ Ingestion Report ~~~~\n{}',
  })
})

t.test('secrets: encrypted at rest, listed without values, read back by name', async (t) => {
  // Secrets need the server's key: a real server always has one (auth on or off).
  const built = await build(t, { auth: true })
  const { app } = built
  const gql = async (query: string, variables?: Json) =>
    (await gqlAs(app, built.adminToken as string, query, variables)).body
  const getJson = async (url: string) => {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${built.adminToken}` },
    })
    return { status: res.statusCode, body: JSON.parse(res.body) }
  }
  const create = (name: string, value: string, description?: string) =>
    gql('mutation($input: CreateSecretInput!) { createSecret(input: $input) }', {
      input: { name, value, ...(description ? { description } : {}) },
    })
  t.same((await create('MYSQL_PASSWORD', 's3cr3t!', 'the prod password')).data, {
    createSecret: 'urn:li:dataHubSecret:MYSQL_PASSWORD',
  })
  await create('SNOWFLAKE_KEY', 'key-1')
  const dup = await create('MYSQL_PASSWORD', 'other')
  t.match(badRequest(dup, 'createSecret'), { message: 'This Secret already exists!', code: 400 })

  const stored = await getJson(
    `/aspects/${enc('urn:li:dataHubSecret:MYSQL_PASSWORD')}?aspect=dataHubSecretValue&version=0`,
  )
  const value = stored.body.aspect['com.linkedin.secret.DataHubSecretValue']
  t.match(value.value, /^v2:/, "stored encrypted, in DataHub's format")
  t.notOk(value.value.includes('s3cr3t'), 'not in clear')
  t.match(value.created, { actor: 'urn:li:corpuser:datahub' })

  const list = await gql('{ listSecrets(input: {}) { start count total secrets { urn name description } } }')
  t.equal(list.data.listSecrets.total, 2)
  t.same(list.data.listSecrets.secrets[1], {
    urn: 'urn:li:dataHubSecret:MYSQL_PASSWORD',
    name: 'MYSQL_PASSWORD',
    description: 'the prod password',
  })
  const values = await gql('{ getSecretValues(input: {secrets: ["MYSQL_PASSWORD", "NOPE"]}) { name value } }')
  t.same(values.data.getSecretValues, [{ name: 'MYSQL_PASSWORD', value: 's3cr3t!' }])

  const update = await gql('mutation($input: UpdateSecretInput!) { updateSecret(input: $input) }', {
    input: { urn: 'urn:li:dataHubSecret:MYSQL_PASSWORD', name: 'MYSQL_PASSWORD', value: 'rotated' },
  })
  t.same(update.data, { updateSecret: 'urn:li:dataHubSecret:MYSQL_PASSWORD' })
  const rotated = await gql('{ getSecretValues(input: {secrets: ["MYSQL_PASSWORD"]}) { value } }')
  t.same(rotated.data.getSecretValues, [{ value: 'rotated' }])
  const missing = await gql('mutation($input: UpdateSecretInput!) { updateSecret(input: $input) }', {
    input: { urn: 'urn:li:dataHubSecret:NOPE', name: 'NOPE', value: 'x' },
  })
  t.match(badRequest(missing, 'updateSecret'), {
    message: "Secret for urn urn:li:dataHubSecret:NOPE doesn't exists!",
  })
  const del = await gql('mutation { deleteSecret(urn: "urn:li:dataHubSecret:SNOWFLAKE_KEY") }')
  t.same(del.data, { deleteSecret: 'urn:li:dataHubSecret:SNOWFLAKE_KEY' })
  t.equal((await gql('{ listSecrets(input: {}) { total } }')).data.listSecrets.total, 1)
})

t.test('ingestion needs MANAGE_INGESTION, secrets MANAGE_SECRETS', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const list = await gqlAs(built.app, reader, LIST, { input: {} })
  t.same(
    list.body.errors?.[0]?.message,
    'You are not authorized to list ingestion sources. Please contact your DataHub administrator.',
  )
  const create = await gqlAs(built.app, reader, CREATE, { input: input() })
  t.equal(create.body.errors?.[0]?.extensions?.code, 403, 'create refused')
  const runs = await gqlAs(built.app, reader, '{ listExecutionRequests(input: {}) { total } }')
  t.equal(runs.body.errors?.[0]?.extensions?.code, 403, 'run history refused')
  const secret = await gqlAs(built.app, reader, 'mutation { createSecret(input: {name: "X", value: "y"}) }')
  t.equal(secret.body.errors?.[0]?.extensions?.code, 403, 'createSecret refused')
  const values = await gqlAs(built.app, reader, '{ getSecretValues(input: {secrets: ["X"]}) { value } }')
  t.equal(values.body.errors?.[0]?.extensions?.code, 403, 'getSecretValues refused')
  const admin = await gqlAs(
    built.app,
    built.adminToken as string,
    'mutation { createSecret(input: {name: "X", value: "y"}) }',
  )
  t.same(admin.body.data, { createSecret: 'urn:li:dataHubSecret:X' }, 'the admin may')
})
