/**
 * The store's second layout (`PRAGMA user_version` 2), as its DDL created it: URNs once in
 * `urns`, aspect rows and edges by URN id, but every aspect row with its system metadata as JSON
 * text and `createdby` as text, and the run index on the JSON's `runId`. Tests build a data dir
 * of that layout with it to check that opening migrates it.
 */
export const STORE_V2_DDL = `
CREATE TABLE IF NOT EXISTS urns (
  id INTEGER PRIMARY KEY,
  urn TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS urns_by_urn ON urns (urn);

-- A table with row ids: a row keeps up to ~4 KB on its b-tree page. Keyed by the primary key
-- alone (WITHOUT ROWID), a row over ~1 KB (a schema of a dozen columns) spilled into an
-- overflow page of its own: 4.6 KB on disk for a 1.4 KB row, 2.1 KB now.
CREATE TABLE IF NOT EXISTS aspect_rows (
  eid INTEGER NOT NULL,
  aspect TEXT NOT NULL,
  version INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  systemmetadata TEXT,
  createdon INTEGER NOT NULL,
  createdby TEXT NOT NULL,
  PRIMARY KEY (eid, aspect, version)
);
CREATE INDEX IF NOT EXISTS aspect_rows_by_run
  ON aspect_rows (json_extract(systemmetadata, '$.runId'), eid, aspect) WHERE version = 0;

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
    a.systemmetadata AS systemmetadata, a.createdon AS createdon, a.createdby AS createdby
  FROM aspect_rows a JOIN urns u ON u.id = a.eid;
CREATE TRIGGER IF NOT EXISTS metadata_aspect_v2_insert INSTEAD OF INSERT ON metadata_aspect_v2 BEGIN
  INSERT OR IGNORE INTO urns (urn) VALUES (NEW.urn);
  INSERT INTO aspect_rows (eid, aspect, version, metadata, systemmetadata, createdon, createdby)
    VALUES ((SELECT id FROM urns WHERE urn = NEW.urn), NEW.aspect, NEW.version, NEW.metadata,
      NEW.systemmetadata, NEW.createdon, NEW.createdby);
END;
CREATE TRIGGER IF NOT EXISTS metadata_aspect_v2_update INSTEAD OF UPDATE ON metadata_aspect_v2 BEGIN
  INSERT OR IGNORE INTO urns (urn) VALUES (NEW.urn);
  UPDATE aspect_rows SET eid = (SELECT id FROM urns WHERE urn = NEW.urn), aspect = NEW.aspect,
    version = NEW.version, metadata = NEW.metadata, systemmetadata = NEW.systemmetadata,
    createdon = NEW.createdon, createdby = NEW.createdby
  WHERE eid = (SELECT id FROM urns WHERE urn = OLD.urn) AND aspect = OLD.aspect AND version = OLD.version;
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
