import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import { assertHealthAroundWrite, probeAroundWrite } from '../helpers/health-probe.js'
import { startMetadataBehindGateway } from '../helpers/spawn.js'

/**
 * In split mode the gateway forwards a large write without holding its own event loop: its
 * `/health` answers within 100 ms while an aspect of half the largest size passes through it.
 * (It once read the body into one buffer and then walked that buffer's indexes looking for
 * numbers that are not finite: ~4 s for 9 MB.)
 */

t.test(
  "a large write through the split-mode gateway leaves the gateway's /health under 100 ms",
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-gateway-health-'))
    const { gateway } = await startMetadataBehindGateway(t, dir, 'off')
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const proposal = (name: string) =>
      JSON.stringify({
        proposal: {
          entityType: 'dataset',
          entityUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: {
            contentType: 'application/json',
            value: JSON.stringify({ description: 'é'.repeat(WRITE_LIMITS.maxAspectChars / 2) }),
          },
        },
      })
    const send = (text: string) =>
      fetch(`${gateway.url}/aspects?action=ingestProposal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      })
    // Not measured: the first one starts the service's workers.
    t.equal((await send(proposal('warmup'))).status, 200, 'a first large write')
    await assertHealthAroundWrite(t, 'a large proposal through the gateway', async (run) => {
      const text = proposal(`large_${run}`)
      return probeAroundWrite(
        gateway,
        async () => {
          const res = await send(text)
          t.equal(res.status, 200, (await res.text()).slice(0, 300))
        },
        async () => undefined,
      )
    })
  },
)
