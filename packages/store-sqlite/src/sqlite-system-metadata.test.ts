/**
 * System metadata as aspect rows keep it: `lastObserved`, run ids and the actor as integers, the
 * other keys as JSON, and back to the same keys and values; run ids given in a rolled-back write
 * are never mistaken for others.
 */
import type { SystemMetadata } from '@catalog/core'
import type { UpsertAspect } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { openStoreSchema } from './sqlite-schema.js'
import { SqliteMetadataStore } from './sqlite-store.js'
import { systemMetadataCodec } from './sqlite-system-metadata.js'

t.test('columns and back: the same keys and values, DataHub key order', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  const codec = systemMetadataCodec(db)
  const cases: Array<[SystemMetadata | undefined, string | null]> = [
    [undefined, null],
    [
      { lastObserved: 1700000000000, runId: 'r', lastRunId: 'no-run-id-provided' },
      '{"lastObserved":1700000000000,"runId":"r","lastRunId":"no-run-id-provided"}',
    ],
    [
      { runId: 'r', properties: { a: 'b', n: null }, lastObserved: 5, pipelineName: 'p' },
      '{"lastObserved":5,"runId":"r","properties":{"a":"b","n":null},"pipelineName":"p"}',
    ],
    [{}, '{}'],
    [{ pipelineName: 'only' }, '{"pipelineName":"only"}'],
    // A value that does not fit its column stays with the other keys.
    [{ lastObserved: 1.5, runId: 'r' }, '{"runId":"r","lastObserved":1.5}'],
    [{ runId: 7, lastRunId: 'x"y' } as unknown as SystemMetadata, '{"lastRunId":"x\\"y","runId":7}'],
  ]
  db.transaction(() => {
    for (const [sm, json] of cases) {
      const c = codec.encode(sm)
      t.equal(codec.json(c.observed, c.run, c.lastrun, c.sysextra), json, JSON.stringify(sm))
      if (sm) t.same(JSON.parse(json as string), sm, 'the same keys and values')
    }
  })()
  const c = codec.encode({ lastObserved: 1, runId: 'r', lastRunId: 'no-run-id-provided' })
  t.same(
    c,
    { observed: 1, run: 1, lastrun: 0, sysextra: null },
    'the default run is id 0; nothing else is kept',
  )
  t.same(codec.encodeText('not json'), { observed: null, run: null, lastrun: null, sysextra: 'not json' })
})

t.test('a run id given in a rolled-back write is not reused for another run', async (t) => {
  const store = new SqliteMetadataStore({ file: ':memory:', durability: 'normal', writerThread: false })
  t.teardown(() => store.close())
  const created = { time: 1, actor: 'urn:li:corpuser:a' }
  const upsert = (urn: string, runId: string, extra: Partial<UpsertAspect> = {}): UpsertAspect => ({
    kind: 'upsert',
    urn,
    entityType: 'dataset',
    aspect: 'status',
    value: { removed: false },
    systemMetadata: { runId },
    created,
    edges: [],
    ...extra,
  })
  const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
  const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)'
  const C = 'urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)'
  await store.write({ created, mutations: [upsert(A, 'first')] })
  // Gives run id 2 to `ghost`, then fails: the whole write is rolled back.
  await t.rejects(
    store.write({
      created,
      mutations: [upsert(B, 'ghost'), upsert(A, 'first', { precondition: { require: 'aspect-absent' } })],
    }),
    { name: 'ValidationError' },
  )
  await store.write({ created, mutations: [upsert(C, 'real')] })
  await store.write({ created, mutations: [upsert(B, 'ghost')] })
  const runOf = async (urn: string) => (await store.latest([urn])).get(urn)?.[0]?.systemMetadata?.runId
  t.equal(await runOf(C), 'real')
  t.equal(await runOf(B), 'ghost', 'the rolled-back id was looked up again')
  t.same((await store.runs({ start: 0, count: 10, includeSoftDeleted: true })).map((r) => r.runId).sort(), [
    'first',
    'ghost',
    'real',
  ])
})
