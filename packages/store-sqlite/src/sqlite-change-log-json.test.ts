import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Mutation } from '@catalog/store'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-log-json-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const created = { time: 1_764_140_000_123, actor: 'urn:li:corpuser:da"ta\\hub' }
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,quote"d\\back\nline é 😀,PROD)'

const upsert = (aspect: string, value: Record<string, unknown>, runId?: string): Mutation => ({
  kind: 'upsert',
  urn: DS,
  entityType: 'dataset',
  aspect,
  value,
  created,
  edges: [],
  ...(runId ? { systemMetadata: { runId, properties: { note: 'ü "x"' } } } : {}),
})

t.test('sqlite: changesJson is the change log as changes() gives it, entry for entry', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'log.db') })
  t.teardown(() => store.close())
  await store.write({ mutations: [upsert('datasetKey', { platform: 'urn:li:dataPlatform:hive' })], created })
  await store.write({
    mutations: [
      upsert('status', { removed: false }, 'run-1'),
      upsert('datasetProperties', { name: 'a\u2028b\u0001' }),
    ],
    created,
  })
  await store.write({
    mutations: [
      { kind: 'delete', urn: DS, entityType: 'dataset', aspect: 'status', created, isKeyAspect: false },
    ],
    created,
  })
  await store.write({
    mutations: [
      { kind: 'delete', urn: DS, entityType: 'dataset', aspect: 'datasetKey', created, isKeyAspect: true },
    ],
    created,
  })
  const head = await store.head()
  const all = await store.changes(0, 100)
  t.equal(all.length, 5, 'five entries: three upserts, an aspect delete and an entity delete')
  t.ok(
    all.some((e) => e.entityDeleted) && all.some((e) => e.change === 'DELETE' && e.value === undefined),
    'deletes with and without the entity',
  )
  t.same(JSON.parse(await store.changesJson(0, 100)), all, 'the whole log')
  t.same(JSON.parse(await store.changesJson(1, 2)), await store.changes(1, 2), 'a page after a position')
  t.equal(await store.changesJson(head, 10), '[]', 'nothing after the head')
})

t.test('sqlite: changesJson joins a large value in JavaScript, with the same text', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'large.db') })
  t.teardown(() => store.close())
  const fields = Array.from({ length: 4_000 }, (_, i) => ({
    fieldPath: `col_${i}`,
    description: `"é" 😀 ${'x'.repeat(60)}`,
  }))
  await store.write({ mutations: [upsert('datasetKey', { platform: 'urn:li:dataPlatform:hive' })], created })
  await store.write({ mutations: [upsert('schemaMetadata', { fields }, 'run-large')], created })
  await store.write({ mutations: [upsert('status', { removed: true })], created })
  const all = await store.changes(0, 100)
  t.ok(
    JSON.stringify(all[1]?.value).length > 256 * 1024,
    'the schema is over the size SQLite leaves to JavaScript',
  )
  t.same(JSON.parse(await store.changesJson(0, 100)), all, 'large and small entries, in order')
  t.same(JSON.parse(await store.changesJson(1, 1)), [all[1]], 'a page of only the large entry')
})
