/**
 * `node --import tsx bench/search-writer.ts`: the search index's document writer alone, with no
 * store: BENCH_ENTITIES synthetic datasets (default 100,000; the aspects of `bench/import.ts`
 * and DataHub's default aspects, 7 per dataset) are derived into index changes and written into
 * a new index file in pages of 5,000 entities, as `catalog import` does. Prints the CPU time spent
 * deriving and writing, entities/s, and the file's bytes per aspect row. The derive step is the
 * baseline: writing a document should cost about as much as deriving it.
 * BENCH_DIR keeps the index file there. BENCH_BULK=0 leaves out `beginBulk`/`endBulk`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type ChangeLogEntry, Registry } from '@catalog/core'
import { DocumentDeriver, type IndexChange, SearchSchema } from '@catalog/search'
import { datasetAspects, STAMP, urnOf } from './import-data.js'
import { fmt } from './lib.js'

// A second argument measures another copy of the index's sources (e.g. the previous commit's, from
// `git show`), so before and after run in the same conditions.
const src = resolve(process.argv[2] ?? 'packages/search-sqlite/src')
const { SqliteSearchIndex } = await import(join(src, 'sqlite-search-index.ts'))
const N = Number(process.env.BENCH_ENTITIES ?? 100_000)
const PAGE = 5_000
/** CPU milliseconds of this thread so far (user + system): what the work costs on a shared machine. */
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const registry = new Registry()
const schema = new SearchSchema(registry)
const deriver = new DocumentDeriver(schema)
const dir = process.env.BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'bench-search-writer-'))
const file = join(dir, 'search.db')
const index: InstanceType<typeof import('@catalog/search-sqlite').SqliteSearchIndex> = new SqliteSearchIndex({
  file,
  schema,
  cacheMb: 256,
})
const bulk = process.env.BENCH_BULK !== '0' && 'beginBulk' in index
let deriveMs = 0
let writeMs = 0
let rows = 0
try {
  if (bulk) index.beginBulk(N)
  for (let from = 0; from < N; from += PAGE) {
    let t = cpuMs()
    const changes: IndexChange[] = []
    for (let i = from; i < Math.min(N, from + PAGE); i++) {
      const urn = urnOf(i)
      const values = [
        ...registry.defaultAspects(registry.resolveUrn(urn)),
        ...Object.entries(datasetAspects(i)).map(([aspect, value]) => ({ aspect, value })),
      ]
      rows += values.length
      const entries: ChangeLogEntry[] = values.map(({ aspect, value }) => ({
        seq: 0,
        urn,
        entityType: 'dataset',
        aspect,
        change: 'UPSERT',
        value: value as Record<string, unknown>,
        created: STAMP,
      }))
      changes.push(...deriver.changes(entries))
    }
    deriveMs += cpuMs() - t
    t = cpuMs()
    await index.apply(changes, 0)
    writeMs += cpuMs() - t
  }
  const t = cpuMs()
  if (bulk) index.endBulk()
  writeMs += cpuMs() - t
  await index.close()
  const bytes = ['', '-wal'].reduce((n, s) => {
    try {
      return n + statSync(file + s).size
    } catch {
      return n
    }
  }, 0)
  process.stdout.write(
    `${process.argv[2] ? `${process.argv[2]}: ` : ''}${bulk ? 'bulk' : 'apply'}: ${fmt(N)} datasets (${fmt(rows)} aspect rows): derive ${fmt(deriveMs / 1000, 1)} s, write ${fmt(writeMs / 1000, 1)} s = ${fmt(N / (writeMs / 1000))} entities/s (write/derive ${fmt(writeMs / deriveMs, 2)}×); index ${fmt(bytes / 1e6, 1)} MB = ${fmt(bytes / rows)} bytes per aspect row\n`,
  )
} finally {
  if (!process.env.BENCH_DIR) rmSync(dir, { recursive: true, force: true })
}
