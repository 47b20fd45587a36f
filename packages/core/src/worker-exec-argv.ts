import { Worker, type WorkerOptions } from 'node:worker_threads'

/**
 * A worker thread's node options: the parent's, less every module preloaded with `--import`,
 * `--require` or `--loader` (tsx's loader, a test runner's hooks): each worker entry registers
 * tsx itself when it runs from the sources, and preloads would only slow the worker's start.
 */
function workerExecArgv(): string[] {
  const out: string[] = []
  const args = process.execArgv
  const PRELOADS = ['--import', '--require', '-r', '--loader', '--experimental-loader']
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (PRELOADS.includes(arg)) i++
    else if (!PRELOADS.some((flag) => arg.startsWith(`${flag}=`))) out.push(arg)
  }
  return out
}

/** The flags a worker refused (`ERR_WORKER_INVALID_EXEC_ARGV` names them), else undefined. */
function refusedFlags(err: unknown): string[] | undefined {
  if ((err as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return undefined
  const list = /flags: (.*)$/.exec((err as Error).message)?.[1]
  return list?.split(', ')
}

/**
 * Starts a worker thread with the parent's node options (see {@link workerExecArgv}), less the
 * process-wide ones a worker refuses (`--max-old-space-size`, `--stack-size` and other V8 flags
 * given to node itself): they already hold for the whole process.
 */
export function startWorker(filename: string | URL, options: WorkerOptions = {}): Worker {
  let execArgv = workerExecArgv()
  for (;;) {
    try {
      return new Worker(filename, { ...options, execArgv })
    } catch (err) {
      const refused = refusedFlags(err)
      const kept = refused ? execArgv.filter((arg) => !refused.includes(arg)) : execArgv
      if (kept.length === execArgv.length) throw err
      execArgv = kept
    }
  }
}
