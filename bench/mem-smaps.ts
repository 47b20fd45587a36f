import { readFileSync } from 'node:fs'

/**
 * Where a process's resident memory is, from /proc/<pid>/smaps (Linux): file-backed pages (code,
 * SQLite's files mapped or not) against anonymous ones, and of the anonymous ones glibc's
 * main heap (`[heap]`, the brk area), glibc's per-thread arena heaps (64 MB-aligned anonymous
 * reservations, each a read-write part followed by a reserved `---p` rest) and everything else
 * anonymous (V8's heaps, large mmap'ed blocks, thread stacks).
 */
export interface MemBreakdown {
  readonly rssMb: number
  readonly anonMb: number
  readonly fileMb: number
  readonly brkHeapMb: number
  /** glibc arena heaps (not the main arena): how many, and their resident MB. */
  readonly arenaHeaps: number
  readonly arenaMb: number
  readonly otherAnonMb: number
}

/** glibc's HEAP_MAX_SIZE on 64-bit: each non-main arena heap is a 64 MB-aligned 64 MB reservation. */
const ARENA_HEAP = 64 * 1024 * 1024

interface Mapping {
  start: bigint
  end: bigint
  perms: string
  path: string
  rssKb: number
  anonKb: number
}

function mappings(pid: number): Mapping[] {
  const out: Mapping[] = []
  let current: Mapping | undefined
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      current = {
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3] as string,
        path: head[4] ?? '',
        rssKb: 0,
        anonKb: 0,
      }
      out.push(current)
      continue
    }
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line)
    if (field && current) {
      if (field[1] === 'Rss') current.rssKb = Number(field[2])
      else current.anonKb = Number(field[2])
    }
  }
  return out
}

/** The {@link MemBreakdown} of process `pid` now. */
export function memBreakdown(pid: number): MemBreakdown {
  const maps = mappings(pid)
  let rss = 0
  let anon = 0
  let brk = 0
  let arena = 0
  let arenaHeaps = 0
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i] as Mapping
    rss += m.rssKb
    anon += m.anonKb
    if (m.path === '[heap]') brk += m.rssKb
    // An arena heap: anonymous, 64 MB-aligned, read-write, with the rest of its 64 MB reserved
    // right after it (or all 64 MB read-write).
    if (m.path === '' && m.perms.startsWith('rw') && m.start % BigInt(ARENA_HEAP) === 0n) {
      const next = maps[i + 1]
      const size =
        next && next.start === m.end && next.perms.startsWith('---') && next.path === ''
          ? next.end - m.start
          : m.end - m.start
      if (size === BigInt(ARENA_HEAP)) {
        arenaHeaps++
        arena += m.rssKb
      }
    }
  }
  const mb = (kb: number) => Math.round(kb / 102.4) / 10
  return {
    rssMb: mb(rss),
    anonMb: mb(anon),
    fileMb: mb(rss - anon),
    brkHeapMb: mb(brk),
    arenaHeaps,
    arenaMb: mb(arena),
    otherAnonMb: mb(anon - brk - arena),
  }
}
