/**
 * `node --import tsx bench/search-live-write.ts [src...]`: what the live search indexing path
 * costs per written dataset, measured as the search worker runs it: change-log entries as JSON
 * text (as the store's `changesJson` writes them: no audit stamp or system metadata) -> `applyLogText`
 * (parse, derive, write the documents' rows, commit with the cursor), here on this thread so that
 * the process's CPU is the indexing's own. Three kinds of calls, on an index already holding
 * BENCH_ENTITIES datasets (default 20,000), written the same way:
 * - single: new datasets as `ingestProposal` writes them (its `datasetProperties` and DataHub's 4
 *   default aspects: 5 entries each), BENCH_BATCH (default 16) per call, as the 10 ms batching of
 *   noted writes gathers concurrent requests;
 * - update: a changed `datasetProperties` of an indexed dataset, BENCH_BATCH per call;
 * - batch: new datasets, 200 per call (1,000 entries: one page of `ingestProposalBatch`'s log).
 *
 * Each argument is a copy of `packages/search-sqlite/src` inside a copy of the repository (default
 * this one's); its `../../search/src` gives the deriver and schema, so a copy measures its own
 * deriver too. The copies are measured in turns, BENCH_ROUNDS rounds (default 5) of BENCH_WRITES
 * datasets of each kind (default 1,600); medians of the rounds are printed, each beside the first
 * copy's. The index's query caches are loaded first (the worker does so after it starts), so
 * writes keep them current as they do in a server.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Registry } from '@catalog/core'
import { fmt, median } from './lib.js'

const sources = (process.argv.length > 2 ? process.argv.slice(2) : ['packages/search-sqlite/src']).map((s) =>
  resolve(s),
)
const N = Number(process.env.BENCH_ENTITIES ?? 20_000)
const WRITES = Number(process.env.BENCH_WRITES ?? 1_600)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BATCH = Number(process.env.BENCH_BATCH ?? 16)
const BIG_BATCH = 200
const registry = new Registry()
const cpuMicros = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

const urn = (i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,bench_db.schema_${i % 97}.table_${i},PROD)`
const props = (i: number, k = 0) => ({
  description: `Table ${i} holds the daily snapshot of orders for region ${i % 13}${k ? ` (rev ${k})` : ''}`,
  customProperties: { owner_team: `team-${i % 17}` },
})

let seq = 0
/** One change-log entry's JSON text, as the store writes it. */
const entry = (u: string, aspect: string, value: unknown) =>
  JSON.stringify({
    seq: ++seq,
    urn: u,
    entityType: 'dataset',
    aspect,
    change: 'UPSERT',
    value,
  })

/** The entries of a new dataset `i` as `ingestProposal` writes them: its default aspects, then its aspect. */
function newDataset(i: number): string[] {
  const u = urn(i)
  return [
    ...registry.defaultAspects(registry.resolveUrn(u)).map((a) => entry(u, a.aspect, a.value)),
    entry(u, 'datasetProperties', props(i)),
  ]
}

const page = (entries: string[]) => `[${entries.join(',')}]`

interface Subject {
  readonly src: string
  readonly apply: (text: string) => Promise<unknown>
  readonly close: () => Promise<void>
  readonly dir: string
  next: number
  readonly cpu: Record<'single' | 'update' | 'batch', number[]>
}

async function open(src: string): Promise<Subject> {
  const searchSrc = join(src, '..', '..', 'search', 'src', 'index.ts')
  const search = existsSync(searchSrc) ? await import(searchSrc) : await import('@catalog/search')
  const { SqliteSearchIndex } = await import(join(src, 'sqlite-search-index.ts'))
  const { applyLogText } = await import(join(src, 'worker', 'log-applier.ts'))
  const schema = new search.SearchSchema(registry)
  const deriver = new search.DocumentDeriver(schema)
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-live-'))
  const index = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
  const apply = (text: string) => applyLogText(index, deriver, text)
  for (let from = 0; from < N; from += BIG_BATCH) {
    const entries: string[] = []
    for (let i = from; i < Math.min(N, from + BIG_BATCH); i++) entries.push(...newDataset(i))
    await apply(page(entries))
  }
  // The search worker loads its query caches after it starts, and writes keep them current.
  if (typeof index.warmStep === 'function') while (!index.warmStep(50));
  return { src, apply, close: () => index.close(), dir, next: N, cpu: { single: [], update: [], batch: [] } }
}

/** CPU µs per dataset of applying `pages` (built before the clock starts) holding `count` datasets. */
async function timed(s: Subject, pages: string[], count: number): Promise<number> {
  const start = cpuMicros()
  for (const p of pages) await s.apply(p)
  return (cpuMicros() - start) / count
}

function newPages(s: Subject, perCall: number): string[] {
  const pages: string[] = []
  for (let k = 0; k < WRITES; k += perCall) {
    const entries: string[] = []
    for (let j = 0; j < perCall; j++) entries.push(...newDataset(s.next++))
    pages.push(page(entries))
  }
  return pages
}

function updatePages(round: number): string[] {
  const pages: string[] = []
  for (let k = 0; k < WRITES; k += BATCH) {
    const entries: string[] = []
    for (let j = 0; j < BATCH; j++) {
      const i = ((k + j) * 7919 + round) % N
      entries.push(entry(urn(i), 'datasetProperties', props(i, round * WRITES + k + j + 1)))
    }
    pages.push(page(entries))
  }
  return pages
}

const subjects: Subject[] = []
try {
  for (const src of sources) subjects.push(await open(src))
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of subjects) {
      s.cpu.single.push(await timed(s, newPages(s, BATCH), WRITES))
      s.cpu.update.push(await timed(s, updatePages(round), WRITES))
      s.cpu.batch.push(await timed(s, newPages(s, BIG_BATCH), WRITES))
    }
  }
  const base = subjects[0] as Subject
  for (const s of subjects) {
    await s.close()
    const line = (kind: keyof Subject['cpu']) => {
      const ratio = s === base ? '' : ` (${fmt(median(s.cpu[kind]) / median(base.cpu[kind]), 2)}×)`
      return `${kind} ${fmt(median(s.cpu[kind]))} µs${ratio} [${s.cpu[kind].map((x) => fmt(x)).join('/')}]`
    }
    process.stdout.write(
      `${s.src}: CPU per dataset (${BATCH} per call; batch ${BIG_BATCH}): ${line('single')}, ${line('update')}, ${line('batch')}\n`,
    )
  }
} finally {
  for (const s of subjects) rmSync(s.dir, { recursive: true, force: true })
}
