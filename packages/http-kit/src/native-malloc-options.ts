import { glibcFunction, type TrimLog } from './native-heap-trim.js'

/**
 * glibc malloc's tuning for a long-running catalog process, set through `mallopt` at start.
 *
 * A catalog process allocates natively from many threads: the event loop, the search worker
 * (SQLite's page cache of the index), the write and JSON-body workers, libuv's pool and V8's
 * platform threads. Two of glibc's defaults keep memory resident after it was freed:
 *
 * - Arenas (`M_ARENA_MAX`): a thread that meets lock contention on an arena gets an arena of its
 *   own, up to 8 per core; each keeps its freed memory for its own threads. A small cap makes the
 *   threads share arenas, and so each other's free space.
 * - The mmap threshold (`M_MMAP_THRESHOLD`): a block of at least this size is mapped on its own
 *   and unmapped when freed. glibc raises the threshold to the size of each mapped block freed
 *   (up to 32 MB), so after the first large request body or structured clone, blocks of a few MB
 *   come from the arenas and stay there as free space once freed. Setting the threshold fixes it
 *   (and the trim threshold, that glibc moves along with it).
 *
 * glibc reads the arena cap when a thread next needs an arena, and only until it has computed its
 * own limit, so this is called at process start, before the worker threads and SQLite allocate.
 * Arenas made before (V8's platform threads, node's start) stay, and later threads share them: a
 * catalog after the ingest benchmark had 5 arena heaps instead of 9.
 * Linux with glibc only, through koffi (an FFI) as `malloc_trim` is (see native-heap-trim.ts);
 * anywhere else, or without koffi, nothing happens.
 */

/** `mallopt`'s parameters used here (glibc's malloc.h). */
export const M_TRIM_THRESHOLD = -1
export const M_MMAP_THRESHOLD = -3
export const M_ARENA_MAX = -8

/** `mallopt(param, value)`: 1 on success. */
export type Mallopt = (param: number, value: number) => number

/** Loads `mallopt`, or throws when it cannot (not glibc, no koffi). */
export type MalloptLoader = () => Mallopt

/** What to set; an option left out keeps glibc's default. */
export interface MallocOptions {
  /** Most arenas (`M_ARENA_MAX`), >= 1. */
  readonly arenaMax?: number
  /** Bytes from which a block is mapped on its own (`M_MMAP_THRESHOLD`), fixed. */
  readonly mmapThreshold?: number
  /** Free bytes at an arena's top from which `free` gives them back (`M_TRIM_THRESHOLD`), fixed. */
  readonly trimThreshold?: number
}

/** The default loader: glibc's `mallopt` through koffi, on Linux only. */
export const loadMallopt: MalloptLoader = () => glibcFunction<Mallopt>('int mallopt(int param, int value)')

/**
 * Sets glibc malloc's {@link MallocOptions} (see the module's comment). Returns the options set;
 * when `mallopt` cannot be loaded or refuses one, logs one debug line and leaves that one.
 */
export function setMallocOptions(
  options: MallocOptions,
  { log, load = loadMallopt }: { log?: TrimLog; load?: MalloptLoader } = {},
): MallocOptions {
  const wanted: Array<[keyof MallocOptions, number, number | undefined]> = [
    ['arenaMax', M_ARENA_MAX, options.arenaMax],
    ['mmapThreshold', M_MMAP_THRESHOLD, options.mmapThreshold],
    ['trimThreshold', M_TRIM_THRESHOLD, options.trimThreshold],
  ]
  for (const [name, , value] of wanted)
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 2 ** 31 - 1))
      throw new RangeError(`malloc option ${name} must be an integer from 1 to 2^31-1: ${value}`)
  let mallopt: Mallopt
  try {
    mallopt = load()
  } catch (err) {
    log?.debug({ err: String(err) }, 'malloc options off: mallopt unavailable')
    return {}
  }
  const set: Record<string, number> = {}
  for (const [name, param, value] of wanted) {
    if (value === undefined) continue
    if (mallopt(param, value) === 1) set[name] = value
    else log?.debug({ option: name, value }, 'mallopt refused a malloc option')
  }
  log?.debug(set, 'malloc options set')
  return set
}
