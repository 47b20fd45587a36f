import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

/** Result of one autocannon run. */
export interface LoadResult {
  readonly requestsPerSec: number
  readonly p50: number
  readonly p99: number
  readonly errors: number
  readonly non2xx: number
  readonly total: number
}

export interface LoadOptions {
  readonly url: string
  readonly path: string
  readonly method?: 'GET' | 'POST'
  /** Builds the n-th request body (called for every request). */
  readonly body?: (n: number) => string
  readonly connections?: number
  readonly durationSec?: number
  readonly amount?: number
  /** Extra request headers (e.g. `authorization`). */
  readonly headers?: Record<string, string>
  /** Builds the n-th request path (called for every request); otherwise `path`. */
  readonly pathOf?: (n: number) => string
}

/** Drives HTTP load with autocannon and returns throughput and latency. */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  let n = 0
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 32,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.durationSec ?? 10 }),
    requests: [
      {
        method: opts.method ?? 'POST',
        path: opts.path,
        headers: {
          'content-type': 'application/json',
          'x-restli-protocol-version': '2.0.0',
          ...opts.headers,
        },
        ...(opts.body || opts.pathOf
          ? {
              setupRequest: (req: autocannon.Request) => {
                const i = n++
                return {
                  ...req,
                  ...(opts.body ? { body: opts.body(i) } : {}),
                  ...(opts.pathOf ? { path: opts.pathOf(i) } : {}),
                }
              },
            }
          : {}),
      },
    ],
  })
  return {
    requestsPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  }
}

/** Resident memory of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return kb / 1024
}

/** CPU seconds (user + system, every thread) a process has used so far (Linux /proc). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** The largest of many numbers (a spread `Math.max(...xs)` overflows the stack past ~100,000). */
export function maxOf(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY
  for (const v of values) if (v > max) max = v
  return max
}

/** Percentile of a sorted-in-place list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  values.sort((a, b) => a - b)
  return values[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] as number
}

/** The middle value (the upper of the two middle ones for an even count), leaving `values` as it is. */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[values.length >> 1] as number

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** Prints one result row: the measure, the baseline, their ratio and the target. */
export function report(
  name: string,
  value: number,
  unit: string,
  baseline: number,
  baselineName: string,
  target?: number,
): string {
  const ratio = value / baseline
  const verdict =
    target === undefined
      ? ''
      : ratio >= target
        ? `  (target ≥ ${target}×: met)`
        : `  (target ≥ ${target}×: NOT met)`
  const line = `${name}: ${fmt(value)} ${unit} | ${baselineName}: ${fmt(baseline)} ${unit} | ratio ${fmt(ratio, 2)}×${verdict}`
  process.stdout.write(`${line}\n`)
  return line
}
