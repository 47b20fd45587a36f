import type { Mutation, WriteBatch } from '@catalog/store'
import t from 'tap'
import { batchFromWire, batchToWire, THREAD_WRITE_WEIGHT, writeWeight } from './sqlite-write-wire.js'

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
  t.ok(wire.batch.length < 2_000, 'the base is not written into the batch text')
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
