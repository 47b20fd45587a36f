import { UnavailableError } from '@catalog/core'
import type Database from 'better-sqlite3'
import { extraOf, observedOf, runIdsOf, runOf, STORE_DDL, STORE_SCHEMA_VERSION } from './schema.js'

/** Above this many aspect rows, building a new index at an open is worth a note (~2 s). */
const INDEX_NOTE_ROWS = 1_000_000

/**
 * Brings the store's file to the current layout ({@link STORE_DDL}, version
 * {@link STORE_SCHEMA_VERSION} in `PRAGMA user_version`), in one immediate transaction, so two
 * processes opening the same older file migrate it once and a crash mid-way leaves the older file
 * as it was, to be migrated at the next open. A new file gets the DDL. An older file is rewritten:
 * - layout 1 (`metadata_aspect_v2` and `edges` as tables with URN text in every row and index):
 *   every URN into `urns` (in URN order), aspect rows and edges by URN id;
 * - layout 2 (system metadata as JSON text and `createdby` as text in every row, the run index on
 *   the JSON's `runId`): system metadata into its columns and dictionaries (see `STORE_DDL`).
 * Then the old tables are dropped and the file is compacted (`VACUUM`), which returns their pages
 * to the file system (a one-time cost at the first open: about 11 s for 700,000 aspect rows). A
 * file of a newer layout is refused. `onMigrate` hears, before a migration starts, what it will take.
 */
export function openStoreSchema(db: Database.Database, onMigrate?: (note: string) => void): void {
  let migrated = false
  const open = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > STORE_SCHEMA_VERSION) {
      throw new UnavailableError(
        `the metadata store file has layout version ${version}; this version of the catalog reads up to ${STORE_SCHEMA_VERSION}`,
      )
    }
    const v1 = version < STORE_SCHEMA_VERSION && isTable(db, 'metadata_aspect_v2')
    const v2 = !v1 && version < STORE_SCHEMA_VERSION && isTable(db, 'aspect_rows')
    if (v1 || v2) {
      const table = v1 ? 'metadata_aspect_v2' : 'aspect_rows'
      const rows = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
      onMigrate?.(
        `migrating the metadata store to layout ${STORE_SCHEMA_VERSION} (each URN, run id and actor stored once): ${rows} aspect rows, about ${Math.max(1, Math.ceil(rows / 60_000))} s; the catalog answers once it is done`,
      )
      if (v1) migrateFromV1(db)
      else
        db.exec(
          'DROP VIEW metadata_aspect_v2; DROP INDEX aspect_rows_by_run; ALTER TABLE aspect_rows RENAME TO legacy_aspect_rows;',
        )
      copyAspectRows(db)
      migrated = true
    }
    // A file of this layout from a build before the soft-deleted index: STORE_DDL builds it now.
    if (!migrated && version === STORE_SCHEMA_VERSION && !isIndex(db, 'aspect_rows_removed')) {
      const rows = (db.prepare('SELECT COUNT(*) AS n FROM aspect_rows').get() as { n: number }).n
      if (rows > INDEX_NOTE_ROWS)
        onMigrate?.(
          `indexing the soft-deleted entities of the metadata store once: ${rows} aspect rows, about ${Math.ceil(rows / 500_000)} s; the catalog answers once it is done`,
        )
    }
    db.exec(STORE_DDL)
    if (version !== STORE_SCHEMA_VERSION) db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`)
  })
  open.immediate()
  if (migrated) compact(db, onMigrate)
}

/**
 * `VACUUM` after a migration: the migrated file is complete without it, so a compaction that
 * cannot run (too little free disk for the copy, another process reading the file) is reported
 * and skipped; the file keeps its free pages and reuses them for new rows.
 */
function compact(db: Database.Database, onMigrate?: (note: string) => void): void {
  try {
    db.exec('VACUUM')
  } catch (err) {
    onMigrate?.(
      `the migrated metadata store was not compacted (${(err as Error).message}); it works as it is`,
    )
  }
}

/**
 * `legacy_aspect_rows` (layout 2's aspect rows: system metadata and actor as text) into
 * `aspect_rows`, in key order; the run index is built once, after the copy.
 */
function copyAspectRows(db: Database.Database): void {
  db.exec(STORE_DDL)
  db.exec('DROP INDEX aspect_rows_by_run')
  const sm = 'l.systemmetadata'
  db.exec(`
    INSERT OR IGNORE INTO actors (actor) SELECT DISTINCT createdby FROM legacy_aspect_rows;
    INSERT OR IGNORE INTO run_ids (run) SELECT DISTINCT j.value FROM legacy_aspect_rows l, ${runIdsOf(sm)};
    INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
      SELECT l.eid, l.aspect, l.version, l.metadata, l.createdon, (SELECT id FROM actors WHERE actor = l.createdby),
        ${observedOf(sm)}, ${runOf(sm, 'runId')}, ${runOf(sm, 'lastRunId')}, ${extraOf(sm)}
      FROM legacy_aspect_rows l ORDER BY l.eid, l.aspect, l.version;
    DROP TABLE legacy_aspect_rows;
  `)
}

function isTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
}

function isIndex(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined
}

/** Layout 1 → 2: URN text in rows and indexes becomes URN ids (aspect rows into `legacy_aspect_rows`, for {@link copyAspectRows}). */
function migrateFromV1(db: Database.Database): void {
  db.exec(`
    DROP INDEX IF EXISTS metadata_aspect_by_run;
    DROP INDEX IF EXISTS edges_incoming;
    DROP INDEX IF EXISTS edges_by_aspect;
    DROP INDEX IF EXISTS edges_scroll;
    ALTER TABLE metadata_aspect_v2 RENAME TO legacy_aspects;
  `)
  const edges = isTable(db, 'edges')
  if (edges) db.exec('ALTER TABLE edges RENAME TO legacy_edges')
  db.exec(STORE_DDL)
  // Secondary indexes are built once, after the copy (the final STORE_DDL creates them).
  db.exec('DROP INDEX edge_rows_incoming;')
  db.exec(`
    INSERT OR IGNORE INTO urns (urn) SELECT DISTINCT urn FROM legacy_aspects ORDER BY urn;
    CREATE TABLE legacy_aspect_rows AS
      SELECT u.id AS eid, l.aspect, l.version, l.metadata, l.systemmetadata, l.createdon, l.createdby
      FROM legacy_aspects l JOIN urns u ON u.urn = l.urn;
    DROP TABLE legacy_aspects;
  `)
  if (!edges) return
  db.exec(`
    INSERT OR IGNORE INTO urns (urn)
      SELECT urn FROM (SELECT source AS urn FROM legacy_edges UNION SELECT destination FROM legacy_edges) ORDER BY urn;
    INSERT OR IGNORE INTO edge_rows (src, type, dst, aspect)
      SELECT s.id, l.type, d.id, l.aspect
      FROM legacy_edges l JOIN urns s ON s.urn = l.source JOIN urns d ON d.urn = l.destination;
    DROP TABLE legacy_edges;
  `)
}
