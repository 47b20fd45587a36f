/** The layout version {@link STORE_DDL} builds, kept in the file as `PRAGMA user_version`. */
export const STORE_SCHEMA_VERSION = 3

/** The system metadata JSON of `aspect_rows a` (see {@link SystemMetadataCodec.json}), for the view. */
const SYSTEM_METADATA_JSON = `CASE WHEN a.observed IS NULL AND a.run IS NULL AND a.lastrun IS NULL THEN a.sysextra
    ELSE '{' || concat_ws(',', '"lastObserved":' || a.observed,
      CASE WHEN a.run IS NOT NULL THEN '"runId":' || json_quote((SELECT run FROM run_ids WHERE id = a.run)) END,
      CASE WHEN a.lastrun IS NOT NULL THEN '"lastRunId":' || json_quote((SELECT run FROM run_ids WHERE id = a.lastrun)) END,
      NULLIF(substr(a.sysextra, 2, length(a.sysextra) - 2), '')) || '}' END`

/** The SQL text `sm` when it is a JSON object, else NULL. */
const objectOf = (sm: string) =>
  `(CASE WHEN json_valid(${sm}) THEN CASE WHEN json_type(${sm}) = 'object' THEN ${sm} END END)`
/** The value at `key` of `sm` when it is an object and the value has the JSON type `type`. */
const typedValueOf = (sm: string, key: string, type: string) =>
  `(CASE WHEN json_type(${objectOf(sm)}, '$.${key}') = '${type}' THEN json_extract(${sm}, '$.${key}') END)`
/** The run id text at `key` of `sm` (`runId` or `lastRunId`), if it is text. */
const runValueOf = (sm: string, key: 'runId' | 'lastRunId') => typedValueOf(sm, key, 'text')
/** The `observed` column of system metadata text `sm`. */
export const observedOf = (sm: string) => typedValueOf(sm, 'lastObserved', 'integer')
/** The `run` (key `runId`) or `lastrun` (`lastRunId`) column of `sm`, once `run_ids` has it. */
export const runOf = (sm: string, key: 'runId' | 'lastRunId') =>
  `(SELECT id FROM run_ids WHERE run = ${runValueOf(sm, key)})`
/** The `sysextra` column of `sm`: the other keys, or the whole text when none of the three fits its column. */
export const extraOf = (sm: string) => `CASE
    WHEN ${observedOf(sm)} IS NULL AND ${runOf(sm, 'runId')} IS NULL AND ${runOf(sm, 'lastRunId')} IS NULL THEN ${sm}
    ELSE NULLIF(json_remove(${sm},
      CASE WHEN ${observedOf(sm)} IS NULL THEN '$[0]' ELSE '$.lastObserved' END,
      CASE WHEN ${runOf(sm, 'runId')} IS NULL THEN '$[0]' ELSE '$.runId' END,
      CASE WHEN ${runOf(sm, 'lastRunId')} IS NULL THEN '$[0]' ELSE '$.lastRunId' END), '{}') END`
/** The run ids of system metadata text `sm` (`json_each` rows `j`), to add to `run_ids` first. */
export const runIdsOf = (sm: string) =>
  `json_each(${objectOf(sm)}) j WHERE j.key IN ('runId', 'lastRunId') AND j.type = 'text'`
const SM = 'NEW.systemmetadata'
/**
 * The view's writes store the text in `sysextra` with the three columns, then this: the other
 * keys (each JSON function runs once per row, not once per column and again for `sysextra`).
 */
const EXTRA_FROM_COLUMNS = `CASE WHEN observed IS NULL AND run IS NULL AND lastrun IS NULL THEN sysextra
    ELSE NULLIF(json_remove(sysextra, IIF(observed IS NULL, '$[0]', '$.lastObserved'),
      IIF(run IS NULL, '$[0]', '$.runId'), IIF(lastrun IS NULL, '$[0]', '$.lastRunId')), '{}') END`
/** The dictionary rows a view write needs first. */
const NEW_NAMES = `INSERT OR IGNORE INTO urns (urn) VALUES (NEW.urn);
  INSERT OR IGNORE INTO actors (actor) VALUES (NEW.createdby);
  INSERT OR IGNORE INTO run_ids (run) SELECT run FROM (SELECT ${runValueOf(SM, 'runId')} AS run
    UNION ALL SELECT ${runValueOf(SM, 'lastRunId')}) WHERE run IS NOT NULL;`

/** `metadata` of a row says `removed: true` (text that is not JSON says nothing: never an error). */
const REMOVED_IN = (metadata: string) =>
  `CASE WHEN json_valid(${metadata}) THEN json_extract(${metadata}, '$.removed') END = 1`

