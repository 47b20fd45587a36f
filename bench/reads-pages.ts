/**
 * `node --import tsx bench/reads-pages.ts <metadata.db>`: what one cold read of the scale
 * benchmark costs inside the store, without HTTP: the statements of `entitiesV2` and
 * `/relationships` (`sqlite-latest-json.ts`, `sqlite-relationships.ts`) on the datasets the
 * benchmark picks, in this process, on a connection set up as the server's (16 MB page cache).
 * Prints per read: CPU (user and system), wall time, page faults, read calls (the store's
 * preads: one per page its cache lacks), bytes read from the disk (/proc/self/io), rows.
 *
 * Each pass opens a new connection (its page cache empty), reads BENCH_PAGES_WARM (default
 * 1,000) other datasets untimed (the B-trees' upper pages then cached, as in a server that has
 * been answering), then times BENCH_PAGES_N (default 2,000) from BENCH_PAGES_FROM on; the
 * BENCH_PAGES_PASSES passes read the same datasets (from the second on, the OS holds their pages).
 * Settings: BENCH_PAGES_OS=cold drops the file from the OS cache before the first pass
 * (`dd iflag=nocache`); BENCH_PAGES_MMAP=<bytes> sets `mmap_size`; BENCH_PAGES_CACHE_KB the page
 * cache; BENCH_PAGES_RW=1 opens read-write in WAL mode (as the server; nothing is written);
 * BENCH_PAGES_GAP_US idles that long between reads (as a server waits between requests: the CPU's
 * caches go cold); BENCH_PAGES_LAYOUT=clustered reads `aspect_rows_c`, a WITHOUT ROWID copy of
 * `aspect_rows` built by hand in a copy of the file; BENCH_PAGES_EDGES=text reads the edges from
 * `edge_rows_t` (another hand-built copy: each edge with both ends' URN text, and an index
 * `edge_rows_t_incoming (dst, type, src, src_urn)`) without joining `urns`; BENCH_PAGES_KINDS picks
 * `entity,outgoing,incoming`.
 *
 * What it showed (2026-11-27, 1M datasets, 4 KB pages, load average 3.5-5): a cold `entitiesV2`
 * read makes 5.1-5.3 preads (leaves of `urns_by_urn`, of the primary key index and of the
 * `aspect_rows` table, and ~2 upper pages the leaves pushed out of the 16 MB cache; `outgoing`
 * 5.6, `incoming` 5.2: URN index, edge leaf, one `urns` leaf per neighbour). Where the OS holds
 * the pages, ~30-35 µs of CPU per read (~55-80 µs with idle gaps between reads); where it does
 * not, ~175-260 µs (~26 KB from the disk per read: the kernel reads ahead around each page).
 * A 32/64 MB cache: 4.7/3.7 preads, the same CPU. `mmap_size` 8 GB: no less CPU, +345 MB
 * resident (file pages) after 3,000 reads. `aspect_rows` WITHOUT ROWID: 12.9 preads, the file
 * 3 → 5.8 GB (rows over ~1 KB spill to overflow pages); with 16 KB pages it and the rowid
 * table both make 4.1-5.1 preads, ~135 µs cold (-24 %), ~40 µs warm (+15 %).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { fmt } from './lib.js'
import { pick } from './lineage-scale.js'

const file = process.argv[2]
if (!file) throw new Error('usage: node --import tsx bench/reads-pages.ts <metadata.db>')
const env = process.env
const N = Number(env.BENCH_PAGES_N ?? 2000)
const FROM = Number(env.BENCH_PAGES_FROM ?? 0)
const PASSES = Number(env.BENCH_PAGES_PASSES ?? 2)
const WARM = Number(env.BENCH_PAGES_WARM ?? 1000)
const MMAP = Number(env.BENCH_PAGES_MMAP ?? 0)
const CACHE_KB = Number(env.BENCH_PAGES_CACHE_KB ?? 16000)
const RW = env.BENCH_PAGES_RW === '1'
const OS_COLD = env.BENCH_PAGES_OS === 'cold'
const GAP_US = Number(env.BENCH_PAGES_GAP_US ?? 0)
const TABLE = env.BENCH_PAGES_LAYOUT === 'clustered' ? 'aspect_rows_c' : 'aspect_rows'
const EDGE_TEXT = env.BENCH_PAGES_EDGES === 'text'
const KINDS = (env.BENCH_PAGES_KINDS ?? 'entity,outgoing,incoming').split(',')
const ENTITIES = Number(env.BENCH_ENTITIES ?? 1_000_000)
const gap = new Int32Array(new SharedArrayBuffer(4))

const COLUMNS = 'a.aspect, a.metadata, a.createdon, a.createdby, a.observed, a.run, a.lastrun, a.sysextra'
const SQL: Record<string, string> = {
  entity: `SELECT ${COLUMNS} FROM urns u CROSS JOIN ${TABLE} a ON a.eid = u.id
    WHERE u.urn = ? AND a.version = 0 ORDER BY a.aspect`,
  outgoing: EDGE_TEXT
    ? `SELECT e.type AS type, e.dst_urn AS entity FROM urns n CROSS JOIN edge_rows_t e ON e.src = n.id
      WHERE n.urn = ? AND e.type IN (?) LIMIT 501`
    : `SELECT e.type AS type, f.urn AS entity FROM urns n CROSS JOIN edge_rows e ON e.src = n.id
      CROSS JOIN urns f ON f.id = e.dst WHERE n.urn = ? AND e.type IN (?) LIMIT 501`,
  incoming: EDGE_TEXT
    ? `SELECT e.type AS type, e.src_urn AS entity FROM urns n
      CROSS JOIN edge_rows_t e INDEXED BY edge_rows_t_incoming ON e.dst = n.id
      WHERE n.urn = ? AND e.type IN (?) LIMIT 501`
    : `SELECT e.type AS type, f.urn AS entity FROM urns n CROSS JOIN edge_rows e ON e.dst = n.id
      CROSS JOIN urns f ON f.id = e.src WHERE n.urn = ? AND e.type IN (?) LIMIT 501`,
}

/** This process's page faults, read calls and bytes read from the disk so far. */
function counters(): { min: number; maj: number; reads: number; disk: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const io = readFileSync('/proc/self/io', 'utf8')
  const of = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(io)?.[1] ?? 0)
  return { min: Number(f[7]), maj: Number(f[9]), reads: of('syscr'), disk: of('read_bytes') }
}

