/**
 * `node --import tsx bench/search-single-write.ts [src...]`: what one single write costs the search
 * index's thread, as a single `ingestProposal` makes it do: the CPU of one `apply` of one document's
 * changes (a new dataset: its 3 aspects of `bench/scale-data.ts` and DataHub's default aspects;
 * an update: a changed `datasetProperties` of a dataset already indexed), on an index already
 * holding BENCH_ENTITIES datasets (default 20,000), the index file's bytes per dataset beside.
 *
 * Each argument is a copy of the index's sources (default `packages/search-sqlite/src`; e.g. the
 * previous commit's, from `git show`): they are measured in turns, BENCH_ROUNDS rounds (default 3)
 * of BENCH_WRITES writes of each kind (default 1,000), so before and after share the machine's
 * state; the medians of the rounds are printed, each beside the first source's. BENCH_BATCH=16
 * applies 16 writes per call (one transaction), as the search thread does with the writes of
 * concurrent requests that arrived together; the CPU is still given per write.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type ChangeLogEntry, Registry } from '@catalog/core'
import { DocumentDeriver, type IndexChange, type SearchIndex, SearchSchema } from '@catalog/search'
import { STAMP } from './import-data.js'
import { fmt, median } from './lib.js'
import { datasetLines, datasetUrn } from './scale-data.js'

const sources = (process.argv.length > 2 ? process.argv.slice(2) : ['packages/search-sqlite/src']).map((s) =>
  resolve(s),
)
const N = Number(process.env.BENCH_ENTITIES ?? 20_000)
const WRITES = Number(process.env.BENCH_WRITES ?? 1_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PAGE = 5_000
const BATCH = Number(process.env.BENCH_BATCH ?? 1)
const registry = new Registry()
const schema = new SearchSchema(registry)
const deriver = new DocumentDeriver(schema)
const cpuMicros = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

let seq = 0
const entry = (urn: string, aspect: string, value: unknown): ChangeLogEntry => ({
  seq: ++seq,
  urn,
  entityType: 'dataset',
  aspect,
  change: 'UPSERT',
  value: value as Record<string, unknown>,
  created: STAMP,
})

/** The change-log entries of a new dataset `i`: its default aspects and its 3 aspects. */
function created(i: number): ChangeLogEntry[] {
  const urn = datasetUrn(i)
  const own = datasetLines(i)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { aspectName: string; aspect: { json: unknown } })
  return [
    ...registry.defaultAspects(registry.resolveUrn(urn)).map((a) => entry(urn, a.aspect, a.value)),
    ...own.map((l) => entry(urn, l.aspectName, l.aspect.json)),
  ]
}

/** A changed `datasetProperties` of dataset `i` (write `k`). */
const updated = (i: number, k: number): ChangeLogEntry[] => [
  entry(datasetUrn(i), 'datasetProperties', {
    name: `table_${i}`,
    description: `revised ${k}: orders of region ${i % 50}, refreshed daily`,
    customProperties: { team: 'ops' },
  }),
]

interface Subject {
  readonly src: string
  readonly index: SearchIndex
  readonly file: string
  readonly dir: string
  next: number
  created: number[]
  updated: number[]
}

async function open(src: string): Promise<Subject> {
  const { SqliteSearchIndex } = await import(join(src, 'sqlite-search-index.ts'))
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-single-'))
  const file = join(dir, 'search.db')
  const index = new SqliteSearchIndex({ file, schema }) as SearchIndex & {
    beginBulk(n: number): void
    endBulk(): void
  }
  index.beginBulk(N)
  for (let from = 0; from < N; from += PAGE) {
    const changes: IndexChange[] = []
    for (let i = from; i < Math.min(N, from + PAGE); i++) changes.push(...deriver.changes(created(i)))
    await index.apply(changes, seq)
  }
  index.endBulk()
  return { src, index, file, dir, next: N, created: [], updated: [] }
}

/** CPU µs per write of `writes` (derived before the clock starts), BATCH writes per apply. */
async function timed(index: SearchIndex, writes: IndexChange[][]): Promise<number> {
  const calls: IndexChange[][] = []
  for (let i = 0; i < writes.length; i += BATCH) calls.push(writes.slice(i, i + BATCH).flat())
  const start = cpuMicros()
  for (const changes of calls) await index.apply(changes, seq)
  return (cpuMicros() - start) / writes.length
}

const subjects: Subject[] = []
try {
  for (const src of sources) subjects.push(await open(src))
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of subjects) {
      const fresh = Array.from({ length: WRITES }, (_, k) => deriver.changes(created(s.next + k)))
      s.created.push(await timed(s.index, fresh))
      s.next += WRITES
      const again = Array.from({ length: WRITES }, (_, k) =>
        deriver.changes(updated((k * 7919 + round) % N, round * WRITES + k)),
      )
      s.updated.push(await timed(s.index, again))
    }
  }
  const base = subjects[0] as Subject
  for (const s of subjects) {
    await s.index.close()
    const bytes = ['', '-wal'].reduce((n, x) => {
      try {
        return n + statSync(s.file + x).size
      } catch {
        return n
      }
    }, 0)
    const ratio = (a: number[], b: number[]) => (s === base ? '' : ` (${fmt(median(a) / median(b), 2)}×)`)
    process.stdout.write(
      `${s.src}: CPU per single write (${BATCH} per apply), new dataset ${fmt(median(s.created))} µs${ratio(s.created, base.created)}, update ${fmt(median(s.updated))} µs${ratio(s.updated, base.updated)}; ${fmt(bytes / s.next)} bytes per dataset (${fmt(s.next)} datasets); rounds ${s.created.map((x) => fmt(x)).join('/')} and ${s.updated.map((x) => fmt(x)).join('/')}\n`,
    )
  }
} finally {
  for (const s of subjects) rmSync(s.dir, { recursive: true, force: true })
}
