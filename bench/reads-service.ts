/**
 * `node --import tsx bench/reads-service.ts <metadata.db>`: the CPU of a cold `entitiesV2` read
 * without HTTP, split in two: the store's read alone (`latestJson` of one URN) and the whole
 * service call (`ReadService.entityV2Json`: the same read through the cache of latest rows, then
 * the answer's text). Both on the datasets the scale benchmark picks, each its own, in turns
 * (BENCH_SERVICE_ROUNDS, default 5), BENCH_SERVICE_N reads each (default 2,000) after as many
 * untimed ones; opens the store as the server does (read-write, WAL; nothing is written).
 *
 * What it showed (2026-11-27, 1M datasets, most of the file in the OS cache, load average 3.7-4.7):
 * the store's read 58-106 µs (median 67), the whole service call 69-120 µs (median 78): the
 * answer's text and the caches' bookkeeping add ~11-20 µs to a cold read; the rest of a cold
 * `entitiesV2` request's ~400 µs is HTTP, the framework, and V8's threads (see `reads-split.ts`).
 */
import { Registry } from '@catalog/core'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import { ReadService } from '../apps/metadata-service/src/services/read-service.js'
import { fmt, median } from './lib.js'
import { pick } from './lineage-scale.js'

const file = process.argv[2]
if (!file) throw new Error('usage: node --import tsx bench/reads-service.ts <metadata.db>')
const N = Number(process.env.BENCH_SERVICE_N ?? 2000)
const ROUNDS = Number(process.env.BENCH_SERVICE_ROUNDS ?? 5)
const ENTITIES = Number(process.env.BENCH_ENTITIES ?? 1_000_000)

const store = new SqliteMetadataStore({ file })
const reads = new ReadService(new Registry(), store)
const kinds: Record<string, (urn: string) => Promise<unknown>> = {
  store: (urn) => store.latestJson([urn]),
  service: (urn) => reads.entityV2Json(urn),
}
const results = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]))
let next = 200_000
for (let round = 0; round < ROUNDS; round++)
  for (const [kind, read] of Object.entries(kinds)) {
    for (let i = 0; i < N; i++) await read(pick(ENTITIES, next++))
    const before = process.cpuUsage()
    for (let i = 0; i < N; i++) await read(pick(ENTITIES, next++))
    const used = process.cpuUsage(before)
    const us = (used.user + used.system) / N
    results.get(kind)?.push(us)
    process.stdout.write(`round ${round + 1} ${kind}: ${fmt(us, 1)} µs per read\n`)
  }
for (const [kind, us] of results) process.stdout.write(`median ${kind}: ${fmt(median(us), 1)} µs per read\n`)
await store.close()
