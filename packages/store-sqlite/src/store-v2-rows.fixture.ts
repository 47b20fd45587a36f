/**
 * Data dirs of the store's second layout for the migration tests (sqlite-schema-v2.test.ts, and
 * the migration killed mid-way in sqlite-schema-v2-kill.long-test.ts): a few rows of every kind
 * of system metadata layout 2 held, and as many filler rows as asked.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { STORE_V2_DDL } from './store-v2-ddl.fixture.js'

export const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
export const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)'
export const ACTOR = 'urn:li:corpuser:datahub'
/** System metadata as layout 2 stored it, in DataHub's key order. */
export const sm = (
  lastObserved: number,
  runId: string,
  lastRunId: string,
  more: Record<string, unknown> = {},
) => JSON.stringify({ lastObserved, runId, lastRunId, ...more })
export const ROWS: Array<[string, string, number, string, string | null, number, string]> = [
  [A, 'datasetKey', 0, '{"name":"a"}', sm(100, 'run-1', 'no-run-id-provided'), 1, ACTOR],
  [
    A,
    'datasetProperties',
    0,
    '{"description":"two"}',
    sm(300, 'run-2', 'run-1', { pipelineName: 'p', properties: { k: 'v', n: null }, registryName: 'r' }),
    3,
    'urn:li:corpuser:jdoe',
  ],
  [A, 'datasetProperties', 1, '{"description":"one"}', sm(100, 'run-1', 'no-run-id-provided'), 1, ACTOR],
  [A, 'status', 0, '{"removed":false}', sm(200, 'no-run-id-provided', 'no-run-id-provided'), 2, ACTOR],
  [B, 'datasetKey', 0, '{"name":"b"}', sm(100, 'run-1', 'no-run-id-provided'), 1, ACTOR],
  [B, 'globalTags', 0, '{"tags":[]}', null, 1, ACTOR],
  // Written by hand, or by an older version: keys in another order, no runId, not an object (layout 2's run index refused text that is not JSON).
  [B, 'ownership', 0, '{"owners":[]}', '{"runId":"run-3","lastObserved":7}', 1, ACTOR],
  [B, 'upstreamLineage', 0, '{"upstreams":[]}', '{"pipelineName":"only"}', 1, ACTOR],
  [B, 'container', 0, '{"container":"urn:li:container:c"}', '[1]', 1, ACTOR],
]

/** A store file written with the second layout's DDL, through its view. */
export function v2Store(file: string, extraRows = 0): void {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec(STORE_V2_DDL)
  db.pragma('user_version = 2')
  const row = db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, ?, ?, ?, ?, ?)')
  db.transaction(() => {
    for (const r of ROWS) row.run(...r)
    const filler = sm(5, 'bulk', 'no-run-id-provided', { pipelineName: 'x'.repeat(200) })
    for (let i = 0; i < extraRows; i++)
      row.run(`urn:li:dataset:(urn:li:dataPlatform:hive,f${i},PROD)`, 'datasetKey', 0, '{}', filler, 1, ACTOR)
  })()
  db.prepare('INSERT INTO edges VALUES (?, ?, ?, ?)').run(A, 'DownstreamOf', B, 'upstreamLineage')
  db.close()
}

export function tempFile(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-schema-v2-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'metadata.db')
}
