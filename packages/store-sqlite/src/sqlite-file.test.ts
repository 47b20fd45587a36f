import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { backupDatabase, checkDatabase } from './sqlite-file.js'

t.test('backupDatabase copies what is still in the WAL, as one self-contained file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-sqlite-file-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const live = new Database(join(dir, 'live.db'))
  t.teardown(() => live.close())
  live.pragma('journal_mode = WAL')
  live.pragma('wal_autocheckpoint = 0') // every row stays in the WAL, none in the main file
  live.exec('CREATE TABLE t (n INTEGER)')
  const insert = live.prepare('INSERT INTO t VALUES (?)')
  for (let n = 0; n < 500; n++) insert.run(n)

  const seen: number[] = []
  const pages = await backupDatabase(join(dir, 'live.db'), join(dir, 'copy.db'), (p) =>
    seen.push(p.remainingPages),
  )
  t.ok(pages > 0)
  t.equal(seen.at(-1), 0, 'progress ends at 0 pages remaining')
  const copy = new Database(join(dir, 'copy.db'), { readonly: true })
  t.teardown(() => copy.close())
  t.equal(copy.prepare('SELECT count(*) FROM t').pluck().get(), 500, 'the WAL content is in the copy')
  t.equal(copy.pragma('journal_mode', { simple: true }), 'delete', 'no WAL needed beside the copy')
  t.same(checkDatabase(join(dir, 'copy.db')), [])
})

t.test('checkDatabase reports a file that is not a database and a damaged one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-sqlite-file-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'junk.db'), 'this is not a database, just some text that is long enough'.repeat(20))
  t.match(checkDatabase(join(dir, 'junk.db')), [/cannot read .* as a SQLite database/])

  const file = join(dir, 'damaged.db')
  const db = new Database(file)
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, s TEXT); CREATE INDEX t_s ON t (s)')
  const insert = db.prepare('INSERT INTO t (s) VALUES (?)')
  db.transaction(() => {
    for (let n = 0; n < 2000; n++) insert.run(`value ${n}`)
  })()
  db.close()
  const bytes = readFileSync(file)
  // Scribble over the middle of the file (index and table pages), leaving the header intact.
  bytes.fill(0x5a, Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 4096)
  writeFileSync(file, bytes)
  t.ok(checkDatabase(file).length > 0, 'integrity_check finds the damage')
})
