import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { openIndexFile } from './open-index-file.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-open-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

t.test('a new index file has 8 KB pages and incremental vacuum; an existing one keeps its own', async (t) => {
  const fresh = join(dir, 'fresh.db')
  const db = openIndexFile(fresh, 1024 * 1024)
  t.equal(db.pragma('page_size', { simple: true }), 8192)
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal')
  t.equal(db.pragma('auto_vacuum', { simple: true }), 2, 'incremental vacuum')
  db.close()
  const old = join(dir, 'old.db')
  const before = new Database(old)
  before.pragma('journal_mode = WAL')
  before.exec('CREATE TABLE t (x)')
  t.equal(before.pragma('page_size', { simple: true }), 4096)
  before.close()
  const again = openIndexFile(old, 1024 * 1024)
  t.equal(again.pragma('page_size', { simple: true }), 4096, 'not changed under its tables')
  t.equal(again.pragma('auto_vacuum', { simple: true }), 0)
  t.ok(again.prepare("SELECT 1 FROM sqlite_master WHERE name = 'docs'").get(), 'its tables created')
  again.close()
})
