import type { NormalizedFilter, SearchSchema } from '@catalog/search'
import type Database from 'better-sqlite3'
import type { FacetCache } from './facet-cache.js'
import { filterSql } from './filter-sql.js'
import type { PartsCodec } from './parts-codec.js'
import type { CompileContext, Sql } from './query-compiler.js'
import type { StatementCache } from './statement-cache.js'
import type { Vocabulary } from './vocabulary.js'

/** What the query builders need: the compile context, cached statements and the filter compiler. */
export interface QueryContext extends CompileContext {
  readonly facets: FacetCache
  readonly totalHitsCap: number
  readonly rankWindow: number
  readonly jsonPaths: (field: string) => readonly string[]
  /** How `docs.parts` is written. */
  readonly codec: PartsCodec
  readonly statement: (sql: string) => Database.Statement
  readonly filter: (filter: NormalizedFilter) => Sql
}

/** An index's parts that its queries read. */
export interface QueryParts {
  readonly schema: SearchSchema
  readonly ftsFields: readonly string[]
  readonly urnTypes: ReadonlySet<string>
  /** Field ids by name (reloaded in place when another connection added fields). */
  readonly fieldIds: ReadonlyMap<string, number>
  readonly codec: PartsCodec
  readonly vocabulary: Vocabulary
  readonly facets: FacetCache
  readonly totalHitsCap: number
  readonly rankWindow: number
  readonly statements: StatementCache
}

/** The {@link QueryContext} of an index. */
export function createQueryContext(p: QueryParts): QueryContext {
  const { schema, fieldIds } = p
  const entityNames = new Map<string, string>()
  for (const e of schema.registry.allEntities()) {
    entityNames.set(e.name.toLowerCase(), e.name)
    if (e.graphqlType) entityNames.set(e.graphqlType.toLowerCase(), e.name)
  }
  /** JSON paths of a field in the stored contributions, one per aspect that feeds it (see `PartsCodec.path`). */
  const jsonPaths = (field: string): string[] =>
    schema.aspectsOf(field).map((aspect) => p.codec.path(aspect, field))
  return {
    ftsFields: p.ftsFields,
    urnTypes: p.urnTypes,
    fieldId: (name) => fieldIds.get(name),
    isExact: (name) => schema.isExact(name),
    vocabulary: p.vocabulary,
    facets: p.facets,
    totalHitsCap: p.totalHitsCap,
    rankWindow: p.rankWindow,
    statement: (sql) => p.statements.get(sql),
    filter: (filter) =>
      filterSql(
        filter,
        (name) => fieldIds.get(name),
        (name) => schema.isExact(name),
        (v) => entityNames.get(v.toLowerCase()),
        jsonPaths,
        (field) => schema.field(field)?.type === 'BROWSE_PATH_V2',
      ),
    jsonPaths,
    codec: p.codec,
  }
}
