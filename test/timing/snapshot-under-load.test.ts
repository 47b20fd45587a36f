import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import { assertHealthAroundWrite, probeAroundWrite } from '../helpers/health-probe.js'
import { startTimingCatalog } from '../helpers/timing-catalog.js'
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
  const { app, send: sendTo, found } = await startTimingCatalog(t, 'snapshot-health')
  const send = (text: string) => sendTo('/entities?action=batchIngest', text)

  // Not measured: a first large snapshot (2,000 fields), once the threads have started.
  const warm = await send(body('warmup', schema('warmup', 2_000, 700_000)))
  t.equal(warm.status, 200, 'a first large snapshot')

  const m = await assertHealthAroundWrite(t, 'the largest snapshot', async (run) => {
    const name = `widest${run.charCodeAt(0) - 96}`
    const value = schema(name, n, WRITE_LIMITS.maxAspectChars - 100_000)
    const chars = JSON.stringify(value).length
    // The 16 MB body is serialized before the probes start: that holds this process's event loop.
    const text = body(name, value)
    const waits = await probeAroundWrite(
      app,
      async () => {
        const res = await send(text)
        t.equal(res.status, 200, (await res.text()).slice(0, 300))
      },
      // A search waits for the writes acknowledged before it: this spans the whole index update.
      async () => {
        t.ok(await found(name), `${name} is searchable`)
      },
    )
    return { ...waits, chars, bytes: Buffer.byteLength(text) }
  })
  t.ok(
    m.chars <= WRITE_LIMITS.maxAspectChars && m.chars > WRITE_LIMITS.maxAspectChars * 0.98,
    `${m.chars} chars of aspect`,
  )
  t.comment(`a body of ${m.bytes} bytes`)
})
