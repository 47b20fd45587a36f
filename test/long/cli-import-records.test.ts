import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { loadConfig } from '@catalog/config'
import Database from 'better-sqlite3'
import t from 'tap'
import { importPaths } from '../../apps/cli/src/commands/import.js'
import { toIngestCall } from '../../apps/cli/src/records.js'
import { build } from '../helpers/build.js'
import { ROOT } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

const BOOTSTRAP = join(ROOT, 'test/fixtures/datahub/metadata-ingestion_examples_mce_files_bootstrap_mce.json')
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,importprobe.table_${i},PROD)`
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }
const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { json: value, contentType: 'application/json' },
})

/** MCPs with lineage and a second write of one aspect (a new version), plus three invalid records. */
const GOOD = [
  mcp(urnOf(1), 'datasetProperties', { description: 'importprobe first table' }),
  mcp(urnOf(2), 'datasetProperties', { description: 'importprobe second table, first text' }),
  mcp(urnOf(2), 'upstreamLineage', {
    upstreams: [{ dataset: urnOf(1), type: 'TRANSFORMED', auditStamp: stamp }],
  }),
  mcp(urnOf(2), 'datasetProperties', { description: 'importprobe second table, second text' }),
]
const BAD = [
  mcp(urnOf(3), 'datasetProperties', { description: 42 }),
  mcp('urn:li:dataset:not-a-key', 'datasetProperties', { description: 'x' }),
  mcp(urnOf(4), 'noSuchAspect', { x: 1 }),
]

function configFor(dir: string) {
  return loadConfig({ CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' })
}

/** Every aspect row (without the times that differ between runs) and every edge of a store file. */
function contents(dir: string) {
  const db = new Database(join(dir, 'metadata.db'), { readonly: true })
  try {
    const aspects = db
      .prepare(
        "SELECT urn, aspect, version, metadata, json_remove(systemmetadata, '$.lastObserved') AS sm FROM metadata_aspect_v2 ORDER BY urn, aspect, version",
      )
      .all()
    const edges = db.prepare('SELECT * FROM edges ORDER BY source, type, destination, aspect').all()
    return { aspects, edges }
  } finally {
    db.close()
  }
}

t.test('an imported file equals the same records written over HTTP: aspects, versions, edges', async (t) => {
  const files = tempDir(t, 'import-input-')
  const mcps = join(files, 'mcps.json')
  writeFileSync(mcps, JSON.stringify([...GOOD, ...BAD]))

  const imported = tempDir(t, 'import-bulk-')
  const out = new PassThrough()
  let said = ''
  out.on('data', (c) => (said += String(c)))
  const summary = await importPaths(configFor(imported), [BOOTSTRAP, mcps], { out })
  t.equal(summary.failed, 3, 'the three invalid records are counted')
  t.match(
    said,
    /failed: .*mcps\.json: .*importprobe\.table_3.*description/,
    'a failure names its record and reason',
  )
  t.match(said, /noSuchAspect/)

  const viaHttp = await build(t)
  const { app } = viaHttp
  // What `catalog ingest` sends for each record, in file order.
  const records = [...(JSON.parse(readFileSync(BOOTSTRAP, 'utf8')) as object[]), ...GOOD, ...BAD]
  let refused = 0
  for (const record of records) {
    const call = toIngestCall(record as Record<string, unknown>)
    const res = await app.inject({ method: 'POST', url: call.url, payload: call.body })
    if (res.statusCode !== 200) refused++
  }
  t.equal(refused, 3, 'over HTTP the same three records are refused')
  const a = contents(imported)
  const b = contents(viaHttp.dir)
  t.ok(a.aspects.length > 100 && a.edges.length > 10, 'the import stored the data')
  t.same(a.aspects, b.aspects, 'the same aspect rows and versions (default aspects included)')
  t.same(a.edges, b.edges, 'the same edges')
  const versions = a.aspects.filter(
    (r) =>
      (r as { urn: string }).urn === urnOf(2) && (r as { aspect: string }).aspect === 'datasetProperties',
  )
  t.equal(versions.length, 2, 'a second write of an aspect keeps the first as version 1')
  t.notOk(
    a.aspects.some((r) => /table_3|table_4|not-a-key/.test((r as { urn: string }).urn)),
    'nothing of an invalid record is stored',
  )

  const again = await importPaths(configFor(imported), [BOOTSTRAP, mcps], { out })
  t.equal(again.alreadyDone, 2, 'a rerun of a finished import skips its files')
  t.same(contents(imported), a, 'and changes nothing')
})

t.test('the catalog serves an imported dir: search, browse, relationships', async (t) => {
  const files = tempDir(t, 'import-input-')
  const lines = join(files, 'mcps.jsonl')
  writeFileSync(lines, `${GOOD.map((r) => JSON.stringify(r)).join('\n')}\n`)
  const dir = tempDir(t, 'import-served-')
  await importPaths(configFor(dir), [lines], { out: new PassThrough() })
  const { app } = await build(t, { dir })
  const search = await app.inject({
    method: 'POST',
    url: '/entities?action=search',
    payload: { input: 'importprobe', entity: 'dataset', start: 0, count: 10 },
  })
  t.equal(search.statusCode, 200)
  t.equal(search.json().value.numEntities, 2, 'both imported datasets are found by search')
  const browse = await app.inject({
    method: 'POST',
    url: '/entities?action=browse',
    payload: { path: '/prod/hive', entity: 'dataset', start: 0, limit: 10 },
  })
  t.equal(browse.statusCode, 200)
  t.ok(browse.json().value.numEntities >= 1 || browse.json().value.groups.length >= 1, 'browse finds them')
  const rel = await app.inject({
    method: 'GET',
    url: `/relationships?urn=${encodeURIComponent(urnOf(1))}&types=List(DownstreamOf)&direction=INCOMING`,
  })
  t.equal(rel.statusCode, 200)
  t.same(
    rel.json().relationships.map((r: { entity: string }) => r.entity),
    [urnOf(2)],
    'the lineage edge is there',
  )
})

t.test('a metadata_aspect_v2 CSV export keeps its versions; bad rows are counted, not stored', async (t) => {
  const files = tempDir(t, 'import-input-')
  const csv = join(files, 'aspects.csv')
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`
  const urn = urnOf(7)
  const rows = [
    'urn,aspect,version,metadata,systemmetadata,createdon,createdby,createdfor',
    [
      q(urn),
      'datasetKey',
      0,
      q('{"platform":"urn:li:dataPlatform:hive","name":"importprobe.table_7","origin":"PROD"}'),
      '',
      '2024-01-02 03:04:05.000',
      'urn:li:corpuser:datahub',
      '',
    ].join(','),
    [
      q(urn),
      'datasetProperties',
      0,
      q('{"description":"importprobe csv, latest"}'),
      q('{"runId":"r2"}'),
      '2024-01-03 00:00:00',
      'urn:li:corpuser:alice',
      '',
    ].join(','),
    [
      q(urn),
      'datasetProperties',
      1,
      q('{"description":\n"importprobe csv, first"}'),
      q('{"runId":"r1"}'),
      '2024-01-01 00:00:00',
      'urn:li:corpuser:alice',
      '',
    ].join(','),
    [
      q(urnOf(8)),
      'datasetProperties',
      0,
      q('{"description":5}'),
      '',
      '2024-01-01 00:00:00',
      'urn:li:corpuser:alice',
      '',
    ].join(','),
  ]
  writeFileSync(csv, `${rows.join('\r\n')}\r\n`)
  const dir = tempDir(t, 'import-csv-')
  const summary = await importPaths(configFor(dir), [csv], { out: new PassThrough() })
  t.equal(summary.records, 4)
  t.equal(summary.failed, 1)
  const db = new Database(join(dir, 'metadata.db'), { readonly: true })
  const stored = db
    .prepare(
      "SELECT aspect, version, metadata, createdon, createdby FROM metadata_aspect_v2 WHERE urn = ? AND aspect = 'datasetProperties' ORDER BY version",
    )
    .all(urn)
  const defaults = db
    .prepare('SELECT aspect FROM metadata_aspect_v2 WHERE urn = ? AND version = 0 ORDER BY aspect')
    .pluck()
    .all(urn)
  const bad = db.prepare('SELECT COUNT(*) FROM metadata_aspect_v2 WHERE urn = ?').pluck().get(urnOf(8))
  db.close()
  t.same(stored, [
    {
      aspect: 'datasetProperties',
      version: 0,
      metadata: '{"description":"importprobe csv, latest"}',
      createdon: Date.parse('2024-01-03T00:00:00Z'),
      createdby: 'urn:li:corpuser:alice',
    },
    {
      aspect: 'datasetProperties',
      version: 1,
      metadata: '{"description":"importprobe csv, first"}',
      createdon: Date.parse('2024-01-01T00:00:00Z'),
      createdby: 'urn:li:corpuser:alice',
    },
  ])
  t.same(defaults, [
    'browsePaths',
    'browsePathsV2',
    'dataPlatformInstance',
    'datasetKey',
    'datasetProperties',
  ])
  t.equal(bad, 0, 'the invalid row stored nothing')
})

