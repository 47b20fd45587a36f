import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeLogEntry } from '@catalog/core'
import type { Mutation } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { ChangeLogJson } from './sqlite-change-log-json.js'
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

/** An entry as the feed gives it: as `changes()` does, less the members a search index never reads. */
const fed = (entries: readonly ChangeLogEntry[]) =>
  entries.map(({ created: _created, systemMetadata: _systemMetadata, ...rest }) => rest)

t.test(
  'sqlite: changesJson is the change log as changes() gives it less created and systemMetadata',
  async (t) => {
    const store = new SqliteMetadataStore({ file: join(dir, 'log.db') })
    t.teardown(() => store.close())
    await store.write({
      mutations: [upsert('datasetKey', { platform: 'urn:li:dataPlatform:hive' })],
      created,
    })
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
    t.ok(
      all.some((e) => e.systemMetadata),
      'an entry with system metadata',
    )
    t.strictSame(JSON.parse(await store.changesJson(0, 100)), fed(all), 'the whole log')
    t.strictSame(
      JSON.parse(await store.changesJson(1, 2)),
      fed(await store.changes(1, 2)),
      'a page after a position',
    )
    t.equal(await store.changesJson(head, 10), '[]', 'nothing after the head')
  },
)

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
  t.strictSame(JSON.parse(await store.changesJson(0, 100)), fed(all), 'large and small entries, in order')
  t.strictSame(
    JSON.parse(await store.changesJson(1, 1)),
    fed(all.slice(1, 2)),
    'a page of only the large entry',
  )
})

t.test('sqlite: a changesJson page ends before the entry that takes it past its characters', async (t) => {
  const file = join(dir, 'bounded.db')
  const store = new SqliteMetadataStore({ file })
  t.teardown(() => store.close())
  await store.write({ mutations: [upsert('datasetKey', { platform: 'urn:li:dataPlatform:hive' })], created })
  await store.write({
    mutations: [upsert('datasetProperties', { description: 'x'.repeat(300_000) })],
    created,
  })
  for (let i = 0; i < 4; i++)
    await store.write({ mutations: [upsert('datasetProperties', { description: `d${i}` })], created })
  const all = fed(await store.changes(0, 100))
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  const sizes = all.map((e) => JSON.stringify(e).length)
  const bounded = new ChangeLogJson(db, (sizes[2] as number) + (sizes[3] as number) + 10)
  t.strictSame(
    JSON.parse(bounded.read(0, 100)),
    all.slice(0, 1),
    'the first entry: the large one after it does not fit',
  )
  t.strictSame(JSON.parse(bounded.read(1, 100)), all.slice(1, 2), 'a large entry alone, past the bound')
  t.strictSame(JSON.parse(bounded.read(2, 100)), all.slice(2, 4), 'small entries up to the bound')
  t.strictSame(JSON.parse(bounded.read(4, 100)), all.slice(4), 'the rest')
  t.equal(bounded.read(all.length, 100), '[]', 'nothing after the head')
  t.strictSame(JSON.parse(new ChangeLogJson(db).read(0, 100)), all, 'the default bound: the whole log')
})
