import type { Mutation, WriteBatch } from '@catalog/store'
import t from 'tap'
import {
  batchFromWire,
  batchToWire,
  outcomeFromWire,
  outcomeToWire,
  THREAD_WRITE_WEIGHT,
  writeWeight,
} from './sqlite-write-wire.js'

const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,wire,PROD)'
const guarded = (latestUtf8: Uint8Array | null): Mutation => ({
  kind: 'upsert',
  urn,
  entityType: 'dataset',
  aspect: 'datasetProperties',
  value: { description: 'new' },
  valueJson: '{"description":"new"}',
  created,
  edges: [],
  precondition: { require: 'latest-unchanged', latestUtf8 },
})

t.test('a latest-unchanged precondition crosses apart from the batch text, its bytes shared', async (t) => {
  const base = `{"description":"${'b'.repeat(300_000)}"}`
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(base)))
  bytes.set(Buffer.from(base))
  const batch: WriteBatch = { mutations: [guarded(bytes), guarded(null)], created }
  t.ok(
    (writeWeight(batch) ?? 0) >= THREAD_WRITE_WEIGHT,
    'the base read and compared counts towards the weight',
  )
  const wire = await batchToWire(batch)
  t.ok((wire.ends[0] ?? Infinity) < 2_000, 'the base is not written into the batch text')
  t.equal(wire.latest?.[0], bytes, 'the same bytes: shared, not copied')
  const back = batchFromWire(structuredClone(wire))
  const [first, second] = back.mutations as Array<Extract<Mutation, { kind: 'upsert' }>>
  const pre = first?.precondition
  t.equal(pre?.require, 'latest-unchanged')
  t.equal(
    pre?.require === 'latest-unchanged' && pre.latestUtf8 ? Buffer.from(pre.latestUtf8).toString() : '',
    base,
  )
  t.same(second?.precondition, { require: 'latest-unchanged', latestUtf8: null }, 'absent stays null')
})

t.test('a large batch crosses whole: every mutation kind, in order, with its defaults', async (t) => {
  const mutations: Mutation[] = []
  for (let i = 0; i < 1_500; i++) {
    const u = `urn:li:dataset:(urn:li:dataPlatform:hive,wire_${i},PROD)`
    const value = { description: `table ${i} "quoted" \u00e9`, tags: [i] }
    if (i % 3 === 0)
      mutations.push({
        kind: 'upsert',
        urn: u,
        entityType: 'dataset',
        aspect: 'datasetProperties',
        value,
        created,
        systemMetadata: { runId: `run-${i}`, lastObserved: i },
        edges: [{ type: 'DownstreamOf', destination: urn }],
        precondition: { require: 'aspect-absent' },
      })
    else if (i % 3 === 1)
      mutations.push({
        kind: 'delete',
        urn: u,
        entityType: 'dataset',
        aspect: 'status',
        created,
        isKeyAspect: false,
      })
    else
      mutations.push({
        kind: 'timeseries',
        row: {
          urn: u,
          entityType: 'dataset',
          aspect: 'datasetProfile',
          timestampMillis: i,
          value: { rowCount: i },
        },
      })
  }
  const defaults = Array.from({ length: 1_200 }, (_, i) => ({
    urn: `urn:li:dataset:(urn:li:dataPlatform:hive,wire_${i},PROD)`,
    entityType: 'dataset',
    keyAspect: 'datasetKey',
    aspects: [{ aspect: 'datasetKey', value: { name: `wire_${i}` }, edges: [] }],
  }))
  const batch: WriteBatch = { mutations, defaults, created }
  const wire = await batchToWire(batch)
  const back = batchFromWire(structuredClone(wire))
  t.same(back.created, created)
  t.same(back.defaults, defaults)
  t.equal(back.mutations.length, mutations.length)
  const expected = mutations.map((m) =>
    m.kind === 'upsert' ? { ...m, value: {}, valueJson: JSON.stringify(m.value) } : m,
  )
  t.same(back.mutations, expected, 'each mutation as it was; upserts with their value as text')
})

