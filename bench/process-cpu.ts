import { readdirSync, readFileSync } from 'node:fs'
import { fmt } from './lib.js'

/**
 * CPU time (user + system) a process has used, in ms: every thread, its main thread (the event
 * loop), and each thread by id (worker threads, V8's GC helpers and libuv's pool all show as
 * `node`; threads that ended are in `all` only).
 */
interface CpuMs {
  readonly all: number
  readonly main: number
  readonly threads: ReadonlyMap<string, number>
}

/** {@link CpuMs} of a process now; undefined off Linux. */
export function cpuMs(pid: number | undefined): CpuMs | undefined {
  if (pid === undefined) return undefined
  try {
    const threads = new Map<string, number>()
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(tid, statCpuMs(`/proc/${pid}/task/${tid}/stat`))
      } catch {
        // The thread ended meanwhile.
      }
    }
    return { all: statCpuMs(`/proc/${pid}/stat`), main: statCpuMs(`/proc/${pid}/task/${pid}/stat`), threads }
  } catch {
    return undefined
  }
}

function statCpuMs(file: string): number {
  const stat = readFileSync(file, 'utf8')
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

/** CPU µs (all threads) per unit between two readings. */
export function allUs(before: CpuMs, after: CpuMs, units: number): number {
  return ((after.all - before.all) * 1000) / units
}

/**
 * CPU µs per unit between two readings: all threads, the event loop's share, and the busiest
 * other thread's (under ingest load, the search index's worker) and the rest's.
 */
export function perUnit(before: CpuMs, after: CpuMs, units: number, pid?: number): string {
  const us = (ms: number) => (ms * 1000) / units
  const all = us(after.all - before.all)
  const main = us(after.main - before.main)
  let busiest = 0
  for (const [tid, ms] of after.threads) {
    if (tid === String(pid)) continue
    busiest = Math.max(busiest, us(ms - (before.threads.get(tid) ?? 0)))
  }
  const others =
    pid === undefined
      ? ''
      : `, ${fmt(busiest)} µs on the busiest other thread, ${fmt(Math.max(0, all - main - busiest))} µs on the rest`
  return `${fmt(all)} µs (all threads; ${fmt(main)} µs of it on the event loop${others})`
}