t.test('an import over a catalog with data replaces the documents of the entities it changes', async (t) => {
  const dir = tempDir(t, 'import-over-')
  await t.test('written over HTTP first', async (t) => {
    const { app } = await build(t, { dir })
    const call = toIngestCall(mcp(urnOf(1), 'datasetProperties', { description: 'importprobe oldwording' }))
    t.equal((await app.inject({ method: 'POST', url: call.url, payload: call.body })).statusCode, 200)
  })
  const input = join(tempDir(t, 'import-input-'), 'over.json')
  writeFileSync(
    input,
    JSON.stringify([mcp(urnOf(1), 'datasetProperties', { description: 'importprobe newwording' })]),
  )
  const summary = await importPaths(configFor(dir), [input], { out: new PassThrough() })
  t.equal(summary.failed, 0)
  const { app } = await build(t, { dir })
  const find = async (input: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/entities?action=search',
        payload: { input, entity: 'dataset', start: 0, count: 10 },
      })
    ).json().value.numEntities
  t.equal(await find('newwording'), 1, 'the imported value is searchable')
  t.equal(await find('oldwording'), 0, 'the value it replaced is not')
  const v1 = await app.inject({
    method: 'GET',
    url: `/aspects/${encodeURIComponent(urnOf(1))}?aspect=datasetProperties&version=1`,
  })
  t.match(v1.body, /oldwording/, 'the replaced value is version 1')
})
