import { type DocumentFields, mergeContributions, type SearchSchema } from '@catalog/search'
import type Database from 'better-sqlite3'
import {
  BROWSE_NODES_DDL,
  createSecondaryIndexes,
  dropSecondaryIndexes,
  EXACT_DDL,
  ftsDdl,
  LAYOUT_VERSION,
} from './ddl.js'
import { DocumentWriter } from './document-writer.js'
import { FacetCache } from './facet-cache.js'
import { joinLegacyBrowsePathsV2 } from './legacy-browse-v2.js'
import { Vocabulary } from './vocabulary.js'

/** What the derived tables of an index file depend on. */
export interface LayoutInputs {
  readonly schema: SearchSchema
  /** Analysed fields, in FTS column order. */
  readonly ftsFields: readonly string[]
  /** The registry's entity types, sorted. */
  readonly urnTypes: ReadonlySet<string>
  readonly fieldIds: Map<string, number>
}

/**
 * Creates the FTS table, or, when the analysed fields or the layout changed since the file was
 * written, rebuilds every derived table from the stored documents (no change-log replay).
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
  if (meta('layout') === wanted && (savedExact === undefined || savedExact === exact)) {
    if (savedExact === undefined) saveExact()
    return
  }
  db.transaction(() => {
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('docs') as string[]
    if (columns.includes('doc')) db.exec('ALTER TABLE docs DROP COLUMN doc') // layout 2
    db.exec('DROP TABLE IF EXISTS fts_vocab; DROP TABLE IF EXISTS fts;')
    db.exec(ftsDdl(o.ftsFields))
    // Layout 4 keyed `exact` by the value as it is and `browse_nodes` by path: both are made
    // again in today's shape.
    db.exec(`DROP TABLE IF EXISTS exact; ${EXACT_DDL}`)
    db.exec(`DROP TABLE IF EXISTS browse_nodes; ${BROWSE_NODES_DDL}`)
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('layout', ?)").run(wanted)
    saveExact()
    joinLegacyBrowsePathsV2(db, browsePathV2Fields(o.schema))
    // Every row is rewritten: the query-only indexes are built once, after.
    dropSecondaryIndexes(db)
    reindexAll(db, o)
    createSecondaryIndexes(db)
  })()
}

/** Index fields of type `BROWSE_PATH_V2` (DataHub's `browsePathV2`). */
function browsePathV2Fields(schema: SearchSchema): string[] {
  return schema
    .allFields()
    .filter((f) => f.type === 'BROWSE_PATH_V2')
    .map((f) => f.name)
}

/** Rewrites every document's derived rows from its stored merged document. */
function reindexAll(db: Database.Database, o: LayoutInputs): void {
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
  })
  db.exec('DELETE FROM exact; DELETE FROM urn_keys; DELETE FROM browse_nodes;')
  for (const r of db.prepare('SELECT id, entity_type, parts FROM docs').all() as Array<{
    id: number
    entity_type: string
    parts: string
  }>)
    writer.index(
      r.id,
      r.entity_type,
      mergeContributions(JSON.parse(r.parts) as Record<string, DocumentFields>),
    )
  writer.flush()
}
