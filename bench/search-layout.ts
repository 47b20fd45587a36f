/**
 * `node --import tsx bench/search-layout.ts <search.db> [<copy.db>]`: the search index file's
 * bytes per document by table and index (dbstat), before and after the index opens it (which
 * rebuilds a file of an older layout in today's, see `ensureLayout`), and the time of that open.
 * With a second path the file is first copied there and the copy opened, so the original stays.
 * Not part of `npm run bench`.
 */
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { Registry } from '@catalog/core'
import { SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import Database from 'better-sqlite3'
import { fmt } from './lib.js'

const [source, copy] = process.argv.slice(2)
if (!source) throw new Error('usage: bench/search-layout.ts <search.db> [<copy.db>]')
let file = source
if (copy) {
  for (const s of ['', '-wal', '-shm']) rmSync(copy + s, { force: true })
  copyFileSync(source, copy)
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${copy}-wal`)
  file = copy
}

/** Bytes by table and index, and the number of documents. */
function tables(path: string): { docs: number; bytes: Map<string, number> } {
  const db = new Database(path, { readonly: true })
  try {
    const docs = db.prepare('SELECT count(*) FROM docs').pluck().get() as number
    const bytes = new Map(
      db.prepare('SELECT name, sum(pgsize) FROM dbstat GROUP BY name').raw().all() as Array<[string, number]>,
    )
    return { docs, bytes }
  } finally {
    db.close()
  }
}

const before = tables(file)
const t = performance.now()
const index = new SqliteSearchIndex({ file, schema: new SearchSchema(new Registry()) })
const openMs = performance.now() - t
await index.close()
// A checkpoint (the rebuild's pages are in the WAL) and a VACUUM-free view of the pages in use.
const db = new Database(file)
db.pragma('wal_checkpoint(TRUNCATE)')
db.close()
const after = tables(file)
const per = (b: number | undefined, n: number) => (b === undefined ? '-' : fmt(b / Math.max(n, 1)))
const names = [...new Set([...before.bytes.keys(), ...after.bytes.keys()])].sort(
  (a, b) =>
    (after.bytes.get(b) ?? before.bytes.get(b) ?? 0) - (after.bytes.get(a) ?? before.bytes.get(a) ?? 0),
)
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)
process.stdout.write(`open: ${fmt(openMs / 1000, 1)} s for ${fmt(after.docs)} documents\n`)
process.stdout.write('table / index                 before B/doc   after B/doc\n')
for (const name of names)
  process.stdout.write(
    `${name.padEnd(30)}${per(before.bytes.get(name), before.docs).padStart(12)}${per(after.bytes.get(name), after.docs).padStart(14)}\n`,
  )
const fileBytes = (path: string) => (existsSync(path) ? statSync(path).size : 0)
process.stdout.write(
  `file after: ${fmt(fileBytes(file) / Math.max(after.docs, 1))} B/doc (free pages included)\n`,
)
process.stdout.write(
  `${'total'.padEnd(30)}${per(total(before.bytes), before.docs).padStart(12)}${per(total(after.bytes), after.docs).padStart(14)}\n`,
)
