import { createRequire } from 'node:module'

/**
 * Native heap trim: gives memory that glibc's malloc keeps after it was freed back to the OS.
 *
 * SQLite and the worker threads allocate through malloc in arenas (the server caps how many:
 * native-malloc-options.ts), and glibc returns an arena's free pages to the OS only from its top,
 * so after a burst of queries or ingest an arena stays resident with most of it free (gdb on a
 * held server, before the cap: 88 of a search worker's 128 MB arena). `malloc_trim(0)` releases
 * the free pages of every arena (glibc >= 2.8), so one call from the main thread serves the worker
 * threads too. Node has no API for it: it is
 * called through koffi (an FFI), loaded lazily, and only on Linux with glibc; anywhere else, or if
 * koffi is missing, this does nothing. The JVM does the same since JDK 21
 * (`-XX:TrimNativeHeapInterval`).
 *
 * When: a timer samples the process's CPU (every thread: `process.cpuUsage()`) each
 * {@link TRIM_TICK_MS}. A trim follows when a burst ends (a quiet tick after busy ones) and,
 * while the process stays busy, every {@link TRIM_BUSY_EVERY_MS}; an idle process is never
 * trimmed again, since it freed nothing new.
 */

/** How often the process's CPU is sampled. */
export const TRIM_TICK_MS = 500
/** While busy, a trim at most this often (a trim holds the arenas' locks for a few ms). */
export const TRIM_BUSY_EVERY_MS = 10_000
/** A tick with less CPU than this share of its wall time (all threads together) is quiet. */
const QUIET_SHARE = 0.05
/** CPU since the last trim below this is no work worth a trim (the sync timer's ticks, a health check). */
const WORK_CPU_MS = 100

/** Calls `malloc_trim(0)`; returns 1 when memory was released. */
export type TrimFunction = () => number

/** Loads the trim function, or throws when it cannot (not glibc, no koffi). */
export type TrimLoader = () => TrimFunction

/** The logger's one method used here (pino's `debug`). */
export interface TrimLog {
  debug(obj: object, msg: string): void
}

export interface NativeHeapTrimOptions {
  readonly log?: TrimLog
  /** How to get `malloc_trim`; by default koffi on Linux. For tests. */
  readonly load?: TrimLoader
  /** The process's CPU so far; by default `process.cpuUsage()`. For tests. */
  readonly cpuUsage?: () => NodeJS.CpuUsage
  readonly tickMs?: number
  readonly busyEveryMs?: number
}

export interface NativeHeapTrim {
  /** Whether `malloc_trim` could be loaded (false: the timer never started). */
  readonly active: boolean
  /** Trims done so far, and their total wall time. */
  stats(): { trims: number; ms: number }
  /** Stops the timer. */
  close(): void
}

/**
 * A function of glibc's libc (`signature` in koffi's C-like syntax) through koffi, on Linux only;
 * throws where it cannot be had (not Linux, no koffi, not glibc). Shared by the native heap trim
 * and the malloc options (native-malloc-options.ts).
 */
export function glibcFunction<F>(signature: string): F {
  if (process.platform !== 'linux') throw new Error(`not linux (${process.platform})`)
  // A require at run time (not an import): koffi is an optional native module, and a process
  // without it must still start.
  const koffi = createRequire(import.meta.url)('koffi') as {
    load(path: string): { func(signature: string): F }
  }
  // glibc only: musl (Alpine) has no libc.so.6, so this throws there.
  return koffi.load('libc.so.6').func(signature)
}

/** The default loader: glibc's `malloc_trim` through koffi, on Linux only. */
export const loadMallocTrim: TrimLoader = () => {
  const trim = glibcFunction<(pad: number) => number>('int malloc_trim(size_t pad)')
  return () => trim(0)
}

/**
 * Starts trimming the native heap (see the module's comment) on an unref'd timer. Returns an
 * inactive handle, logging one debug line, when `malloc_trim` cannot be loaded.
 */
export function startNativeHeapTrim(options: NativeHeapTrimOptions = {}): NativeHeapTrim {
  const { log, load = loadMallocTrim, cpuUsage = () => process.cpuUsage() } = options
  const tickMs = options.tickMs ?? TRIM_TICK_MS
  const busyEveryMs = options.busyEveryMs ?? TRIM_BUSY_EVERY_MS
  let trim: TrimFunction
  try {
    trim = load()
  } catch (err) {
    log?.debug({ err: String(err) }, 'native heap trim off: malloc_trim unavailable')
    return { active: false, stats: () => ({ trims: 0, ms: 0 }), close: () => {} }
  }
  const cpuMs = () => {
    const u = cpuUsage()
    return (u.user + u.system) / 1000
  }
  let trims = 0
  let trimMs = 0
  let lastCpu = cpuMs()
  let cpuAtTrim = lastCpu
  let lastTrimAt = performance.now()
  const timer = setInterval(() => {
    const now = performance.now()
    const cpu = cpuMs()
    const tickCpu = cpu - lastCpu
    lastCpu = cpu
    const worked = cpu - cpuAtTrim >= WORK_CPU_MS
    const quiet = tickCpu < tickMs * QUIET_SHARE
    if (!worked || (!quiet && now - lastTrimAt < busyEveryMs)) return
    const t = performance.now()
    try {
      trim()
    } catch (err) {
      log?.debug({ err: String(err) }, 'malloc_trim failed: native heap trim off')
      clearInterval(timer)
      return
    }
    const ms = performance.now() - t
    trims++
    trimMs += ms
    // The trim's own CPU is not work to trim after.
    lastCpu = cpuMs()
    cpuAtTrim = lastCpu
    lastTrimAt = performance.now()
    log?.debug({ ms, quiet }, 'native heap trimmed')
  }, tickMs)
  timer.unref()
  return {
    active: true,
    stats: () => ({ trims, ms: trimMs }),
    close: () => clearInterval(timer),
  }
}
