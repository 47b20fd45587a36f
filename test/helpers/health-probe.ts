import { Worker } from 'node:worker_threads'
import type { Running } from './spawn.js'

/** `/health` answers within this while the heaviest allowed request runs (issue 12). */
export const HEALTH_BOUND_MS = 100

/** One `/health` probe: when it was sent and when its answer came (performance.now(), ms). */
export interface Probe {
  readonly sent: number
  readonly answered: number
}

/**
 * Probes `/health` every 10 ms until `done()` holds. The probes run on a worker thread, so that
 * what the test thread does meanwhile (serializing a large body, parsing a large answer) does
 * not delay them; their times are in this thread's `performance.now()` frame.
 */
export async function probeHealth(app: Running, done: () => boolean): Promise<Probe[]> {
  const worker = new Worker(new URL('./health-probe-worker.mjs', import.meta.url), {
    workerData: { url: app.url },
    execArgv: [],
  })
  const probes = new Promise<Probe[]>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10))
  worker.postMessage('stop')
  const epoch = await probes
  await worker.terminate()
  return epoch.map((p) => ({
    sent: p.sent - performance.timeOrigin,
    answered: p.answered - performance.timeOrigin,
  }))
}

/** How long each probe waited after `from` (probes answered before it count 0). */
export const waitedAfter = (probes: readonly Probe[], from: number) =>
  probes.map((p) => Math.max(0, p.answered - Math.max(p.sent, from)))

/** How long each probe waited within [from, to] (a probe's wait outside it does not count). */
export const waitedWithin = (probes: readonly Probe[], from: number, to: number) =>
  probes.map((p) => Math.max(0, Math.min(p.answered, to) - Math.max(p.sent, from)))

export const max = (values: readonly number[]) => values.reduce((a, b) => Math.max(a, b), 0)
