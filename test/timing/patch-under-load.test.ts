import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import { assertHealthAroundWrite, idleBaseline, probeAroundWrite } from '../helpers/health-probe.js'
import { startTimingCatalog } from '../helpers/timing-catalog.js'
import { datasetSnapshotBody, paddedSchema, taggedField } from '../helpers/wide-schema.js'

/**
 * A PATCH of the largest `schemaMetadata` the limits allow (one field short of the most fields an
 * array may hold, just under the largest aspect size) leaves `/health` answering within 100 ms
 * while the patch is applied, validated and committed, and while the result is indexed after:
 * once adding a field (DataHub's generic patch, keyed by `fieldPath`), once changing a field's
 * description (a plain JSON Patch).
 */

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,patched_widest,PROD)'
const n = WRITE_LIMITS.maxArrayItems - 1

const field = taggedField
const column = (i: number, pad: string) => field(`column_${i}`, `the description of column ${i} ${pad}`)

const proposal = (value: unknown, contentType = 'application/json-patch+json') =>
  JSON.stringify({
    proposal: {
      entityType: 'dataset',
      entityUrn: URN,
      changeType: 'PATCH',
      aspectName: 'schemaMetadata',
      aspect: { value: JSON.stringify(value), contentType },
    },
  })

t.test('PATCH of the largest schemaMetadata leaves /health under 100 ms', async (t) => {
  const began = performance.now()
  const { app, send, found } = await startTimingCatalog(t, 'patch-health')

  // Not measured: a first PATCH of a large schema (2,000 fields), once the threads have started.
  const WARM = 'urn:li:dataset:(urn:li:dataPlatform:hive,patched_warmup,PROD)'
  const warm = await send(
    '/entities?action=batchIngest',
    JSON.stringify(
      datasetSnapshotBody(
        WARM,
        'patched_warmup',
        paddedSchema('patched_widest', 2_000, 700_000, column),
        'a first large table',
      ),
    ),
  )
  t.equal(warm.status, 200, 'a first large schema')
  const warmPatch = JSON.parse(proposal([{ op: 'add', path: '/fields/1/description', value: 'warm' }]))
  warmPatch.proposal.entityUrn = WARM
  t.equal(
    (await send('/aspects?action=ingestProposal', JSON.stringify(warmPatch))).status,
    200,
    'and a first PATCH',
  )

  // Not measured: the widest schema itself (the snapshot timing test measures that write).
  const value = paddedSchema('patched_widest', n, WRITE_LIMITS.maxAspectChars - 200_000, column)
  const chars = JSON.stringify(value).length
  t.ok(chars > WRITE_LIMITS.maxAspectChars * 0.97, `${chars} chars of aspect`)
  const written = await send(
    '/entities?action=batchIngest',
    JSON.stringify(datasetSnapshotBody(URN, 'patched_widest', value, 'the widest table')),
  )
  t.equal(written.status, 200, 'the widest schema is written')
  t.ok(await found('patched_widest'), 'and indexed')
  t.comment(
    `started, warmed up, the widest schema written and indexed in ${(performance.now() - began).toFixed(0)} ms`,
  )

  t.comment(`baseline: slowest /health while idle ${(await idleBaseline(app)).toFixed(1)} ms`)

  /** One PATCH, probed from its start until `word` (which only it adds) is searchable; tried again after a slow probe. */
  const measure = async (what: string, body: (run: string) => string, word: (run: string) => string) => {
    const m = await assertHealthAroundWrite(t, what, async (run) => {
      const text = body(run)
      let indexed = false
      const waits = await probeAroundWrite(
        app,
        async () => {
          const res = await send('/aspects?action=ingestProposal', text)
          t.equal(res.status, 200, `${what}: ${(await res.text()).slice(0, 300)}`)
        },
        // A search waits for the writes acknowledged before it: this spans the whole index update.
        async () => {
          indexed = await found(word(run))
        },
      )
      return { ...waits, indexed }
    })
    t.ok(m.indexed, `${what}: the patched value is searchable`)
  }

  // A later try of "add a field" removes the try before's field, so the array stays within its limit.
  const previous = (run: string) => String.fromCharCode(run.charCodeAt(0) - 1)
  await measure(
    'add a field',
    (run) =>
      proposal(
        {
          patch: [
            ...(run === 'a' ? [] : [{ op: 'remove', path: `/fields/zebracolumn${previous(run)}` }]),
            {
              op: 'add',
              path: `/fields/zebracolumn${run}`,
              value: field(`zebracolumn${run}`, 'a new column'),
            },
          ],
          arrayPrimaryKeys: { fields: ['fieldPath'] },
        },
        'application/json',
      ),
    (run) => `zebracolumn${run}`,
  )
  await measure(
    "change a field's description",
    (run) => proposal([{ op: 'add', path: '/fields/7/description', value: `quokka${run} counts the rows` }]),
    (run) => `quokka${run}`,
  )
})
