/**
 * `node --import tsx bench/search-worker-old-space.ts`: what the search worker's V8 old generation
 * ceiling does to the memory it holds after a stream of writes. For each ceiling in BENCH_CEILINGS
 * (MB, comma-separated, 0 for V8's own; default `0,1024`), in turns, BENCH_ROUNDS rounds (default
 * 3), a fresh process opens a `WorkerSearchIndex` on a new file and applies BENCH_DATASETS new
 * datasets (default 200,000) as change-log text, 200 per call (1,000 entries: a page of the server's
 * search sync; DataHub's 4 default aspects and a `datasetProperties` each). Prints, per ceiling,
 * the medians of the process's resident memory at the end and after 10 s idle, the worker's heap
 * (used and committed) and the process's CPU-µs per dataset (both threads).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { WorkerSearchIndex } from '../packages/search-sqlite/src/worker/worker-search-index.js'
import { fmt, median } from './lib.js'

const DATASETS = Number(process.env.BENCH_DATASETS ?? 200_000)
const PER_CALL = 200

interface Sample {
  readonly rssMb: number
  readonly idleRssMb: number
  readonly heapUsedMb: number
  readonly heapCommittedMb: number
  readonly cpuPerDataset: number
}

/** One measurement, in this process: the worker's ceiling is `ceilingMb` (0: V8's). */
async function measure(ceilingMb: number): Promise<Sample> {
  const registry = new Registry()
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-old-space-'))
  const index = await WorkerSearchIndex.open({
    file: join(dir, 'search.db'),
    ...(ceilingMb > 0 ? { oldGenerationMb: ceilingMb } : {}),
  })
  try {
    await index.whenWarm()
    let seq = 0
    const entry = (urn: string, aspect: string, value: unknown) =>
      JSON.stringify({ seq: ++seq, urn, entityType: 'dataset', aspect, change: 'UPSERT', value })
    const rss = () =>
      Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024
    const started = process.cpuUsage()
    // One call in flight while the next page is built, as the sync reads the next page meanwhile.
    let previous: Promise<unknown> = Promise.resolve()
    for (let from = 0; from < DATASETS; from += PER_CALL) {
      const entries: string[] = []
      for (let i = from; i < Math.min(DATASETS, from + PER_CALL); i++) {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,bench_db.schema_${i % 97}.table_${i},PROD)`
        for (const a of registry.defaultAspects(registry.resolveUrn(urn)))
          entries.push(entry(urn, a.aspect, a.value))
        entries.push(
          entry(urn, 'datasetProperties', {
            description: `Table ${i} holds the daily snapshot of orders for region ${i % 13}`,
            customProperties: { owner_team: `team-${i % 17}` },
          }),
        )
      }
      await previous
      previous = index.applyLog(`[${entries.join(',')}]`)
    }
    await previous
    const cpu = process.cpuUsage(started)
    const rssMb = rss()
    const heap = await index.heapStatistics()
    await new Promise((done) => setTimeout(done, 10_000))
    return {
      rssMb,
      idleRssMb: rss(),
      heapUsedMb: heap.used_heap_size / 1024 / 1024,
      heapCommittedMb: heap.total_physical_size / 1024 / 1024,
      cpuPerDataset: (cpu.user + cpu.system) / DATASETS,
    }
  } finally {
    await index.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--child') {
  process.stdout.write(`${JSON.stringify(await measure(Number(process.argv[3])))}\n`)
} else {
  const ceilings = (process.env.BENCH_CEILINGS ?? '0,1024').split(',').map(Number)
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
  const samples = new Map<number, Sample[]>(ceilings.map((c) => [c, []]))
  for (let round = 0; round < rounds; round++)
    for (const c of ceilings) {
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, new URL(import.meta.url).pathname, '--child', String(c)],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      )
      samples.get(c)?.push(JSON.parse(out.trim().split('\n').at(-1) as string) as Sample)
    }
  for (const [c, s] of samples) {
    const col = (key: keyof Sample) =>
      `${fmt(median(s.map((x) => x[key])))} [${s.map((x) => fmt(x[key])).join('/')}]`
    process.stdout.write(
      `ceiling ${c > 0 ? `${c} MB` : "V8's"}: RSS ${col('rssMb')} MB, after 10 s idle ${col('idleRssMb')} MB; worker heap used ${col('heapUsedMb')} MB, committed ${col('heapCommittedMb')} MB; CPU ${col('cpuPerDataset')} µs per dataset\n`,
    )
  }
}
