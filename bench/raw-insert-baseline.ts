/**
 * The batch-ingest baseline: raw better-sqlite3 inserts of the rows a real ingest must write,
 * one transaction per call of the benchmark's batch size, WAL + synchronous FULL (an fsync
 * per commit, as the catalog's durability `full` gives). The rows are derived from DataHub's
 * model as the catalog's ingest derives them, not read from the catalog's own tables, so the
 * baseline does not move when the store's layout does.
 */
import { canonicalJson, NO_RUN_ID, Registry, ROOT_ACTOR } from '@catalog/core'
import Database from 'better-sqlite3'

/** The parts of an `ingestProposal` the baseline needs. */
export interface ProposalRow {
  readonly entityUrn: string
  readonly aspectName: string
  readonly aspect: { readonly value: string }
}

/** The rows of one call, as statement parameters. */
interface CallRows {
  readonly aspects: unknown[][]
  readonly log: unknown[][]
  readonly edges: unknown[][]
}

/**
 * What a call's proposals for new entities write: each aspect as validated, the entity's
 * default aspects (key, browsePaths, browsePathsV2, dataPlatformInstance), one change-log entry
 * per aspect row (the durable log search is kept in step from), and the relationship edges of
 * every aspect. `proposalsOnly` keeps just each proposal's own aspect row (the narrow baseline).
 */
export class IngestRows {
  private readonly registry = new Registry()

  constructor(private readonly proposalsOnly = false) {}

  /** The rows of one call of `proposals`, stamped at `time`. */
  of(proposals: readonly ProposalRow[], time: number): CallRows {
    const rows: CallRows = { aspects: [], log: [], edges: [] }
    const systemMetadata = JSON.stringify({ lastObserved: time, runId: NO_RUN_ID, lastRunId: NO_RUN_ID })
    for (const p of proposals) {
      const ref = this.registry.resolveUrn(p.entityUrn)
      const spec = this.registry.aspect(ref.entity, p.aspectName)
      const sent = {
        aspect: spec.name,
        value: this.registry.validateAspect(spec, JSON.parse(p.aspect.value)),
      }
      const written = this.proposalsOnly
        ? [sent]
        : [...this.registry.defaultAspects(ref).filter((d) => d.aspect !== spec.name), sent]
      for (const { aspect, value } of written) {
        const json = canonicalJson(value)
        rows.aspects.push([ref.urn, aspect, json, systemMetadata, time, ROOT_ACTOR])
        if (this.proposalsOnly) continue
        rows.log.push([ref.urn, ref.entity.name, aspect, json, time, ROOT_ACTOR, systemMetadata])
        for (const e of this.registry.edges(ref.entity, aspect, value))
          rows.edges.push([ref.urn, e.type, e.destination, aspect])
      }
    }
    return rows
  }
}

/** What the raw inserts achieved: proposals per second of insert time, and CPU per proposal. */
export interface RawRate {
  readonly perSec: number
  /** CPU time (user + system) of the inserting thread per proposal, in µs. */
  readonly cpuUs: number
}

/**
 * Inserts `calls` calls of rows (built by `rowsOf(i)`, not timed) into a new database at `file`,
 * one transaction per call, one after the other.
 */
export function rawInsertRate(
  file: string,
  calls: number,
  perCall: number,
  rowsOf: (call: number) => CallRows,
): RawRate {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  // DataHub's aspect table, the change log and the edges, each with its primary key only.
  db.exec(`CREATE TABLE metadata_aspect_v2 (urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL,
      metadata TEXT NOT NULL, systemmetadata TEXT, createdon INTEGER NOT NULL, createdby TEXT NOT NULL,
      PRIMARY KEY (urn, aspect, version)) WITHOUT ROWID;
    CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, urn TEXT NOT NULL, entity_type TEXT NOT NULL,
      aspect TEXT NOT NULL, change TEXT NOT NULL, value TEXT, entity_deleted INTEGER NOT NULL DEFAULT 0,
      created_on INTEGER NOT NULL, created_by TEXT NOT NULL, system_metadata TEXT);
    CREATE TABLE edges (source TEXT NOT NULL, type TEXT NOT NULL, destination TEXT NOT NULL, aspect TEXT NOT NULL,
      PRIMARY KEY (source, type, destination, aspect)) WITHOUT ROWID;`)
  const insert = db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, 0, ?, ?, ?, ?)')
  const log = db.prepare(
    `INSERT INTO change_log (urn, entity_type, aspect, change, value, entity_deleted, created_on, created_by, system_metadata)
     VALUES (?, ?, ?, 'UPSERT', ?, 0, ?, ?, ?)`,
  )
  const edge = db.prepare('INSERT INTO edges VALUES (?, ?, ?, ?)')
  const tx = db.transaction((rows: CallRows) => {
    for (const r of rows.aspects) insert.run(r)
    for (const r of rows.log) log.run(r)
    for (const r of rows.edges) edge.run(r)
  })
  let ns = 0n
  let cpuUs = 0
  for (let call = 0; call < calls; call++) {
    const rows = rowsOf(call)
    const start = process.hrtime.bigint()
    const cpu = process.cpuUsage()
    tx(rows)
    const used = process.cpuUsage(cpu)
    ns += process.hrtime.bigint() - start
    cpuUs += used.user + used.system
  }
  db.close()
  return { perSec: (calls * perCall) / (Number(ns) / 1e9), cpuUs: cpuUs / (calls * perCall) }
}
