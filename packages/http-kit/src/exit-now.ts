import { glibcFunction } from './native-heap-trim.js'

/** Ends the process with an exit status, without returning. */
type ExitFunction = (code: number) => void

/** Loads glibc's `_exit`, or throws when it cannot (not glibc, no koffi). */
export type ExitLoader = () => ExitFunction

/** The default loader: glibc's `_exit` through koffi, on Linux only. */
export const loadExit: ExitLoader = () => glibcFunction<ExitFunction>('void _exit(int status)')

/**
 * Ends the process with `code` now, even while a worker thread is inside a native call.
 *
 * `process.exit()` joins every worker thread before the process ends, and a worker running a
 * native call (a long SQLite statement: an index build, the checkpoint of a large WAL) cannot be
 * stopped until the call returns: node's own exit then waits for it, however long it runs, with
 * the process still holding its data files. Here the process's `exit` listeners run as
 * `process.exit()` runs them (pino writes out the lines it still holds), then glibc's `_exit` ends
 * the process without joining its threads. Where `_exit` cannot be loaded (not Linux with glibc,
 * or no koffi), SIGKILL ends it, and the status shows the signal instead; as the first process
 * of a container, which the kernel does not kill with its own signals, `process.exit()` is left.
 *
 * Only for exits that must not wait: what the store acknowledged is in its files already, and
 * SQLite recovers an interrupted transaction at the next open.
 */
export function exitNow(code: number, load: ExitLoader = loadExit): never {
  process.exitCode = code
  try {
    process.emit('exit', code)
  } finally {
    try {
      load()(code)
    } catch {
      // No `_exit` here: the signal below.
    }
    process.kill(process.pid, 'SIGKILL')
  }
  return process.exit(code)
}
