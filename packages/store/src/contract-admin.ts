/**
 * The runs, counts and delete half of the store contract (`runStoreContract` calls it):
 * hard deletes of entities (rows counted, edges in both directions, time series), time-series
 * range deletes, aspect counts, ingestion runs and rollback of a run's writes.
 */
import type { SystemMetadata } from '@catalog/core'
import type { Test } from 'tap'
import type { StoreFactory } from './contract.js'
import type { EdgeTarget, MetadataStore, Mutation } from './port.js'

const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,admin.table,PROD)'
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,admin.other,PROD)'
const TAG = 'urn:li:tag:pii'
const all = { start: 0, count: 100, includeSoftDeleted: true }

function upsert(
  urn: string,
  aspect: string,
  value: Record<string, unknown>,
  runId?: string,
  edges: EdgeTarget[] = [],
): Mutation {
  const systemMetadata: SystemMetadata | undefined = runId ? { runId, lastObserved: 1000 } : undefined
  return {
    kind: 'upsert',
    urn,
    entityType: 'dataset',
    aspect,
    value,
    created,
    edges,
    ...(systemMetadata ? { systemMetadata } : {}),
  }
}
const rollback = (urn: string, aspect: string, runId: string, isKeyAspect = false): Mutation => ({
  kind: 'rollback',
  urn,
  entityType: 'dataset',
  aspect,
  runId,
  created,
  isKeyAspect,
  edgesOf: (value) => (Array.isArray(value.tags) ? [{ type: 'TaggedWith', destination: TAG }] : []),
})
const series = (urn: string, timestampMillis: number): Mutation => ({
  kind: 'timeseries',
  row: { urn, entityType: 'dataset', aspect: 'datasetProfile', timestampMillis, value: { timestampMillis } },
})

