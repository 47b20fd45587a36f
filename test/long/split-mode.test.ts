import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { startMetadataBehindGateway } from '../helpers/spawn.js'

const enc = encodeURIComponent
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'

t.test('apps started alone: the gateway forwards over HTTP with identical responses', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-split-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { metadata, gateway } = await startMetadataBehindGateway(t, dir, 'off')

  for (const record of loadExample('bootstrap').slice(0, 40)) {
    const call = toIngestCall(record)
    const res = await fetch(gateway.url + call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
    })
    t.equal(res.status, 200, `ingest ${call.urn} through the gateway`)
    await res.arrayBuffer()
  }

  const requests: Array<[string, RequestInit?]> = [
    [`/entitiesV2/${enc(HIVE)}`],
    [`/entitiesV2/${enc(HIVE)}?aspects=List(ownership)`],
    [`/entitiesV2?ids=List(${enc(HIVE)},${enc('urn:li:corpuser:jdoe')})`],
    [`/entities/${enc(HIVE)}`],
    [`/aspects/${enc(HIVE)}?aspect=schemaMetadata&version=0`],
    [`/aspects/${enc(HIVE)}?aspect=schemaMetadata&version=9`],
    [`/entitiesV2/not-a-urn`],
    ['/nowhere'],
    [
      '/aspects?action=ingestProposal',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"proposal":{"entityType":"dataset","entityUrn":"urn:li:corpuser:x","changeType":"UPSERT","aspectName":"status","aspect":{"value":"{}"}}}',
      },
    ],
    [
      '/aspects?action=ingestProposal',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"proposal":' },
    ],
  ]
  const docs = await fetch(`${gateway.url}/restli/docs/json`)
  t.equal(docs.status, 200, 'the gateway serves the services’ API docs')
  const paths = ((await docs.json()) as { paths: Record<string, unknown> }).paths
  t.ok(paths['/aspects?action=ingestProposal'], 'merged from the metadata service')
  t.ok(paths['/relationships'], 'every forwarded route is listed')

  for (const [path, init] of requests) {
    const direct = await fetch(metadata.url + path, init)
    const viaGateway = await fetch(gateway.url + path, init)
    const label = `${init?.method ?? 'GET'} ${path.slice(0, 60)}`
    t.equal(viaGateway.status, direct.status, `${label}: same status`)
    t.equal(
      viaGateway.headers.get('content-type'),
      direct.headers.get('content-type'),
      `${label}: same content type`,
    )
    const [a, b] = [await direct.text(), await viaGateway.text()]
    // Synthesized key aspects carry the time of the read; compare everything else.
    const strip = (s: string) => s.replace(/"time":\d+/g, '"time":0')
    t.equal(strip(b), strip(a), `${label}: same body`)
  }
})
