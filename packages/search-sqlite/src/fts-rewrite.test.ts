import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-fts-rewrite-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) })

/** The FTS table's stored blocks (its segments and structure record), and the `docs_by_type` entries. */
function stored(file: string): { fts: unknown[]; byType: unknown[] } {
  const db = new Database(file, { readonly: true })
  try {
    return {
      fts: db.prepare('SELECT id, block FROM fts_data ORDER BY id').raw().all(),
      byType: db.prepare('SELECT entity_type, removed, urn FROM docs INDEXED BY docs_by_type').raw().all(),
    }
  } finally {
    db.close()
  }
}

t.test('an update that changes no analysed text writes no FTS row; one that does, does', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'same-text.db')
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  await fx.apply(index, [
    ...fx.dataset('orders', { datasetProperties: { description: 'daily orders' }, globalTags: tags('Gold') }),
    ...fx.dataset('users', { datasetProperties: { description: 'signed up users' } }),
  ])
  const before = stored(file)
  await fx.apply(index, [fx.upsert(ds('orders'), 'browsePaths', { paths: ['/prod/sales/daily'] })])
  t.same(stored(file).fts, before.fts, 'new browse paths (no analysed field): the FTS table is as it was')
  t.same(await fx.urns(index, 'daily'), [ds('orders')], 'its words still match')
  t.same(await fx.urns(index, 'browsePaths:"/prod/sales/daily"'), [ds('orders')], 'its new paths are there')

  await fx.apply(index, [fx.upsert(ds('orders'), 'status', { removed: true })])
  t.same(stored(file).fts, before.fts, 'soft-deleted: the FTS table is as it was')
  t.same(await fx.urns(index, 'daily'), [], 'a soft-deleted document is not found')
  t.same(await fx.urns(index, 'daily', { includeSoftDeleted: true }), [ds('orders')])
  t.ok(
    stored(file).byType.some((r) => JSON.stringify(r) === JSON.stringify(['dataset', 1, ds('orders')])),
    'the type index has its flag',
  )
  await fx.apply(index, [fx.upsert(ds('orders'), 'status', { removed: false })])
  t.same(await fx.urns(index, 'daily'), [ds('orders')], 'found again once restored')

  await fx.apply(index, [fx.upsert(ds('orders'), 'globalTags', tags('Gold', 'Silver'))])
  t.not(
    JSON.stringify(stored(file).fts),
    JSON.stringify(before.fts),
    'a new tag is new text: the row is written',
  )
  t.same(await fx.urns(index, 'silver'), [ds('orders')])
  await fx.apply(index, [fx.upsert(ds('orders'), 'datasetProperties', { description: 'weekly totals' })])
  t.same(await fx.urns(index, 'daily'), [], 'words no longer in the document no longer match')
  t.same(await fx.urns(index, 'weekly'), [ds('orders')])
  t.same(await fx.urns(index, 'users'), [ds('users')], 'the other document is untouched')
})

t.test('after updates with and without new text, the index answers as one written once', async (t) => {
  const fx = new ContractFixture()
  const updated = new SqliteSearchIndex({ file: join(dir, 'updated.db'), schema: fx.schema })
  const once = new SqliteSearchIndex({ file: join(dir, 'once.db'), schema: fx.schema })
  t.teardown(async () => {
    await updated.close()
    await once.close()
  })
  const steps = [
    fx.dataset('x', { datasetProperties: { description: 'alpha beta' }, globalTags: tags('PII') }),
    [fx.upsert(ds('x'), 'browsePaths', { paths: ['/prod/a'] })],
    [fx.upsert(ds('x'), 'datasetProperties', { description: 'gamma' })],
    [fx.upsert(ds('x'), 'status', { removed: true })],
    [fx.upsert(ds('x'), 'globalTags', tags('Gold'))],
    [fx.upsert(ds('x'), 'status', { removed: false })],
    [fx.upsert(ds('x'), 'browsePaths', { paths: ['/prod/b'] })],
  ]
  for (const step of steps) await fx.apply(updated, step)
  const final = new Map<string, Record<string, unknown>>()
  for (const e of steps.flat()) final.set(e.aspect, e.value as Record<string, unknown>)
  await fx.apply(
    once,
    [...final].map(([aspect, value]) => fx.upsert(ds('x'), aspect, value)),
  )
  for (const query of ['alpha', 'beta', 'gamma', 'pii', 'gold', 'tags:Gold', 'browsePaths:"/prod/b"', 'x'])
    t.same(await fx.urns(updated, query), await fx.urns(once, query), `${query}: the same hits`)
  t.same(await updated.document(ds('x')), await once.document(ds('x')), 'the same document')
})