/**
 * True when the entity of URN id `eid` (an SQL expression) is soft-deleted: its latest `status`
 * says `removed: true`. Read from `aspect_rows_removed`, the partial index of just those entities:
 * a few pages that stay cached, where a look at each entity's own `status` row read two or three
 * pages of a large store from disk (a lineage walk makes one per entity it reaches). The terms
 * repeat the index's own, as SQLite needs to use a partial index.
 */
export const softDeleted = (eid: string, alias: string) =>
  `EXISTS (SELECT 1 FROM aspect_rows ${alias} INDEXED BY aspect_rows_removed
    WHERE ${alias}.eid = ${eid} AND ${alias}.aspect = 'status' AND ${alias}.version = 0
      AND ${REMOVED_IN(`${alias}.metadata`)})`

/**
 * DDL of the embedded store; idempotent, run at every open (after {@link openStoreSchema}
 * migrated an older file).
 *
 * Every URN is stored once, in `urns`; aspect rows and edges refer to it by its integer id, which
 * takes a fraction of the space of the text in every row and index entry. Likewise run ids
 * (`run_ids`, the reserved `no-run-id-provided` as id 0) and the actors of `createdby` (`actors`):
 * an aspect row keeps its system metadata as `observed` (`lastObserved`), `run` and `lastrun`
 * (`runId`, `lastRunId`) and `sysextra` (the other keys, as JSON; see `SystemColumns`), 10 bytes
 * where the JSON took 85. The views `metadata_aspect_v2` (DataHub's table, column for column, the
 * system metadata and actor as text) and `edges` show the rows with their URNs and accept INSERT,
 * UPDATE and DELETE, for operators and tools; the store itself reads and writes the tables. Ids
 * are never reused: ids of deleted entities stay in `urns`.
 */
