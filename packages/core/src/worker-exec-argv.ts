/**
 * A worker thread's node options: the parent's, less every module preloaded with `--import`,
 * `--require` or `--loader` (tsx's loader, a test runner's hooks): each worker entry registers
 * tsx itself when it runs from the sources, and preloads would only slow the worker's start.
 */
export function workerExecArgv(): string[] {
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
