/**
 * The store's first layout (schema version 1, `PRAGMA user_version` 0), as its DDL created it:
 * `metadata_aspect_v2` and `edges` as tables with URN text in every row and index. Tests build
 * a data dir of that layout with it to check that opening migrates it.
 */
export const STORE_V1_DDL = `
CREATE TABLE IF NOT EXISTS metadata_aspect_v2 (
  urn TEXT NOT NULL,
  aspect TEXT NOT NULL,
  version INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  systemmetadata TEXT,
  createdon INTEGER NOT NULL,
  createdby TEXT NOT NULL,
  PRIMARY KEY (urn, aspect, version)
) WITHOUT ROWID;
DROP INDEX IF EXISTS metadata_aspect_latest_by_name;
CREATE INDEX IF NOT EXISTS metadata_aspect_by_run
  ON metadata_aspect_v2 (json_extract(systemmetadata, '$.runId'), urn, aspect) WHERE version = 0;

CREATE TABLE IF NOT EXISTS edges (
  source TEXT NOT NULL,
  type TEXT NOT NULL,
  destination TEXT NOT NULL,
  aspect TEXT NOT NULL,
  PRIMARY KEY (source, type, destination, aspect)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS edges_incoming ON edges (destination, type, source);
CREATE INDEX IF NOT EXISTS edges_by_aspect ON edges (source, aspect);
-- The relationship scroll's order (DataHub's edge sort); built once when an older data dir opens.
CREATE INDEX IF NOT EXISTS edges_scroll ON edges (source, destination, type);

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
