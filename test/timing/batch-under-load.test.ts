import { WRITE_LIMITS } from '@catalog/core'
import t, { type Test } from 'tap'
import { assertHealthAroundWrite, probeAroundWrite } from '../helpers/health-probe.js'
import { startCatalog } from '../helpers/spawn.js'

/**
 * The largest batches the limits allow (10,000 proposals in one `ingestProposalBatch`, 10,000
 * snapshots in one `batchIngest`) leave `/health` answering within 100 ms while they are
 * validated and committed, and while they are indexed after. `/health` is probed every 10 ms.
 */

const N = WRITE_LIMITS.maxBatchItems
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const properties = (name: string, i: number) => ({
  name,
  description: `daily orders and customers rollup number ${i}, owned by the finance team`,
  customProperties: { owner: `team_${i % 50}`, tier: String(i % 3), source: 'warehouse' },
})
const tags = (i: number) => ({ tags: [{ tag: `urn:li:tag:pii_${i % 20}` }, { tag: 'urn:li:tag:gold' }] })

t.test('the largest batches leave /health under 100 ms', async (t) => {
  const { app } = await startCatalog(t, 'batch-health', { CATALOG_DURABILITY: 'normal' })
  const send = (path: string, body: string) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const searchable = async (input: string) => {
    const res = await send(
      '/entities?action=search',
      JSON.stringify({ input, entity: 'dataset', start: 0, count: 1 }),
    )
    return ((await res.json()) as { value: { numEntities: number } }).value.numEntities > 0
  }

  /** One batch, probed from its start until its last entity is searchable; tried again after a slow probe. */
  const measure = async (
    t: Test,
    what: string,
    path: string,
    body: (run: string) => string,
    last: (run: string) => string,
  ) => {
    await assertHealthAroundWrite(t, what, async (run) => {
      // The body is serialized before the probes start: that holds this process's event loop.
      const text = body(run)
      return probeAroundWrite(
        app,
        async () => {
          const res = await send(path, text)
          t.equal(res.status, 200, `${what}: ${(await res.text()).slice(0, 200)}`)
        },
        async () => {
          while (!(await searchable(last(run)))) await new Promise((r) => setTimeout(r, 50))
        },
      )
    })
  }

  await t.test('ingestProposalBatch of the most proposals a batch may hold', async (t) => {
    const aspect = (value: unknown) => ({
      contentType: 'application/json',
      value: JSON.stringify(value),
    })
    const body = (run: string) =>
      JSON.stringify({
        proposals: Array.from({ length: N }, (_, i) => {
          const name = `proposal_${run}_${i}`
          return i % 2 === 0
            ? {
                entityType: 'dataset',
                entityUrn: urn(name),
                changeType: 'UPSERT',
                aspectName: 'datasetProperties',
                aspect: aspect(properties(name, i)),
              }
            : {
                entityType: 'dataset',
                entityUrn: urn(name),
                changeType: 'UPSERT',
                aspectName: 'globalTags',
                aspect: aspect(tags(i)),
              }
        }),
      })
    await measure(
      t,
      'a batch of 10,000 proposals',
      '/aspects?action=ingestProposalBatch',
      body,
      (run) => `proposal_${run}_${N - 2}`,
    )
  })

  await t.test('batchIngest of the most snapshots a batch may hold', async (t) => {
    const body = (run: string) =>
      JSON.stringify({
        entities: Array.from({ length: N }, (_, i) => {
          const name = `snapshot_${run}_${i}`
          return {
            value: {
              'com.linkedin.metadata.snapshot.DatasetSnapshot': {
                urn: urn(name),
                aspects: [
                  { 'com.linkedin.dataset.DatasetProperties': properties(name, i) },
                  { 'com.linkedin.common.GlobalTags': tags(i) },
                ],
              },
            },
          }
        }),
      })
    await measure(
      t,
      'a batch of 10,000 snapshots',
      '/entities?action=batchIngest',
      body,
      (run) => `snapshot_${run}_${N - 1}`,
    )
  })
})
