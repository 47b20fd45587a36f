/**
 * A `datahub ingest` run with the datahub-rest sink, replayed call by call as the CLI sends it
 * (rest_emitter.py, sink/datahub_rest.py, datahub_ingestion_run_summary_provider.py,
 * datahub_ingestion_checkpointing_provider.py), then `datahub ingest list-runs`, `show` and
 * `rollback --nuke` (ingest_cli.py). The rollback must leave nothing of the run behind: no aspect
 * row, edge, search document or time-series row.
 */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, type Json } from '../helpers/build.js'
import { pyJson } from '../helpers/sdk-session.js'

const RUN = 'file-2026_11_25-10_00_00-k3x9qz'
const PIPELINE = 'demo-pipeline'
const NEW = 'urn:li:dataset:(urn:li:dataPlatform:hive,ingest_run.orders,PROD)'
const OLD = 'urn:li:dataset:(urn:li:dataPlatform:hive,ingest_run.customers,PROD)'
const TAG = 'urn:li:tag:IngestRunPii'
const SOURCE = 'urn:li:dataHubIngestionSource:cli-9c2f0e6d4b8a1735e0c4d2b6a8f91e37'
const REQUEST = `urn:li:dataHubExecutionRequest:${RUN}`
const JOB = `urn:li:dataJob:(urn:li:dataFlow:(datahub,${PIPELINE},prod),${PIPELINE}_stale_entity_removal)`
const DAY = 86_400_000
const T0 = 1_764_028_800_000

/** `ensure_has_system_metadata`: the run's workunits carry runId and pipelineName; others the default run id. */
const systemMetadata = (runId: string | undefined, at: number) => ({
  lastObserved: at,
  runId: runId ?? 'no-run-id-provided',
  ...(runId ? { pipelineName: PIPELINE } : {}),
  registryName: null,
  registryVersion: null,
  properties: { clientId: 'acryl-datahub', clientVersion: '1.3.1' },
})

/** `pre_json_transform(mcp.to_obj())` of a `MetadataChangeProposalWrapper`. */
const mcp = (urn: string, aspectName: string, value: unknown, runId: string | undefined, at = T0) => ({
  entityType: urn.split(':')[2],
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: pyJson(value), contentType: 'application/json' },
  systemMetadata: systemMetadata(runId, at),
})

/** The CLI's session: `json.dumps` bodies with the Rest.li and client headers. */
function cli(app: CatalogServer) {
  const headers = {
    'content-type': 'application/json',
    'x-restli-protocol-version': '2.0.0',
    'user-agent': 'DataHub-Client/1.0 (ingestion; cli/ingest; 1.3.1) python-requests/2.32.3',
    'x-datahub-client-mode': 'INGESTION',
    'x-datahub-py-cli-version': '1.3.1',
  }
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    })
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : undefined }
  }
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body: unknown) => call('POST', url, body),
    /** `_emit_restli_mcps`: one chunk. */
    batch: (proposals: unknown[]) =>
      call('POST', '/aspects?action=ingestProposalBatch', { proposals, async: 'false' }),
    /** `DataHubGraph.emit_mcp` on Rest.li (SYNC_PRIMARY). */
    one: (proposal: unknown) => call('POST', '/aspects?action=ingestProposal', { proposal, async: 'false' }),
  }
}

