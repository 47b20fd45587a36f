/**
 * The ingest path below HTTP, in process: the ingest service writing new datasets into the
 * SQLite store (a file in a temp dir, durability `full`, writer thread on), and the change log
 * read back as text after the writes, as the one-process search sync does (its text dropped:
 * indexing is the search index's cost, not this path's). Two runs: single `ingestProposals`
 * calls from 32 concurrent writers, then calls of 100. Prints CPU per aspect of every thread and
 * of the event loop, steadier than a server's throughput on a shared machine. Compare two trees
 * with it by running it in each, alternately.
 *
 * `node --import tsx bench/ingest-store.ts [seconds per run]` (default 6).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry, ROOT_ACTOR } from '@catalog/core'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import { IngestService } from '../apps/metadata-service/src/services/ingest-service.js'
import { benchProposal as proposal } from './ingest-proposal.js'

const SECONDS = Number(process.argv[2] ?? 6)
/** How long a noted write waits before the change log is read back (as the search sync's). */
const READ_BACK_DELAY_MS = 10

/** CPU ms of this thread (the event loop), from /proc (Linux). */
function mainThreadMs(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const dir = mkdtempSync(join(tmpdir(), 'ingl-ingest-store-'))
const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'full' })
await store.warmWriterThread()
let cursor = 0
let written = 0
let readBack: NodeJS.Timeout | undefined
/** Characters read back, so that nothing is optimized away. */
let chars = 0
const noteWrite = async (seq: number) => {
  written = Math.max(written, seq)
  if (readBack) return
  // One read-back at a time: it reads until it has every write noted meanwhile.
  readBack = setTimeout(async () => {
    while (cursor < written) {
      const text = await store.changesJson(cursor, 1000)
      chars += text.length
      // The last entry's position (no value in this benchmark holds the text '{"seq":').
      const last = /^\{"seq":(\d+)/.exec(text.slice(text.lastIndexOf('{"seq":')))
      cursor = last ? Number(last[1]) : written
    }
    readBack = undefined
  }, READ_BACK_DELAY_MS)
}
const ingest = new IngestService(new Registry(), store, noteWrite)
let next = 0

/** Runs `writers` loops of calls of `perCall` proposals for `seconds`; returns aspects written. */
async function run(writers: number, perCall: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000
  let aspects = 0
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (performance.now() < until) {
        const proposals = Array.from({ length: perCall }, () => proposal(next++))
        await ingest.ingestProposals(proposals, ROOT_ACTOR)
        aspects += perCall
      }
    }),
  )
  return aspects
}

for (const [label, writers, perCall] of [
  ['single', 32, 1],
  ['batch of 100', 8, 100],
] as const) {
  await run(writers, perCall, 2)
  const all = process.cpuUsage()
  const main = mainThreadMs()
  const aspects = await run(writers, perCall, SECONDS)
  await new Promise((resolve) => setTimeout(resolve, 50))
  const used = process.cpuUsage(all)
  const mainUs = ((mainThreadMs() - main) * 1000) / aspects
  const allUs = (used.user + used.system) / aspects
  process.stdout.write(
    `${label}: ${allUs.toFixed(1)} CPU-µs per aspect (all threads), ${mainUs.toFixed(1)} on the event loop; ${aspects} aspects\n`,
  )
}
await store.close()
rmSync(dir, { recursive: true, force: true })
process.stdout.write(`(${chars} characters of change log read back)\n`)
