/**
 * `BENCH_OLD_WALK=<other checkout>/packages/store-sqlite/src/sqlite-lineage.ts node --import tsx
 * bench/lineage-ab-walk.ts <store file>`: this checkout's lineage walk against another's, in one
 * process on the same file (each on its own connection, same page cache), the scale benchmark's
 * datasets at 1, 3 and 5 hops, alternating which runs first per request (A B, B A, ...); CPU per
 * walk by `process.cpuUsage()`, in rounds over the same datasets (the second and later rounds
 * show what each remembers between walks). Prints the median of the rounds' means.
 */
import { pathToFileURL } from 'node:url'
import { Registry } from '@catalog/core'
import type { LineagePage, LineageQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import { lineageEdgeSpecs } from '../apps/metadata-service/src/services/lineage-service.js'
import { SqliteLineage } from '../packages/store-sqlite/src/sqlite-lineage.js'
import { fmt, percentile } from './lib.js'
import { walkQuery } from './lineage-scale.js'

const file = process.argv[2]
const other = process.env.BENCH_OLD_WALK
if (!file || !other)
  throw new Error(
    'usage: BENCH_OLD_WALK=<sqlite-lineage.ts> node --import tsx bench/lineage-ab-walk.ts <metadata.db>',
  )
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CACHE_KB = Number(process.env.BENCH_CACHE_KB ?? 4_000)
const open = () => {
  const db = new Database(file, { readonly: true })
  db.pragma(`cache_size = -${CACHE_KB}`)
  return db
}
type Walk = { lineage(q: LineageQuery): Promise<LineagePage> }
const Old = (
  (await import(pathToFileURL(other).href)) as { SqliteLineage: new (db: Database.Database) => Walk }
).SqliteLineage
const walks: Array<[string, Walk]> = [
  ['this', new SqliteLineage(open())],
  ['other', new Old(open())],
]
const edges = lineageEdgeSpecs(new Registry())
const query = (i: number, hops: number) => walkQuery(N, i, hops, edges)
for (const hops of [1, 3, 5]) {
  const means = new Map<string, number[]>(walks.map(([name]) => [name, []]))
  for (let round = 0; round < ROUNDS; round++) {
    const spent = new Map<string, number>(walks.map(([name]) => [name, 0]))
    for (let i = 0; i < 200; i++) {
      for (const [name, walk] of (i >> 1) % 2 ? [...walks].reverse() : walks) {
        const c = process.cpuUsage()
        await walk.lineage(query(i + 1000 * hops, hops))
        const d = process.cpuUsage(c)
        spent.set(name, (spent.get(name) as number) + d.user + d.system)
      }
    }
    for (const [name, us] of spent) means.get(name)?.push(us / 200)
  }
  process.stdout.write(
    `${hops} hops, CPU µs per walk by round: ${[...means].map(([n, xs]) => `${n} ${xs.map((x) => fmt(x)).join(' ')} (median ${fmt(percentile([...xs], 50))})`).join('; ')}\n`,
  )
}
