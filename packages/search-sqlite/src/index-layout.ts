import { mergeContributions, type SearchSchema } from '@catalog/search'
import type Database from 'better-sqlite3'
import {
  BROWSE_NODES_DDL,
  createSecondaryIndexes,
  DOCS_BY_URN_DDL,
  DOCS_DDL,
  dropSecondaryIndexes,
  EXACT_DDL,
  ftsDdl,
  LAYOUT_VERSION,
} from './ddl.js'
import { DocumentWriter } from './document-writer.js'
import { FacetCache } from './facet-cache.js'
import { joinLegacyBrowsePathsV2 } from './legacy-browse-v2.js'
import { PartsCodec } from './parts-codec.js'
import { urnHash } from './urn-hash.js'
import { Vocabulary } from './vocabulary.js'

/** What the derived tables of an index file depend on. */
export interface LayoutInputs {
  readonly schema: SearchSchema
  /** Analysed fields, in FTS column order. */
  readonly ftsFields: readonly string[]
  /** The registry's entity types, sorted. */
  readonly urnTypes: ReadonlySet<string>
  readonly fieldIds: Map<string, number>
  /** How `docs.parts` is written. */
  readonly codec: PartsCodec
}

/**
 * Creates the FTS table, or, when the analysed fields, the layout or the names of the model
 * (the codes of `parts`) changed since the file was written, rewrites every stored document in
 * today's form and rebuilds every derived table from them (no change-log replay).
 */
export function ensureLayout(db: Database.Database, o: LayoutInputs): void {
  // Which URN keys are written depends on the entity types (see `ValueAnalysis.keys`).
  const wanted = JSON.stringify({
    layout: LAYOUT_VERSION,
    fts: o.ftsFields,
    urnTypes: [...o.urnTypes],
  })
  // A document's URN keys are found again from its exact fields to delete them: a model whose
  // exact fields changed rebuilds too (a file that predates this record keeps its rows).
  const exact = JSON.stringify(
    o.schema
      .allFields()
      .map((f) => f.name)
      .filter((name) => o.schema.isExact(name))
      .sort(),
  )
  const meta = (key: string) =>
    (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value
  const saveExact = () =>
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('exact', ?)").run(exact)
  const savedExact = meta('exact')
  const names = JSON.stringify(o.codec.names)
  const savedNames = meta('names')
  if (
    meta('layout') === wanted &&
    (savedExact === undefined || savedExact === exact) &&
    savedNames === names
  ) {
    if (savedExact === undefined) saveExact()
    db.exec(DOCS_BY_URN_DDL)
    return
  }
  // Parts as they were written: layout 5 and before wrote names as they are.
  const was = PartsCodec.stored(savedNames === undefined ? undefined : (JSON.parse(savedNames) as string[]))
  db.transaction(() => {
    // The derived tables go first: the pages they free take the rewritten documents.
    db.exec('DROP TABLE IF EXISTS fts_vocab; DROP TABLE IF EXISTS fts;')
    // Layout 4 keyed `exact` by the value as it is and `browse_nodes` by path: both are made
    // again in today's shape.
    db.exec('DROP TABLE IF EXISTS exact; DROP TABLE IF EXISTS browse_nodes; DELETE FROM urn_keys;')
    // Every row is rewritten: the query-only indexes are built once, after.
    dropSecondaryIndexes(db)
    db.exec('DROP INDEX IF EXISTS docs_by_urn')
    if (savedNames === undefined) joinLegacyBrowsePathsV2(db, browsePathV2Fields(o.schema))
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('docs') as string[]
    const rewritten = !columns.includes('urn_hash')
    if (rewritten) rewriteDocs(db, was, o.codec)
    db.exec(ftsDdl(o.ftsFields))
    db.exec(`${EXACT_DDL} ${BROWSE_NODES_DDL}`)
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('layout', ?)").run(wanted)
    saveExact()
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('names', ?)").run(names)
    reindexAll(db, o, rewritten ? o.codec : was)
    db.exec(DOCS_BY_URN_DDL)
    createSecondaryIndexes(db)
  })()
}

/**
 * Layout 5 and before: `docs` had a unique URN column and no hash. Its rows are written again
 * in today's table, with their parts in today's form (the same ids: the FTS rows are rebuilt
 * anyway).
 */
function rewriteDocs(db: Database.Database, was: PartsCodec, codec: PartsCodec): void {
  db.exec(`ALTER TABLE docs RENAME TO docs_before_6; ${DOCS_DDL}`)
  const insert = db.prepare(
    'INSERT INTO docs (id, urn, urn_hash, entity_type, removed, parts) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const page = db
    .prepare(
      'SELECT id, urn, entity_type, removed, parts FROM docs_before_6 WHERE id > ? ORDER BY id LIMIT 5000',
    )
    .raw()
  for (let after = -1; ; ) {
    const rows = page.all(after) as Array<[number, string, string, number, string]>
    for (const [id, urn, type, removed, parts] of rows)
      insert.run(id, urn, urnHash(urn), type, removed, codec.encode(was.decode(parts)))
    const last = rows.at(-1)
    if (!last) break
    after = last[0]
  }
  db.exec('DROP TABLE docs_before_6')
}

/** Index fields of type `BROWSE_PATH_V2` (DataHub's `browsePathV2`). */
function browsePathV2Fields(schema: SearchSchema): string[] {
  return schema
    .allFields()
    .filter((f) => f.type === 'BROWSE_PATH_V2')
    .map((f) => f.name)
}

/** Rewrites every document's parts (written with `was`) in today's form, and its derived rows. */
function reindexAll(db: Database.Database, o: LayoutInputs, was: PartsCodec): void {
  const writer = new DocumentWriter(db, {
    ftsFields: o.ftsFields,
    fieldIds: o.fieldIds,
    vocabulary: new Vocabulary(() => []),
    keyAspectOf: () => undefined,
    isExact: (field) => o.schema.isExact(field),
    facets: new FacetCache(new Set(), {
      docs: () => [],
      values: () => ({ postings: [], last: undefined }),
    }),
    bestFields: () => new Set(),
    urnTypes: o.urnTypes,
    codec: o.codec,
  })
  db.exec('DELETE FROM exact; DELETE FROM urn_keys; DELETE FROM browse_nodes;')
  const update = db.prepare('UPDATE docs SET parts = ?, urn_hash = ? WHERE id = ?')
  for (const r of db.prepare('SELECT id, urn, urn_hash, entity_type, parts FROM docs').all() as Array<{
    id: number
    urn: string
    urn_hash: number
    entity_type: string
    parts: string
  }>) {
    const parts = was.decode(r.parts)
    const text = o.codec.encode(parts)
    const hash = urnHash(r.urn)
    if (text !== r.parts || hash !== r.urn_hash) update.run(text, hash, r.id)
    writer.index(r.id, r.entity_type, mergeContributions(parts))
  }
  writer.flush()
}
