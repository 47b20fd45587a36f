import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { startMetadataBehindGateway } from '../helpers/spawn.js'

const enc = encodeURIComponent
const LOGGING = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)'

t.test('relationships and lineage answer the same through the gateway in split mode', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-rel-split-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { metadata, gateway } = await startMetadataBehindGateway(t, dir, 'off')

  for (const record of loadExample('bootstrap')) {
    const call = toIngestCall(record)
    const res = await fetch(gateway.url + call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
    })
    t.equal(res.status, 200, `ingest ${call.urn}`)
    await res.arrayBuffer()
  }

  const json = { 'content-type': 'application/json' }
  const requests: Array<[string, RequestInit?]> = [
    [`/relationships?direction=INCOMING&urn=${enc(LOGGING)}&types=DownstreamOf`],
    [`/relationships?direction=OUTGOING&urn=${enc(LOGGING)}&types=List(DownstreamOf,OwnedBy)&count=1`],
    [`/relationships?direction=INCOMING&urn=not-a-urn&types=OwnedBy`],
    [`/lineage?urn=${enc(LOGGING)}&direction=DOWNSTREAM&maxHops=3`],
    [
      '/relationships?action=getLineage',
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ urn: LOGGING, direction: 'UPSTREAM', maxHops: 5 }),
      },
    ],
    ['/relationships?action=getLineage', { method: 'POST', headers: json, body: '{"urn":' }],
  ]
  for (const [path, init] of requests) {
    const viaGateway = await fetch(gateway.url + path, init)
    const direct = await fetch(metadata.url + path, init)
    const [a, b] = [await viaGateway.text(), await direct.text()]
    t.equal(viaGateway.status, direct.status, `${path}: same status`)
    t.equal(a, b, `${path}: same body`)
  }
  const res = await fetch(`${gateway.url}/lineage?urn=${enc(LOGGING)}&direction=DOWNSTREAM&maxHops=3`)
  const down = (await res.json()) as { total: number }
  t.ok(down.total > 0, 'lineage found downstreams')
})
