/**
 * `node --import tsx bench/search-worker-memory.ts <data dir>`: the catalog's resident memory after
 * the scale benchmark's search kinds (`scale-kinds.ts`), and the CPU each kind costs it. Starts
 * `npm start`'s bundle on the data dir (one the scale benchmark loaded; use a copy), waits for the
 * search worker's warm-up, sends each kind's inputs BENCH_ROUNDS times (default 20) in turn, then
 * prints RSS (anonymous and file-backed) and the CPU-µs per request of each kind (the process's
 * CPU, all threads). Run it from two checkouts at the same time on two copies of the dir to
 * compare a change in the same conditions.
 */
import { readFileSync } from 'node:fs'
import { cpuSeconds, fmt, rssMb } from './lib.js'
import { send } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { searchBody, warm } from './scale-search.js'
import { startCatalog } from './scale-system.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: search-worker-memory.ts <data dir>')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)

const app = await startCatalog(dataDir)
const pid = app.child.pid as number
try {
  await warm(app.url)
  const out: string[] = []
  for (const kind of scaleKinds) {
    const before = cpuSeconds(pid)
    let n = 0
    for (let r = 0; r < ROUNDS; r++)
      for (const input of kind.inputs) {
        await send(`${app.url}/entities?action=${kind.action}`, searchBody(kind, input))
        n++
      }
    out.push(`${kind.name} ${fmt(((cpuSeconds(pid) - before) * 1e6) / n)} CPU-µs/request`)
  }
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  process.stdout.write(
    `RSS ${fmt(rssMb(pid))} MB (anonymous ${fmt(kb('RssAnon') / 1024)}, files ${fmt((kb('RssFile') + kb('RssShmem')) / 1024)}); ${out.join('; ')}\n`,
  )
} finally {
  await app.stop()
}