t.test(
  'texts cross as UTF-8 in shared memory, long ones encoded in pieces with surrogate pairs kept whole',
  async (t) => {
    // Pairs (U+1F600) and two-byte characters at every offset around the 256 Ki-unit piece size.
    const text = (shift: number) =>
      `{"description":"${'a'.repeat(shift)}${'\u00e9\ud83d\ude00x'.repeat(200_000)}"}`
    const mutations: Mutation[] = [0, 1, 2, 3].map((shift) => ({
      kind: 'upsert',
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,wide_${shift},PROD)`,
      entityType: 'dataset',
      aspect: 'datasetProperties',
      value: {},
      valueJson: text(shift),
      created,
      edges: [{ type: 'DownstreamOf', destination: urn }],
    }))
    const wire = await batchToWire({ mutations, created })
    t.ok(wire.text.buffer instanceof SharedArrayBuffer, 'one shared buffer, not copied on the way')
    t.equal(wire.ends[wire.ends.length - 1], wire.text.byteLength, 'the texts fill it exactly')
    const back = batchFromWire(structuredClone(wire)).mutations as Array<
      Extract<Mutation, { kind: 'upsert' }>
    >
    t.same(
      back.map((m) => m.valueJson === text(Number(m.urn.split('_')[1]?.[0]))),
      [true, true, true, true],
      'each value exactly as sent',
    )
    t.same(back[3]?.edges, [{ type: 'DownstreamOf', destination: urn }])
  },
)

t.test('a batch without members of its own other than mutations is still one JSON text', async (t) => {
  const batch = { mutations: [guarded(null)] } as unknown as WriteBatch
  const back = batchFromWire(await batchToWire(batch))
  t.equal(back.mutations.length, 1)
  t.same(Object.keys(back), ['mutations'])
})

t.test(
  "a value's UTF-8 bytes (prepared off the loop) cross shared, neither copied nor decoded here",
  async (t) => {
    const text = `{"fields":"${'\u00e9'.repeat(400_000)}"}`
    const valueUtf8 = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text)))
    valueUtf8.set(Buffer.from(text))
    const prepared = {
      kind: 'upsert',
      urn,
      entityType: 'dataset',
      aspect: 'schemaMetadata',
      value: {},
      get valueJson(): string {
        throw new Error('decoded on the event loop')
      },
      valueUtf8,
      created,
      edges: [{ type: 'DownstreamOf', destination: urn }],
    } as Mutation
    const batch: WriteBatch = { mutations: [guarded(null), prepared, guarded(null)], created }
    t.equal(writeWeight(batch), 3 * 200 + valueUtf8.byteLength + 100 + 2 * 21, 'weighed by its bytes')
    const wire = await batchToWire(batch)
    t.equal(wire.values?.[0], valueUtf8, 'the same bytes: shared, not copied')
    t.ok(wire.text.byteLength < 2_000, 'not in the batch text')
    const back = batchFromWire(structuredClone(wire)).mutations as Array<
      Extract<Mutation, { kind: 'upsert' }>
    >
    t.equal(back[1]?.valueJson, text, 'the same text on the writer side')
    t.same(back[1]?.edges, [{ type: 'DownstreamOf', destination: urn }], 'with its edges')
    t.same(
      [back[0]?.valueJson, back[2]?.valueJson, back[2]?.edges],
      ['{"description":"new"}', '{"description":"new"}', []],
      'the upserts around it keep their own texts',
    )
    t.notOk(back[1] && ('valueUtf8' in back[1] || 'valueAt' in back[1]), 'nothing of the crossing is left')
  },
)

t.test('an outcome crosses back as a flag per mutation, named again after the batch', async (t) => {
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)'
  const batch: WriteBatch = {
    created,
    mutations: [
      guarded(null),
      { kind: 'delete', urn: other, entityType: 'dataset', aspect: 'status', created, isKeyAspect: false },
      {
        kind: 'timeseries',
        row: { urn: other, entityType: 'dataset', aspect: 'datasetProfile', timestampMillis: 1, value: {} },
      },
    ],
  }
  const outcome = {
    results: [
      { urn, aspect: 'datasetProperties', changed: false },
      { urn: other, aspect: 'status', changed: true, rows: 3 },
      { urn: other, aspect: 'datasetProfile', changed: true },
    ],
    seq: 42,
  }
  const wire = outcomeToWire(outcome)
  t.same([...wire.changed], [0, 1, 1])
  t.same(outcomeFromWire(structuredClone(wire), batch), outcome, 'the same results and log position')
  t.notOk(
    outcomeToWire({ results: [outcome.results[0] as never], seq: 1 }).rows,
    'no rows when no mutation removed any',
  )
})
