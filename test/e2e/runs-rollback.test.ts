/**
 * Ingestion runs as `datahub ingest list-runs`, `show` and `rollback` call them (ingest_cli.py):
 * the fields the CLI prints are asserted.
 */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, getJson, postJson, postRestli } from '../helpers/build.js'

const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,runs.a,PROD)'
const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,runs.b,PROD)'
const enc = encodeURIComponent

const mcp = (urn: string, aspectName: string, value: unknown, runId: string, lastObserved: number) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  systemMetadata: { runId, lastObserved },
})

async function seed(app: CatalogServer) {
  await postJson(app, '/aspects?action=ingestProposalBatch', {
    proposals: [
      mcp(A, 'datasetProperties', { description: 'first' }, 'run-1', 1000),
      mcp(A, 'globalTags', { tags: [] }, 'run-1', 1000),
    ],
  })
  await postJson(app, '/aspects?action=ingestProposalBatch', {
    proposals: [
      mcp(A, 'datasetProperties', { description: 'second' }, 'run-2', 2000),
      mcp(B, 'datasetProperties', { description: 'new' }, 'run-2', 2000),
      mcp(
        B,
        'datasetKey',
        { platform: 'urn:li:dataPlatform:hive', name: 'runs.b', origin: 'PROD' },
        'run-2',
        2000,
      ),
    ],
  })
  await postJson(app, '/aspects?action=ingestProposal', {
    proposal: mcp(B, 'globalTags', { tags: [{ tag: 'urn:li:tag:x' }] }, 'run-3', 3000),
  })
}

const description = async (app: CatalogServer, urn: string) =>
  (await getJson(app, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`)).body?.aspect?.[
    'com.linkedin.dataset.DatasetProperties'
  ]?.description

t.test('list-runs and show', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const list = await postRestli(app, '/runs?action=list', {
    pageOffset: 0,
    pageSize: 100,
    includeSoft: false,
  })
  t.equal(list.status, 200)
  t.same(list.body.value, [
    { runId: 'run-3', rows: 1, timestamp: 3000 },
    // Default aspects of a new entity carry the run id of the write that created it (as in DataHub).
    { runId: 'run-2', rows: 6, timestamp: 2000 },
    { runId: 'run-1', rows: 5, timestamp: 1000 },
  ])
  t.same(
    (await postRestli(app, '/runs?action=list', { pageOffset: 1, pageSize: 1 })).body.value.map(
      (r: { runId: string }) => r.runId,
    ),
    ['run-2'],
  )

  const show = await postRestli(app, '/runs?action=describe', {
    runId: 'run-2',
    start: 0,
    count: 100,
    includeSoft: false,
    includeAspect: false,
  })
  t.equal(show.status, 200)
  t.same(show.body.value, [
    { runId: 'run-2', aspectName: 'datasetProperties', urn: A, timestamp: 2000, keyAspect: false },
    { runId: 'run-2', aspectName: 'browsePaths', urn: B, timestamp: 2000, keyAspect: false },
    { runId: 'run-2', aspectName: 'browsePathsV2', urn: B, timestamp: 2000, keyAspect: false },
    { runId: 'run-2', aspectName: 'dataPlatformInstance', urn: B, timestamp: 2000, keyAspect: false },
    { runId: 'run-2', aspectName: 'datasetKey', urn: B, timestamp: 2000, keyAspect: true },
    { runId: 'run-2', aspectName: 'datasetProperties', urn: B, timestamp: 2000, keyAspect: false },
  ])
  const withAspect = await postRestli(app, '/runs?action=describe', {
    runId: 'run-1',
    start: 0,
    count: 10,
    includeAspect: true,
  })
  t.same(
    withAspect.body.value.map((r: { aspectName: string }) => r.aspectName),
    ['browsePaths', 'browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'globalTags'],
    'run-1 created A: its defaults are run-1 rows; datasetProperties went to run-2',
  )
  t.same(withAspect.body.value[4].aspect, { tags: [] })
  t.same((await postRestli(app, '/runs?action=describe', { runId: 'unknown', start: 0, count: 10 })).body, {
    value: [],
  })
})

t.test('rollback: dry run reports, the real one restores and deletes', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const dry = await postRestli(app, '/runs?action=rollback', { runId: 'run-2', dryRun: true, safe: false })
  t.equal(dry.status, 200)
  t.match(dry.body.value, {
    entitiesAffected: 2,
    entitiesDeleted: 1,
    aspectsReverted: 6,
    unsafeEntitiesCount: 1,
    unsafeEntities: [{ urn: B }],
  })
  t.equal(dry.body.value.aspectRowSummaries.length, 6)
  t.equal(dry.body.value.aspectsAffected, 1, "B's globalTags (run-3) is the one aspect another run wrote")
  t.equal(await description(app, A), 'second', 'a dry run changes nothing')

  const done = await postRestli(app, '/runs?action=rollback', { runId: 'run-2', dryRun: false, safe: false })
  t.equal(done.status, 200)
  t.match(done.body.value, { entitiesDeleted: 1, unsafeEntitiesCount: 1 })
  t.ok(done.body.value.aspectsReverted >= 6, `reverted ${done.body.value.aspectsReverted}`)
  t.equal(await description(app, A), 'first', 'the previous version is back')
  t.equal(
    (await getJson(app, `/aspects/${enc(B)}?aspect=datasetKey&version=0`)).status,
    404,
    'created entity gone',
  )
  const runs = (await postRestli(app, '/runs?action=list', {})).body.value.map(
    (r: { runId: string }) => r.runId,
  )
  t.same(runs, ['run-1'], 'run-2 has no rows left; run-3 went with entity B')
  const search = await postJson(app, '/entities?action=search', {
    entity: 'dataset',
    input: 'runs.b',
    start: 0,
    count: 10,
  })
  t.notOk((search.body.value.entities as string[]).includes(B), 'B left the search index')

  const again = await postRestli(app, '/runs?action=rollback', { runId: 'run-2', dryRun: false, safe: false })
  t.match(again.body.value, { entitiesAffected: 0, aspectsReverted: 0, aspectRowSummaries: [] })
})

t.test('safe rollback soft-deletes created entities; the reserved run id is refused', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const soft = await postRestli(app, '/runs?action=rollback', { runId: 'run-2', dryRun: false, safe: true })
  t.equal(soft.status, 200)
  t.equal((await getJson(app, `/aspects/${enc(B)}?aspect=datasetKey&version=0`)).status, 200, 'key kept')
  t.same(
    (await getJson(app, `/aspects/${enc(B)}?aspect=status&version=0`)).body.aspect,
    { 'com.linkedin.common.Status': { removed: true } },
    'soft-deleted',
  )
  t.equal(await description(app, B), undefined, 'its aspects from the run are rolled back')
  const reserved = await postRestli(app, '/runs?action=rollback', {
    runId: 'no-run-id-provided',
    dryRun: true,
  })
  t.equal(reserved.status, 400)
  t.match(reserved.body, {
    message:
      'no-run-id-provided is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id',
    status: 400,
  })
  t.equal((await postRestli(app, '/runs?action=rollback', { dryRun: true })).status, 400, 'runId is required')
})
