import type Database from 'better-sqlite3'

/** The latest value and run (`run_ids` id) of an aspect, as the writer reads them. */
export interface LatestRow {
  metadata: string
  run: number | null
}

/** The columns of `change_log` a write sets, in the order its rows' parameters are queued. */
export const LOG_COLUMNS =
  'urn entity_type aspect change value entity_deleted created_on created_by system_metadata'.split(' ')
/** The columns of `aspect_rows`, in the order a fresh row's parameters are queued. */
export const ASPECT_COLUMNS =
  'eid aspect version metadata createdon createdby observed run lastrun sysextra'.split(' ')

/**
 * The write statements, on the tables (`aspect_rows` and `edge_rows` by URN id, see `STORE_DDL`).
 * Every statement on `edge_rows` reads a prefix of its key or of `edge_rows_incoming`.
 */
export function prepareWrites(db: Database.Database) {
  return {
    exists: db.prepare('SELECT 1 FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0'),
    latestOne: db.prepare(
      'SELECT metadata, run FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0',
    ),
    restored: db.prepare(
      'SELECT metadata, observed, run, lastrun, sysextra FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0',
    ),
    maxVersion: db.prepare(
      'SELECT COALESCE(MAX(version), 0) AS v FROM aspect_rows WHERE eid = ? AND aspect = ?',
    ),
    insert: db.prepare(
      `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    archive: db.prepare(
      `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       SELECT eid, aspect, ?, metadata, createdon, createdby, observed, run, lastrun, sysextra
       FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0`,
    ),
    updateLatest: db.prepare(
      `UPDATE aspect_rows SET metadata = ?, createdon = ?, createdby = ?, observed = ?, run = ?, lastrun = ?, sysextra = ?
       WHERE eid = ? AND aspect = ? AND version = 0`,
    ),
    touch: db.prepare(
      'UPDATE aspect_rows SET observed = ?, run = ?, lastrun = ?, sysextra = ? WHERE eid = ? AND aspect = ? AND version = 0',
    ),
    deleteAspect: db.prepare('DELETE FROM aspect_rows WHERE eid = ? AND aspect = ?'),
    deleteEntity: db.prepare('DELETE FROM aspect_rows WHERE eid = ?'),
    deleteEntityTimeseries: db.prepare('DELETE FROM timeseries WHERE urn = ?'),
    deleteEdgesOf: db.prepare('DELETE FROM edge_rows WHERE src = ? AND aspect = ?'),
    deleteOutgoing: db.prepare('DELETE FROM edge_rows WHERE src = ?'),
    deleteIncoming: db.prepare('DELETE FROM edge_rows WHERE dst = ?'),
    deleteVersion: db.prepare('DELETE FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = ?'),
    promote: db.prepare('UPDATE aspect_rows SET version = 0 WHERE eid = ? AND aspect = ? AND version = ?'),
    insertEdge: db.prepare('INSERT OR IGNORE INTO edge_rows (src, type, dst, aspect) VALUES (?, ?, ?, ?)'),
    log: db.prepare(
      `INSERT INTO change_log (urn, entity_type, aspect, change, value, entity_deleted, created_on, created_by, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    head: db.prepare('SELECT MAX(seq) AS seq FROM change_log'),
    upsertTimeseries: db.prepare(
      `INSERT OR REPLACE INTO timeseries (entity_type, aspect, urn, timestamp_millis, partition_key, message_id, value, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    /** A bucketed value keyed as before its granularity was part of the key (replaced by its rewrite). */
    deleteLegacyTimeseries: db.prepare(
      `DELETE FROM timeseries WHERE entity_type = ? AND aspect = ? AND urn = ? AND timestamp_millis = ?
         AND partition_key = ? AND message_id = ? AND json_extract(value, '$.eventGranularity.unit') = ?
         AND coalesce(json_extract(value, '$.eventGranularity.multiple'), 1) = ?`,
    ),
  }
}
