/**
 * The secondary indexes that only queries read (writes never look rows up through them): a bulk
 * build drops them and creates each once, sorted, at the end. Every open creates any that is
 * missing, so a build killed half-way leaves nothing missing once the index is opened again.
 */
export const SECONDARY_INDEXES: ReadonlyArray<readonly [name: string, ddl: string]> = [
  ['docs_by_type', 'CREATE INDEX IF NOT EXISTS docs_by_type ON docs (entity_type, removed, urn)'],
]

const SECONDARY_DDL = SECONDARY_INDEXES.map(([, ddl]) => `${ddl};\n`).join('')

/** Drops the {@link SECONDARY_INDEXES}; returns their names. */
export function dropSecondaryIndexes(db: { exec(sql: string): unknown }): string[] {
  for (const [name] of SECONDARY_INDEXES) db.exec(`DROP INDEX IF EXISTS ${name}`)
  return SECONDARY_INDEXES.map(([name]) => name)
}

/** Creates whichever of the {@link SECONDARY_INDEXES} is missing. */
export function createSecondaryIndexes(db: { exec(sql: string): unknown }): void {
  db.exec(SECONDARY_DDL)
}

/**
 * The `exact` table, keyed for its look-ups, (field, value, document), with no second index
 * (layout 5 kept a key by document and an index by value: 1,218 -> 653 B per dataset at 100k).
 * A document's own rows are found from its stored contributions when it changes. The key
 * compares values without ASCII case, as queries look them up: `variant` numbers a document's
 * values of one field that differ only in case (0 for the first, 1 for the next, ...), which
 * keeps them apart.
 */
export const EXACT_DDL = `CREATE TABLE IF NOT EXISTS exact (
  field INTEGER NOT NULL,
  value TEXT NOT NULL,
  doc_id INTEGER NOT NULL,
  variant INTEGER NOT NULL,
  num REAL,
  PRIMARY KEY (field, value COLLATE NOCASE, doc_id, variant)
) WITHOUT ROWID;`

/**
 * Where a bulk build (`catalog import`) writes the exact values and URN keys of the documents it
 * adds, keyed by document: appended in id order, where `exact` and `urn_keys` (keyed by field
 * and value) would take rows all over their key and rewrite most of their pages at each commit
 * (at 100k datasets the build took 1.16-1.18x the time written so). Its end moves them over sorted by the tables' keys
 * (see `bulkMode`). They exist only during a build, or after one was killed until the next open.
 */
export const STAGED_DDL = `CREATE TABLE IF NOT EXISTS exact_staged (
  doc_id INTEGER NOT NULL,
  field INTEGER NOT NULL,
  value TEXT NOT NULL,
  variant INTEGER NOT NULL,
  num REAL,
  PRIMARY KEY (doc_id, field, value, variant)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urn_keys_staged (
  doc_id INTEGER NOT NULL,
  field INTEGER NOT NULL,
  key TEXT NOT NULL,
  PRIMARY KEY (doc_id, field, key)
) WITHOUT ROWID;`

/**
 * The `docs` table. A URN is found through {@link DOCS_BY_URN_DDL}, an index of its hash
 * (`urnHash`), and compared in the row: the URN is stored once.
 */
export const DOCS_DDL = `CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY,
  urn TEXT NOT NULL,
  urn_hash INTEGER NOT NULL,
  entity_type TEXT NOT NULL,
  removed INTEGER NOT NULL DEFAULT 0,
  parts TEXT NOT NULL
);`

/** The look-up of `docs` by URN (writes read through it: not a query-only index). */
export const DOCS_BY_URN_DDL = 'CREATE INDEX IF NOT EXISTS docs_by_urn ON docs (urn_hash);'

/**
 * The `browse_nodes` table, keyed by parent first: a node's children are one range of the key,
 * and a count that changes moves no index entry (layout 4 had an index by parent and count).
 */
export const BROWSE_NODES_DDL = `CREATE TABLE IF NOT EXISTS browse_nodes (
  entity_type TEXT NOT NULL,
  parent TEXT NOT NULL,
  path TEXT NOT NULL,
  docs INTEGER NOT NULL,
  below INTEGER NOT NULL,
  PRIMARY KEY (entity_type, parent, path)
) WITHOUT ROWID;`

/** The parent of a browse node (`/a/b` gives `/a`, `/a` and the root `''` give `''`). */
export const browseParent = (node: string) => (node === '' ? '' : node.slice(0, node.lastIndexOf('/')))

/**
 * Layout of the embedded search index (its own SQLite file):
 * - `docs`: one row per entity: URN, type, soft-delete flag and what each aspect contributes
 *   (`parts`, JSON with names as codes, see `PartsCodec`; the document is their union);
 * - `exact`: every (field, value) of every document, for filters, facets, browse and
 *   `field:value` (see {@link EXACT_DDL}); `urn_keys`: the short forms a URN value answers to (`kafka`, `Legacy`), with
 *   no index by document: a document's keys are derived again from its stored contributions
 *   to delete them;
 * - `browse_nodes`: per entity type and browse path, how many visible documents have a
 *   browse path at or under it, and strictly under it (browse without a filter reads these;
 *   see {@link BROWSE_NODES_DDL});
 * - `fts`: an FTS5 table with one column per analysed field (bm25 with per-field weights);
 * - `meta`: the durable cursor and the layout (FTS column list) the derived tables were built with.
 */
export const BASE_DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fields (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
${DOCS_DDL}
${EXACT_DDL}
CREATE TABLE IF NOT EXISTS urn_keys (
  field INTEGER NOT NULL,
  key TEXT NOT NULL,
  doc_id INTEGER NOT NULL,
  PRIMARY KEY (field, key, doc_id)
) WITHOUT ROWID;
DROP INDEX IF EXISTS urn_keys_by_doc;
${BROWSE_NODES_DDL}
${SECONDARY_DDL}`

/**
 * Bumped when the derived tables change shape: they are then rebuilt from the stored documents
 * (5: `exact` keyed without case, `browse_nodes` by parent; 6: `exact` keyed by field and value
 * with no index by value, `parts` written with name codes, URNs found by their hash; see {@link EXACT_DDL}, {@link DOCS_DDL},
 * {@link BROWSE_NODES_DDL} and `PartsCodec`).
 */
export const LAYOUT_VERSION = 6

/** The FTS column of an index field. */
export const ftsColumn = (field: string) => `f_${field}`

/** DDL of the FTS table and its vocabulary view, for the given analysed fields. */
export function ftsDdl(fields: readonly string[]): string {
  const columns = fields.map(ftsColumn).join(', ')
  return `
CREATE VIRTUAL TABLE fts USING fts5 (${columns}, content='', contentless_delete=1,
  tokenize='unicode61 remove_diacritics 2', prefix='2 3');
CREATE VIRTUAL TABLE fts_vocab USING fts5vocab(fts, 'row');
`
}