const enc = encodeURIComponent
const profile = (at: number, rowCount: number) => ({
  timestampMillis: at,
  eventGranularity: { unit: 'DAY', multiple: 1 },
  partitionSpec: { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' },
  rowCount,
  columnCount: 2,
})

/** `get_latest_timeseries_value` of the checkpoint provider. */
const checkpointQuery = {
  urn: JOB,
  entity: 'dataJob',
  aspect: 'datahubIngestionCheckpoint',
  latestValue: true,
  filter: { or: [{ and: [{ field: 'pipelineName', value: PIPELINE, condition: 'EQUAL' }] }] },
}

t.test('datahub ingest (datahub-rest sink), list-runs, show, rollback --nuke', async (t) => {
  const { app } = await build(t)
  const client = cli(app)

  // An earlier run wrote the existing dataset and a profile of it.
  t.equal(
    (
      await client.batch([
        mcp(
          OLD,
          'datasetProperties',
          { description: 'before', customProperties: {}, tags: [] },
          'earlier-run',
        ),
        mcp(OLD, 'datasetProfile', profile(T0 - DAY, 10), 'earlier-run'),
      ])
    ).status,
    200,
  )

  // 1. The sink's connection test: GET /config. The CLI (client mode INGESTION) stays on Rest.li.
  const config = await client.get('/config')
  t.equal(config.status, 200)
  t.equal(config.body.noCode, 'true', 'the emitter refuses a server without noCode "true"')
  t.equal(config.body.statefulIngestionCapable, true, 'the checkpoint provider requires it')

  // 2. The run reporter: source info through the sink, the request input synchronously.
  const recipe = pyJson({ source: { type: 'file', config: { path: 'mces.json' } }, pipeline_name: PIPELINE })
  t.equal(
    (
      await client.batch([
        mcp(
          SOURCE,
          'dataHubIngestionSourceInfo',
          {
            name: `[CLI] file [${PIPELINE}]`,
            type: 'file',
            platform: 'urn:li:dataPlatform:unknown',
            config: { recipe, version: '1.3.1', executorId: '__datahub_cli_' },
          },
          undefined,
        ),
      ])
    ).status,
    200,
  )
  const input = await client.one(
    mcp(
      REQUEST,
      'dataHubExecutionRequestInput',
      {
        task: 'CLI Ingestion',
        args: { recipe, version: '1.3.1' },
        executorId: '__datahub_cli_',
        requestedAt: T0,
        source: { type: 'CLI_INGESTION_SOURCE', ingestionSource: SOURCE },
      },
      undefined,
    ),
  )
  t.equal(input.status, 200)

  // 3. Stateful ingestion reads the last checkpoint: none yet.
  const before = await client.post('/aspects?action=getTimeseriesAspectValues', checkpointQuery)
  t.equal(before.status, 200)
  t.same(before.body.value.values, [], 'no checkpoint before the first run')

  // 4. The workunits, in MCP batches: a new dataset with tags and lineage, an update of the
  //    existing one, and profiles of both.
  const workunits = [
    mcp(
      NEW,
      'datasetProperties',
      { description: 'orders from the run', customProperties: {}, tags: [] },
      RUN,
    ),
    mcp(NEW, 'globalTags', { tags: [{ tag: TAG }] }, RUN),
    mcp(
      NEW,
      'upstreamLineage',
      {
        upstreams: [
          { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: OLD, type: 'TRANSFORMED' },
        ],
      },
      RUN,
    ),
    mcp(NEW, 'datasetProfile', profile(T0, 42), RUN),
  ]
  t.equal((await client.batch(workunits)).status, 200)
  t.equal(
    (
      await client.batch([
        mcp(OLD, 'datasetProperties', { description: 'after', customProperties: {}, tags: [] }, RUN),
        mcp(OLD, 'globalTags', { tags: [{ tag: TAG }] }, RUN),
        mcp(OLD, 'datasetProfile', profile(T0, 11), RUN),
      ])
    ).status,
    200,
  )

  // 5. The checkpoint: status removed, then the checkpoint itself, then read back as the provider reads it.
  t.equal((await client.one(mcp(JOB, 'status', { removed: true }, undefined))).status, 200)
  const state = { formatVersion: '1.0', serde: 'base85-bz2-json', payload: 'LRx4!F+o`-Q(4)<4JN7dsa' }
  const checkpoint = {
    timestampMillis: T0,
    pipelineName: PIPELINE,
    platformInstanceId: '',
    config: '',
    state,
    runId: RUN,
  }
  t.equal((await client.one(mcp(JOB, 'datahubIngestionCheckpoint', checkpoint, undefined))).status, 200)
  const readBack = await client.post('/aspects?action=getTimeseriesAspectValues', checkpointQuery)
  t.equal(readBack.body.value.values.length, 1, 'the provider asserts exactly one value')
  t.match(JSON.parse(readBack.body.value.values[0].aspect.value), {
    pipelineName: PIPELINE,
    runId: RUN,
    state,
  })

  // 6. The run report's result, through the sink.
  const result = await client.batch([
    mcp(
      REQUEST,
      'dataHubExecutionRequestResult',
      {
        status: 'SUCCESS',
        startTimeMs: T0,
        durationMs: 1200,
        report: '~~~~ Ingestion Report ~~~~\n{}',
        structuredReport: { type: 'CLI_INGEST', serializedValue: '{}', contentType: 'application/json' },
      },
      undefined,
    ),
  ])
  t.equal(result.status, 200)

  // `datahub ingest list-runs`: runId, rows, created at.
  const runs = await client.post('/runs?action=list', { pageOffset: 0, pageSize: 10, includeSoft: false })
  t.equal(runs.status, 200)
  const mine = runs.body.value.find((r: Json) => r.runId === RUN)
  t.ok(mine, 'the run is listed')
  t.equal(mine.timestamp, T0)
  t.notOk(
    runs.body.value.some((r: Json) => r.runId === 'no-run-id-provided'),
    'the reserved run id is never listed',
  )

  // `datahub ingest show --run-id`: the rows the run wrote last, with the new entity's defaults.
  const show = await client.post('/runs?action=describe', {
    runId: RUN,
    start: 0,
    count: 100,
    includeSoft: false,
    includeAspect: false,
  })
  t.equal(show.status, 200)
  const rows = show.body.value.map((r: Json) => `${r.urn === NEW ? 'new' : 'old'}/${r.aspectName}`)
  t.equal(mine.rows, rows.length, 'list-runs counts the rows show lists')
  for (const row of ['new/datasetKey', 'new/datasetProperties', 'new/globalTags', 'new/upstreamLineage'])
    t.ok(rows.includes(row), `show lists ${row}`)
  t.ok(
    rows.includes('new/browsePathsV2') || rows.includes('new/browsePaths'),
    'default aspects carry the run id',
  )
  t.ok(
    rows.includes('old/datasetProperties') && rows.includes('old/globalTags'),
    'updates of the old dataset',
  )
  t.notOk(rows.includes('old/datasetKey'), 'the old dataset was not created by the run')
  t.same(
    show.body.value.filter((r: Json) => r.keyAspect).map((r: Json) => r.urn),
    [NEW],
    'only the created entity has its key row in the run',
  )

  // `datahub ingest rollback --run-id --dry-run --nuke`: nothing changes.
  const dry = await client.post('/runs?action=rollback', { runId: RUN, dryRun: true, safe: false })
  t.equal(dry.status, 200)
  t.match(dry.body.value, { entitiesDeleted: 1, unsafeEntitiesCount: 0, aspectsAffected: 0 })
  t.equal((await client.get(`/aspects/${enc(NEW)}?aspect=datasetKey&version=0`)).status, 200, 'dry run')

  // `datahub ingest rollback --run-id --force --nuke`.
  const done = await client.post('/runs?action=rollback', { runId: RUN, dryRun: false, safe: false })
  t.equal(done.status, 200)
  const summary = done.body.value
  for (const field of ['entitiesAffected', 'aspectsReverted', 'aspectsAffected', 'unsafeEntitiesCount'])
    t.type(summary[field], 'number', `the CLI reads ${field}`)
  t.ok(Array.isArray(summary.unsafeEntities) && Array.isArray(summary.aspectRowSummaries))
  t.equal(summary.entitiesAffected, 2)
  t.ok(
    summary.aspectsReverted >= rows.length + 1,
    `reverted ${summary.aspectsReverted} (rows and time series)`,
  )

  // Nothing of the new entity is left: no aspect row, no edge, no search document, no time series.
  for (const aspect of ['datasetKey', 'datasetProperties', 'globalTags', 'upstreamLineage', 'browsePathsV2'])
    t.equal((await client.get(`/aspects/${enc(NEW)}?aspect=${aspect}&version=0`)).status, 404, `no ${aspect}`)
  t.equal(
    (await client.post('/entities?action=exists', { urn: NEW, includeSoftDelete: true })).body.value,
    false,
  )
  const tagged = await client.get(`/relationships?urn=${enc(TAG)}&direction=INCOMING&types=List(TaggedWith)`)
  t.equal(tagged.status, 200)
  t.same(
    tagged.body.relationships,
    [],
    'no TaggedWith edge: neither the new entity nor the reverted tags of the old',
  )
  const lineage = await client.get(
    `/relationships?urn=${enc(OLD)}&direction=INCOMING&types=List(DownstreamOf)`,
  )
  t.same(lineage.body.relationships, [], 'no DownstreamOf edge')
  const search = await client.post('/entities?action=search', {
    input: 'ingest_run',
    entity: 'dataset',
    start: 0,
    count: 10,
  })
  // The CLI gets DataHub's SearchEntity records (its User-Agent is DataHub-Client/...).
  const found = (search.body.value.entities as Array<{ entity: string }>).map((e) => e.entity)
  t.same(found, [OLD], 'the new entity left the search index')
  const series = async (urn: string) =>
    (
      await client.post('/aspects?action=getTimeseriesAspectValues', {
        urn,
        entity: 'dataset',
        aspect: 'datasetProfile',
        limit: 10,
      })
    ).body.value.values.map((v: Json) => JSON.parse(v.aspect.value).rowCount)
  t.same(await series(NEW), [], 'no time-series row of the new entity')
  t.same(await series(OLD), [10], "the run's profile of the old dataset went; the earlier one stays")

  // The old dataset is back to its previous version; what the run did not write stays.
  const old = await client.get(`/aspects/${enc(OLD)}?aspect=datasetProperties&version=0`)
  t.equal(old.body.aspect['com.linkedin.dataset.DatasetProperties'].description, 'before')
  t.equal((await client.get(`/aspects/${enc(OLD)}?aspect=globalTags&version=0`)).status, 404)
  t.equal(
    (await client.get(`/aspects/${enc(REQUEST)}?aspect=dataHubExecutionRequestResult&version=0`)).status,
    200,
  )
  const kept = await client.post('/aspects?action=getTimeseriesAspectValues', checkpointQuery)
  t.equal(kept.body.value.values.length, 1, 'the checkpoint is not part of the run')

  const after = await client.post('/runs?action=list', { pageOffset: 0, pageSize: 10, includeSoft: false })
  t.notOk(
    after.body.value.some((r: Json) => r.runId === RUN),
    'the run has no rows left',
  )
  const again = await client.post('/runs?action=describe', { runId: RUN, start: 0, count: 100 })
  t.same(again.body.value, [])
})

t.test('safe rollback (the CLI default) soft-deletes the created entity and keeps its key', async (t) => {
  const { app } = await build(t)
  const client = cli(app)
  await client.batch([
    mcp(NEW, 'datasetProperties', { description: 'x', customProperties: {}, tags: [] }, RUN),
  ])
  const done = await client.post('/runs?action=rollback', { runId: RUN, dryRun: false, safe: true })
  t.equal(done.status, 200)
  t.equal(done.body.value.entitiesDeleted, 1)
  t.equal((await client.get(`/aspects/${enc(NEW)}?aspect=datasetKey&version=0`)).status, 200)
  t.same((await client.get(`/aspects/${enc(NEW)}?aspect=status&version=0`)).body.aspect, {
    'com.linkedin.common.Status': { removed: true },
  })
  t.equal((await client.get(`/aspects/${enc(NEW)}?aspect=datasetProperties&version=0`)).status, 404)
  t.equal(
    (await client.post('/entities?action=exists', { urn: NEW, includeSoftDelete: false })).body.value,
    false,
    'soft-deleted',
  )
})
