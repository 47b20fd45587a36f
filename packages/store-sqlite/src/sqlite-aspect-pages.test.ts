import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

t.test('an aspect row of 1.4 KB stays on its b-tree page, with no overflow page of its own', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aspect-pages-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'metadata.db')
  const store = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
  const fields = Array.from({ length: 12 }, (_, i) => ({
    fieldPath: `column_${i}`,
    nativeDataType: 'varchar',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
  }))
  const rows = 300
  await store.write({
    created,
    mutations: Array.from({ length: rows }, (_, i) => ({
      kind: 'upsert' as const,
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,table_${i},PROD)`,
      entityType: 'dataset',
      aspect: 'schemaMetadata',
      value: { schemaName: `table_${i}`, platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', fields },
      created,
      edges: [],
    })),
  })
  await store.close()
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  const { size, n, bytes } = db
    .prepare(
      `SELECT (SELECT SUM(pgsize) FROM dbstat WHERE name = 'aspect_rows') AS size,
        COUNT(*) AS n, AVG(LENGTH(metadata)) AS bytes FROM aspect_rows WHERE aspect = 'schemaMetadata'`,
    )
    .get() as { size: number; n: number; bytes: number }
  t.equal(n, rows)
  t.ok(bytes > 1200 && bytes < 1800, `each row holds ${Math.round(bytes)} B of JSON`)
  // An overflow page per row would take at least 4 KB each; on their pages they take ~2 KB.
  t.ok(size / rows < 2600, `${Math.round(size / rows)} B of pages per row`)
})
