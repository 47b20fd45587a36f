import { readlinkSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** How much nicer worker threads are than the process: the event loop gets ~3× their CPU share. */
export const WORKER_NICENESS = 5

/**
 * Lowers the calling thread's scheduling priority (Linux: each thread has its own niceness,
 * found through `/proc/thread-self`), so that a worker busy with a large write, index update or
 * search never holds the CPU the event loop needs to answer other requests on a busy machine.
 * Elsewhere, or when the system refuses, nothing changes. Returns whether it took effect.
 */
export function lowerThreadPriority(by = WORKER_NICENESS): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1))
    if (!Number.isInteger(tid) || tid <= 0) return false
    setPriority(tid, Math.min(19, getPriority(tid) + by))
    return true
  } catch {
    return false
  }
}
