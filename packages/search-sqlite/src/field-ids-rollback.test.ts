/**
 * A write whose transaction rolls back takes its new field ids with it: the index forgets the
 * ids it gave in it, so later writes never refer to a field id the file does not hold (or that
 * the file then gives to another field).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-field-ids-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) })

/** Exact values and URN keys whose field id names no field of the file. */
function orphans(file: string): number {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM exact WHERE field NOT IN (SELECT id FROM fields))
          + (SELECT COUNT(*) FROM urn_keys WHERE field NOT IN (SELECT id FROM fields))`,
      )
      .pluck()
      .get() as number
  } finally {
    db.close()
  }
}

t.test('a rolled-back write gives back its new field ids', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'index.db')
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  // The write's documents are applied, then its cursor fails (as a full disk would): rolled back.
  const failing = Symbol('not a cursor') as unknown as number
  const a = fx.dataset('a', { globalTags: tags('PII') })
  await t.rejects(index.apply(fx.deriver.changes(a), failing))
  t.equal(await index.cursor(), 0)
  await fx.apply(index, fx.dataset('b', { browsePaths: { paths: ['/prod/x'] } }))
  await fx.apply(index, a)
  t.same(await fx.urns(index, 'tags:pii'), [ds('a')])
  await index.close()
  t.equal(orphans(file), 0, 'every row names a field of the file')

  const reopened = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => reopened.close())
  t.same(await fx.urns(reopened, 'tags:pii'), [ds('a')], 'found after a restart too')
})
