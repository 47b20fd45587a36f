/**
 * A migration of a second-layout store (150,000 rows) killed mid-way, inside its transaction,
 * leaves the second layout whole, and the next open migrates it. Apart from `npm test` (a crash
 * scenario of ~10 s): `npm run test:long` runs it.
 */
import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'
import { ROWS, tempFile, v2Store } from './store-v2-rows.fixture.js'

t.test('a migration killed mid-way leaves the second layout, migrated at the next open', async (t) => {
  const file = tempFile(t)
  v2Store(file, 150_000)
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import { SqliteMetadataStore } from ${JSON.stringify(fileURLToPath(new URL('./sqlite-store.ts', import.meta.url)))}
       new SqliteMetadataStore({ file: ${JSON.stringify(file)}, writerThread: false, onMigrate: () => process.stdout.write('migrating\\n') })
       process.stdout.write('done\\n')`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  // Killed once the migration's own pages reach the WAL: well inside its transaction.
  const wal = `${file}-wal`
  const walSize = () => {
    try {
      return statSync(wal).size
    } catch {
      return 0
    }
  }
  while (child.exitCode === null && !(output.includes('migrating') && walSize() > 4_000_000))
    await new Promise((r) => setTimeout(r, 5))
  child.kill('SIGKILL')
  await new Promise((r) =>
    child.exitCode === null && child.signalCode === null ? child.once('exit', r) : r(0),
  )
  t.equal(child.signalCode, 'SIGKILL', 'killed during the migration')
  t.notMatch(output, /done/)

  const db = new Database(file, { readonly: true })
  t.equal(db.pragma('user_version', { simple: true }), 2, 'still the second layout')
  t.equal(db.prepare('SELECT COUNT(*) FROM metadata_aspect_v2').pluck().get(), ROWS.length + 150_000)
  t.equal(db.prepare("SELECT type FROM sqlite_master WHERE name = 'aspect_rows'").pluck().get(), 'table')
  t.notOk(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'legacy_aspect_rows'").get())
  db.close()

  const notes: string[] = []
  const store = new SqliteMetadataStore({
    file,
    durability: 'normal',
    writerThread: false,
    onMigrate: (n) => notes.push(n),
  })
  t.teardown(() => store.close())
  t.equal(notes.length, 1, 'migrated at the next open')
  t.same(
    (await store.runs({ start: 0, count: 10, includeSoftDeleted: true })).map((r) => [r.runId, r.rows]),
    [
      ['run-2', 1],
      ['run-1', 2],
      ['run-3', 1],
      ['bulk', 150_000],
    ],
  )
})
