import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import { HEALTH_BOUND_MS, max, probeHealth, waitedAfter, waitedWithin } from '../helpers/health-probe.js'
import { startCatalog } from '../helpers/spawn.js'
import { datasetSnapshotBody, schemaMetadata } from '../helpers/wide-schema.js'

/**
 * The largest snapshot aspect the limits allow (a `schemaMetadata` of the most fields an array
 * may hold, just under the largest aspect size) sent by `batchIngest` leaves `/health` answering
 * within 100 ms while it is parsed, validated and committed, and while it is indexed after.
 */

const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const n = WRITE_LIMITS.maxArrayItems

/** A schema of `count` fields whose JSON text is about `chars` characters. */
function schema(name: string, count: number, chars: number) {
  const field = (i: number, pad: string) => ({
    fieldPath: `column_${i}`,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    description: `the description of column ${i} ${pad}`,
    globalTags: { tags: [{ tag: `urn:li:tag:t${i}` }] },
  })
  const bare = JSON.stringify(field(0, '')).length + 1
  const pad = 'x'.repeat(Math.max(0, Math.floor(chars / count) - bare - 8))
  return schemaMetadata(
    Array.from({ length: count }, (_, i) => field(i, pad)),
    name,
  )
}

const body = (name: string, value: unknown) =>
  JSON.stringify(datasetSnapshotBody(urn(name), name, value, 'the widest table'))

t.test('batchIngest of the largest schemaMetadata leaves /health under 100 ms', async (t) => {
  const { app, post } = await startCatalog(t, 'snapshot-health', { CATALOG_DURABILITY: 'normal' })
  const send = (text: string) =>
    fetch(`${app.url}/entities?action=batchIngest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    })
  const found = async (input: string) => {
    const res = await post('/entities?action=search', { input, entity: 'dataset', start: 0, count: 1 })
    return ((await res.json()) as { value: { numEntities: number } }).value.numEntities > 0
  }

  // Not measured: a first large snapshot (2,000 fields), once the threads have started.
  const warm = await send(body('warmup', schema('warmup', 2_000, 700_000)))
  t.equal(warm.status, 200, 'a first large snapshot')

  const measure = async (name: string) => {
    const value = schema(name, n, WRITE_LIMITS.maxAspectChars - 100_000)
    const chars = JSON.stringify(value).length
    // The 16 MB body is serialized before the probes start: that holds this process's event loop.
    const text = body(name, value)
    let finished = false
    const probing = probeHealth(app, () => finished)
    const started = performance.now()
    const res = await send(text)
    const answeredAt = performance.now()
    t.equal(res.status, 200, (await res.text()).slice(0, 300))
    // A search waits for the writes acknowledged before it: this spans the whole index update.
    t.ok(await found(name), `${name} is searchable`)
    finished = true
    const probes = await probing
    return {
      chars,
      bytes: Buffer.byteLength(text),
      during: max(waitedWithin(probes, started, answeredAt)),
      after: max(waitedAfter(probes, answeredAt)),
      writeMs: answeredAt - started,
    }
  }
  let m = await measure('widest1')
  t.ok(
    m.chars <= WRITE_LIMITS.maxAspectChars && m.chars > WRITE_LIMITS.maxAspectChars * 0.98,
    `${m.chars} chars of aspect`,
  )
  t.comment(`a body of ${m.bytes} bytes`)
  if (m.during >= HEALTH_BOUND_MS || m.after >= HEALTH_BOUND_MS) {
    // The CPU is shared with other test files: a second try after a slow probe.
    t.comment(
      `first try: /health waited ${m.during.toFixed(1)} ms during, ${m.after.toFixed(1)} ms after; trying again`,
    )
    m = await measure('widest2')
  }
  t.ok(m.during < HEALTH_BOUND_MS, `slowest /health while the write ran: ${m.during.toFixed(1)} ms`)
  t.ok(m.after < HEALTH_BOUND_MS, `slowest /health while it was indexed: ${m.after.toFixed(1)} ms`)
  t.comment(`the write took ${m.writeMs.toFixed(0)} ms`)
})