export function runAdminContract(t: Test, store: () => MetadataStore, factory: StoreFactory): void {
  void factory
  const write = (...mutations: Mutation[]) => store().write({ mutations, created })
  const incoming = async (urn: string) =>
    (await store().relationships({ urn, direction: 'INCOMING', types: [], start: 0, count: 10 })).total

  t.test('a key-aspect delete counts the rows and removes edges in both directions', async (t) => {
    await write(
      upsert(DS, 'datasetKey', { name: 'a' }),
      upsert(DS, 'globalTags', { tags: [1] }, undefined, [{ type: 'TaggedWith', destination: TAG }]),
      upsert(DS, 'globalTags', { tags: [2] }, undefined, [{ type: 'TaggedWith', destination: TAG }]),
      upsert(DS2, 'upstreamLineage', { u: 1 }, undefined, [{ type: 'DownstreamOf', destination: DS }]),
    )
    t.equal(await incoming(DS), 1)
    const out = await write({
      kind: 'delete',
      urn: DS,
      entityType: 'dataset',
      aspect: 'datasetKey',
      created,
      isKeyAspect: true,
    })
    t.match(out.results[0], { changed: true, rows: 3 }, 'key, globalTags v0 and v1')
    t.equal(await incoming(TAG), 0, 'outgoing edges gone')
    t.equal(await incoming(DS), 0, 'incoming edges gone, as DataHub removes the graph node')
    t.same(
      (await store().version(DS2, 'upstreamLineage', 0))?.value,
      { u: 1 },
      'the referrer keeps its value',
    )
  })

  t.test('time-series rows are deleted by entity, aspect and inclusive range', async (t) => {
    await write(series(DS, 1), series(DS, 2), series(DS, 3), series(DS, 4), series(DS2, 2))
    t.equal(
      await store().deleteTimeseries({
        urn: DS,
        aspects: ['datasetProfile'],
        startTimeMillis: 2,
        endTimeMillis: 3,
      }),
      2,
    )
    const left = await store().timeseries({
      urn: DS,
      entityType: 'dataset',
      aspect: 'datasetProfile',
      limit: 10,
    })
    t.same(
      left.map((r) => r.timestampMillis),
      [4, 1],
    )
    t.equal(await store().deleteTimeseries({ urn: DS, aspects: ['other'] }), 0)
    t.equal(await store().deleteTimeseries({ urn: DS }), 2)
    t.equal(
      (await store().timeseries({ urn: DS2, entityType: 'dataset', aspect: 'datasetProfile', limit: 10 }))
        .length,
      1,
    )
  })

  t.test('aspects are counted by name and URN pattern', async (t) => {
    await write(upsert(DS, 'status', { removed: false }), upsert(DS2, 'status', { removed: false }))
    await write(upsert(DS, 'status', { removed: true }))
    t.equal(await store().countAspects('status'), 2, 'latest rows only')
    t.equal(await store().countAspects('status', '%admin.other%'), 1)
    t.equal(await store().countAspects('nothing'), 0)
  })

  t.test('runs list the latest rows each run wrote last, newest run first', async (t) => {
    await write(
      upsert(DS, 'datasetKey', { name: 'a' }, 'run-a'),
      upsert(DS, 'globalTags', { tags: [] }, 'run-a'),
    )
    await write(
      upsert(DS2, 'datasetKey', { name: 'b' }, 'run-b'),
      upsert(DS, 'globalTags', { tags: [1] }, 'run-b'),
    )
    await write(upsert(DS2, 'status', { removed: true }))
    const runs = await store().runs(all)
    t.same(
      runs.map((r) => [r.runId, r.rows]).sort(),
      [
        ['run-a', 1],
        ['run-b', 2],
      ],
      'no-run-id-provided is never listed',
    )
    t.equal(runs[0]?.timestamp, 1000)
    t.same(
      (await store().runAspects('run-b', all)).map((r) => [r.urn, r.aspect]),
      [
        [DS2, 'datasetKey'],
        [DS, 'globalTags'],
      ].sort(),
    )
    const visible = await store().runAspects('run-b', { ...all, includeSoftDeleted: false })
    t.same(
      visible.map((r) => r.urn),
      [DS],
      'rows of soft-deleted entities are left out unless asked',
    )
    t.same(await store().runAspects('nope', all), [])
    t.same(await store().runs({ ...all, start: 5 }), [])
  })

  t.test('rollback restores the previous version, or deletes; other runs are left', async (t) => {
    await write(
      upsert(DS, 'datasetKey', { name: 'a' }, 'run-a'),
      upsert(DS, 'globalTags', { tags: [] }, 'run-a'),
    )
    await write(
      upsert(DS, 'globalTags', { tags: ['x'] }, 'run-b'),
      upsert(DS, 'status', { removed: false }, 'run-b'),
    )
    const before = await store().head()
    const out = await write(
      rollback(DS, 'globalTags', 'run-b'),
      rollback(DS, 'status', 'run-b'),
      rollback(DS, 'datasetKey', 'run-b', true),
    )
    t.same(
      out.results.map((r) => [r.aspect, r.changed]),
      [
        ['globalTags', true],
        ['status', true],
        ['datasetKey', false],
      ],
      'the key aspect belongs to run-a',
    )
    t.same((await store().version(DS, 'globalTags', 0))?.value, { tags: [] })
    t.equal((await store().version(DS, 'globalTags', 0))?.systemMetadata?.runId, 'run-a')
    t.equal(await store().version(DS, 'globalTags', 1), undefined, 'the restored version moved to 0')
    t.equal(await store().version(DS, 'status', 0), undefined)
    t.equal(await incoming(TAG), 1, 'edges of the restored value')
    const log = await store().changes(before, 10)
    t.same(
      log.map((e) => [e.aspect, e.change]),
      [
        ['globalTags', 'UPSERT'],
        ['status', 'DELETE'],
      ],
    )
    t.same(log[0]?.value, { tags: [] })
    const gone = await write(rollback(DS, 'datasetKey', 'run-a', true))
    t.match(gone.results[0], { changed: true, rows: 2 })
    t.notOk(await store().exists(DS, 'datasetKey'), 'rolling back the key aspect deletes the entity')
    t.same(await store().runs(all), [])
  })
}