/** Resident MB of this process, and of it the mapped file pages. */
function resident(): string {
  const status = readFileSync('/proc/self/status', 'utf8')
  const mb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
  return `RSS ${fmt(mb('VmRSS'))} MB (file pages ${fmt(mb('RssFile'))} MB)`
}

for (let pass = 1; pass <= PASSES; pass++) {
  // As when the machine's other work has evicted the file: the OS holds none of it.
  if (OS_COLD && pass === 1)
    execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' })
  const db = new Database(file, { readonly: !RW, fileMustExist: true })
  if (RW) db.pragma('journal_mode = WAL')
  db.pragma(`cache_size = -${CACHE_KB}`)
  if (MMAP > 0) db.pragma(`mmap_size = ${MMAP}`)
  for (const kind of KINDS) {
    const stmt = db.prepare(SQL[kind] as string).raw()
    const args = (i: number) =>
      kind === 'entity' ? [pick(ENTITIES, FROM + i)] : [pick(ENTITIES, FROM + i), 'DownstreamOf']
    for (let i = N; i < N + WARM; i++) stmt.all(...args(i))
    let rows = 0
    const before = counters()
    const cpu = process.cpuUsage()
    const started = performance.now()
    for (let i = 0; i < N; i++) {
      rows += stmt.all(...args(i)).length
      if (GAP_US > 0) Atomics.wait(gap, 0, 0, GAP_US / 1000)
    }
    const wall = performance.now() - started
    const used = process.cpuUsage(cpu)
    const after = counters()
    const per = (n: number, digits = 1) => fmt(n / N, digits)
    process.stdout.write(
      `pass ${pass} ${kind} (${kind === 'entity' ? TABLE : EDGE_TEXT ? 'edge_rows_t' : 'edge_rows'}${MMAP ? `, mmap ${MMAP}` : ''}): user ${per(used.user)} µs, ` +
        `sys ${per(used.system)} µs, wall ${per(wall * 1000)} µs, minflt ${per(after.min - before.min, 2)}, ` +
        `majflt ${per(after.maj - before.maj, 2)}, preads ${per(after.reads - before.reads, 2)}, ` +
        `disk ${per((after.disk - before.disk) / 1024)} KB, rows ${per(rows, 2)} per read\n`,
    )
  }
  process.stdout.write(`pass ${pass}: ${resident()}\n`)
  db.close()
}