export const STORE_DDL = `
CREATE TABLE IF NOT EXISTS urns (
  id INTEGER PRIMARY KEY,
  urn TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS urns_by_urn ON urns (urn);

CREATE TABLE IF NOT EXISTS run_ids (
  id INTEGER PRIMARY KEY,
  run TEXT NOT NULL UNIQUE
);
INSERT OR IGNORE INTO run_ids (id, run) VALUES (0, 'no-run-id-provided');
CREATE TABLE IF NOT EXISTS actors (
  id INTEGER PRIMARY KEY,
  actor TEXT NOT NULL UNIQUE
);

-- A table with row ids: a row keeps up to ~4 KB on its b-tree page. Keyed by the primary key
-- alone (WITHOUT ROWID), a row over ~1 KB (a schema of a dozen columns) spilled into an
-- overflow page of its own: 4.6 KB on disk for a 1.4 KB row, 2.1 KB now.
CREATE TABLE IF NOT EXISTS aspect_rows (
  eid INTEGER NOT NULL,
  aspect TEXT NOT NULL,
  version INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  createdon INTEGER NOT NULL,
  createdby INTEGER NOT NULL,
  observed INTEGER,
  run INTEGER,
  lastrun INTEGER,
  sysextra TEXT,
  PRIMARY KEY (eid, aspect, version)
);
-- Runs of latest rows; the reserved default run (0) is never looked up by the index: DataHub
-- refuses to roll it back and never lists it.
CREATE INDEX IF NOT EXISTS aspect_rows_by_run ON aspect_rows (run) WHERE version = 0 AND run > 0;
-- The soft-deleted entities (see softDeleted): few, so a small index.
CREATE INDEX IF NOT EXISTS aspect_rows_removed ON aspect_rows (eid)
  WHERE aspect = 'status' AND version = 0 AND ${REMOVED_IN('metadata')};

-- Keyed in the order outgoing reads use (source, type, destination); the one index serves
-- incoming reads. Deletes by (source, aspect) read the source's edges from the key.
CREATE TABLE IF NOT EXISTS edge_rows (
  src INTEGER NOT NULL,
  type TEXT NOT NULL,
  dst INTEGER NOT NULL,
  aspect TEXT NOT NULL,
  PRIMARY KEY (src, type, dst, aspect)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edge_rows_incoming ON edge_rows (dst, type, src);

CREATE VIEW IF NOT EXISTS metadata_aspect_v2 AS
  SELECT u.urn AS urn, a.aspect AS aspect, a.version AS version, a.metadata AS metadata,
    ${SYSTEM_METADATA_JSON} AS systemmetadata,
    a.createdon AS createdon, (SELECT actor FROM actors WHERE id = a.createdby) AS createdby
  FROM aspect_rows a JOIN urns u ON u.id = a.eid;
CREATE TRIGGER IF NOT EXISTS metadata_aspect_v2_insert INSTEAD OF INSERT ON metadata_aspect_v2 BEGIN
  ${NEW_NAMES}
  INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
    VALUES ((SELECT id FROM urns WHERE urn = NEW.urn), NEW.aspect, NEW.version, NEW.metadata, NEW.createdon,
      (SELECT id FROM actors WHERE actor = NEW.createdby), ${observedOf(SM)}, ${runOf(SM, 'runId')},
      ${runOf(SM, 'lastRunId')}, ${SM});
  UPDATE aspect_rows SET sysextra = ${EXTRA_FROM_COLUMNS} WHERE rowid = last_insert_rowid()
    AND (observed IS NOT NULL OR run IS NOT NULL OR lastrun IS NOT NULL);
END;
CREATE TRIGGER IF NOT EXISTS metadata_aspect_v2_update INSTEAD OF UPDATE ON metadata_aspect_v2 BEGIN
  ${NEW_NAMES}
  UPDATE aspect_rows SET eid = (SELECT id FROM urns WHERE urn = NEW.urn), aspect = NEW.aspect,
    version = NEW.version, metadata = NEW.metadata, createdon = NEW.createdon,
    createdby = (SELECT id FROM actors WHERE actor = NEW.createdby), observed = ${observedOf(SM)},
    run = ${runOf(SM, 'runId')}, lastrun = ${runOf(SM, 'lastRunId')}, sysextra = ${SM}
  WHERE eid = (SELECT id FROM urns WHERE urn = OLD.urn) AND aspect = OLD.aspect AND version = OLD.version;
  UPDATE aspect_rows SET sysextra = ${EXTRA_FROM_COLUMNS}
  WHERE eid = (SELECT id FROM urns WHERE urn = NEW.urn) AND aspect = NEW.aspect AND version = NEW.version
    AND (observed IS NOT NULL OR run IS NOT NULL OR lastrun IS NOT NULL);
END;
CREATE TRIGGER IF NOT EXISTS metadata_aspect_v2_delete INSTEAD OF DELETE ON metadata_aspect_v2 BEGIN
  DELETE FROM aspect_rows
  WHERE eid = (SELECT id FROM urns WHERE urn = OLD.urn) AND aspect = OLD.aspect AND version = OLD.version;
END;

CREATE VIEW IF NOT EXISTS edges AS
  SELECT s.urn AS source, e.type AS type, d.urn AS destination, e.aspect AS aspect
  FROM edge_rows e JOIN urns s ON s.id = e.src JOIN urns d ON d.id = e.dst;
CREATE TRIGGER IF NOT EXISTS edges_insert INSTEAD OF INSERT ON edges BEGIN
  INSERT OR IGNORE INTO urns (urn) VALUES (NEW.source);
  INSERT OR IGNORE INTO urns (urn) VALUES (NEW.destination);
  INSERT INTO edge_rows (src, type, dst, aspect) VALUES ((SELECT id FROM urns WHERE urn = NEW.source),
    NEW.type, (SELECT id FROM urns WHERE urn = NEW.destination), NEW.aspect);
END;
CREATE TRIGGER IF NOT EXISTS edges_delete INSTEAD OF DELETE ON edges BEGIN
  DELETE FROM edge_rows WHERE src = (SELECT id FROM urns WHERE urn = OLD.source) AND type = OLD.type
    AND dst = (SELECT id FROM urns WHERE urn = OLD.destination) AND aspect = OLD.aspect;
END;

CREATE TABLE IF NOT EXISTS change_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  urn TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  aspect TEXT NOT NULL,
  change TEXT NOT NULL,
  value TEXT,
  entity_deleted INTEGER NOT NULL DEFAULT 0,
  created_on INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  system_metadata TEXT
);

CREATE TABLE IF NOT EXISTS timeseries (
  entity_type TEXT NOT NULL,
  aspect TEXT NOT NULL,
  urn TEXT NOT NULL,
  timestamp_millis INTEGER NOT NULL,
  partition_key TEXT NOT NULL,
  message_id TEXT NOT NULL,
  value TEXT NOT NULL,
  system_metadata TEXT,
  PRIMARY KEY (entity_type, aspect, urn, timestamp_millis, partition_key, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS timeseries_by_time ON timeseries (entity_type, aspect, timestamp_millis);

CREATE TABLE IF NOT EXISTS store_node (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  node_id TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tasks (
  task_id INTEGER PRIMARY KEY AUTOINCREMENT,
  node_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  params TEXT NOT NULL,
  state TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  run_time_nanos INTEGER NOT NULL,
  progress TEXT NOT NULL,
  error TEXT
);
CREATE INDEX IF NOT EXISTS tasks_by_state ON tasks (state, task_id);
`
