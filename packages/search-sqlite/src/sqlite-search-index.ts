import { closeSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { UnavailableError } from '@catalog/core'
import {
  type ApplyResult,
  type AutocompleteRequest,
  type AutocompleteResultPage,
  type BrowseRequest,
  type BrowseResultPage,
  type BrowseV2Request,
  type BrowseV2ResultPage,
  type DocumentFields,
  type IndexChange,
  type IndexedDocument,
  type IndexStats,
  mergeContributions,
  type NormalizedFilter,
  type SearchIndex,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
} from '@catalog/search'
import Database from 'better-sqlite3'
import { autocompleteQuery } from './autocomplete.js'
import { browseQuery } from './browse.js'
import { browseV2Query } from './browse-v2.js'
import { docRows, facetPostings, vocabularyPage } from './cache-sources.js'
import {
  BASE_DDL,
  BROWSE_NODES_DDL,
  createSecondaryIndexes,
  dropSecondaryIndexes,
  EXACT_DDL,
  ftsDdl,
  LAYOUT_VERSION,
} from './ddl.js'
import { DocumentWriter } from './document-writer.js'
import { FacetCache } from './facet-cache.js'
import { filterSql } from './filter-sql.js'
import { joinLegacyBrowsePathsV2 } from './legacy-browse-v2.js'
import { practiceQueries } from './practice-queries.js'
import type { CompileContext, Sql } from './query-compiler.js'
import { searchQuery } from './search-query.js'
import { Vocabulary } from './vocabulary.js'

export interface SqliteSearchOptions {
  /** Database file path, or `:memory:`. */
  readonly file: string
  readonly schema: SearchSchema
  /** SQLite page cache, MB (default 32). */
  readonly cacheMb?: number
  /** Matches a text query counts, facets and ranks at most (default 10,000, as DataHub's). */
  readonly totalHitsCap?: number
  /** Counted matches of a text query that are scored and ranked (default 10,000: all of them). */
  readonly rankWindow?: number
}

/** Elasticsearch's default `track_total_hits`, which DataHub's search requests keep. */
export const TOTAL_HITS_CAP = 10_000
/**
 * How many counted matches are ranked by relevance. The default ranks every counted match, so
 * ranking is exact whenever the total is; only a query past the cap (its total reads "at least
 * 10,000") ranks its first 10,000 matches in index order. A smaller window bounds the bm25 cost
 * further (measured at 60,000 datasets: 2,000 halves a broad query's time) at the price of
 * relevance: a strong match past the window is not ranked first.
 */
export const RANK_WINDOW = 10_000

const MAX_STATEMENTS = 400
/** FTS5's default `hashsize`: pending words written out past 1 MB. */
const FTS_HASH_BYTES = 1024 * 1024
/** `hashsize` during a bulk build: a page of 5,000 documents' words stay in memory until its commit. */
const BULK_FTS_HASH_BYTES = 64 * 1024 * 1024

/**
 * The embedded search index: its own SQLite file (WAL) with FTS5 for words and tables of
 * exact values for filters, facets and browse. The cursor is written in the same transaction
 * as the documents, so a crash loses both or neither and the log tail is simply applied again
 * (synchronous NORMAL is enough: nothing here is the source of truth).
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly db: Database.Database
  private readonly schema: SearchSchema
  private readonly ftsFields: string[]
  /** The registry's entity types, sorted: URNs of these need no key for their tuple id. */
  private readonly urnTypes: ReadonlySet<string>
  private readonly fieldIds = new Map<string, number>()
  private readonly vocabulary: Vocabulary
  private readonly facets: FacetCache
  private readonly writer: DocumentWriter
  private readonly statements = new Map<string, Database.Statement>()
  private readonly applyTx: (changes: readonly IndexChange[], cursor: number) => ApplyResult
  private readonly entityNames = new Map<string, string>()
  private readonly file: string
  /** `PRAGMA data_version` when the in-memory caches were last known current. */
  private dataVersion: number
  private readonly cacheBytes: number
  private readonly totalHitsCap: number
  private readonly rankWindow: number
  private readonly best = new Map<string, ReadonlySet<string>>()
  /** The warm-up's practice queries still to run (undefined before they were made). */
  private practice: Array<SearchRequest | AutocompleteRequest> | undefined

  constructor(options: SqliteSearchOptions) {
    this.file = options.file
    this.schema = options.schema
    this.cacheBytes = (options.cacheMb ?? 32) * 1024 * 1024
    this.totalHitsCap = options.totalHitsCap ?? TOTAL_HITS_CAP
    this.rankWindow = options.rankWindow ?? RANK_WINDOW
    this.ftsFields = options.schema.wordFields().map((f) => f.name)
    this.urnTypes = new Set(
      options.schema.registry
        .allEntities()
        .map((e) => e.name)
        .sort(),
    )
    if (options.file !== ':memory:') {
      // Owner-only: a new data dir is 0700 and a new database file 0600 (SQLite gives its
      // -wal and -shm files the mode of the database file).
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 })
      createPrivateFile(options.file)
    }
    try {
      this.db = new Database(options.file)
      this.db.pragma('journal_mode = WAL')
      this.db.pragma('synchronous = NORMAL')
      this.db.pragma('busy_timeout = 5000')
      this.db.pragma('temp_store = MEMORY')
      // Fewer, larger checkpoints: a catch-up over a long log writes hot pages less often.
      this.db.pragma('wal_autocheckpoint = 10000')
      this.db.pragma('journal_size_limit = 67108864')
      this.db.pragma(`cache_size = -${Math.round(this.cacheBytes / 1024)}`)
      this.db.exec(BASE_DDL)
      this.loadFieldIds()
      this.ensureLayout()
      this.dataVersion = this.db.pragma('data_version', { simple: true }) as number
    } catch (err) {
      throw new UnavailableError(
        `cannot open the search index at ${options.file}: ${(err as Error).message}`,
        {
          cause: err,
        },
      )
    }
    for (const e of options.schema.registry.allEntities()) {
      this.entityNames.set(e.name.toLowerCase(), e.name)
      if (e.graphqlType) this.entityNames.set(e.graphqlType.toLowerCase(), e.name)
    }
    const facetFields = new Set(options.schema.allEntities().flatMap((e) => e.facets.map((f) => f.field)))
    this.facets = new FacetCache(facetFields, {
      docs: (from, limit) => docRows(this.db, this.ftsFields, (type) => this.bestFields(type), from, limit),
      values: (field, after, rows) => facetPostings(this.db, field, this.fieldIds, after, rows),
    })
    this.vocabulary = new Vocabulary((after, limit) => vocabularyPage(this.db, after, limit))
    this.writer = new DocumentWriter(this.db, {
      ftsFields: this.ftsFields,
      fieldIds: this.fieldIds,
      vocabulary: this.vocabulary,
      keyAspectOf: (type) => options.schema.registry.findEntity(type)?.keyAspect,
      isExact: (field) => options.schema.isExact(field),
      facets: this.facets,
      bestFields: (type) => this.bestFields(type),
      urnTypes: this.urnTypes,
    })
    this.applyTx = this.db.transaction((changes: readonly IndexChange[], cursor: number) =>
      this.applyAll(changes, cursor),
    )
  }

  async cursor(): Promise<number> {
    return this.readCursor()
  }

  async apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult> {
    try {
      return this.applyTx(changes, cursor)
    } catch (err) {
      // The transaction rolled back; the in-memory facet values may be ahead of it.
      this.facets.reset()
      throw err
    }
  }

  /** {@link apply} with the changes as JSON text (an `IndexChange[]`). */
  async applyJson(changesJson: string, cursor: number): Promise<ApplyResult> {
    return this.apply(JSON.parse(changesJson) as IndexChange[], cursor)
  }

  async search(request: SearchRequest): Promise<SearchResultPage> {
    return this.read(() => searchQuery(this.queryContext(), this.schema, request))
  }

  async autocomplete(request: AutocompleteRequest): Promise<AutocompleteResultPage> {
    return this.read(() => autocompleteQuery(this.queryContext(), this.schema, request))
  }

  async browse(request: BrowseRequest): Promise<BrowseResultPage> {
    return this.read(() => browseQuery(this.queryContext(), request))
  }

  async browseV2(request: BrowseV2Request): Promise<BrowseV2ResultPage> {
    return this.read(() => browseV2Query(this.queryContext(), this.schema, request))
  }

  async document(urn: string): Promise<IndexedDocument | undefined> {
    const row = this.db.prepare('SELECT entity_type, removed, parts FROM docs WHERE urn = ?').get(urn) as
      | { entity_type: string; removed: number; parts: string }
      | undefined
    if (!row) return undefined
    const parts = JSON.parse(row.parts) as Record<string, DocumentFields>
    return {
      urn,
      entityType: row.entity_type,
      removed: row.removed === 1,
      fields: mergeContributions(parts),
      aspects: Object.keys(parts).sort(),
    }
  }

  async clear(): Promise<void> {
    this.db.transaction(() => {
      this.db.exec(
        "DELETE FROM docs; DELETE FROM exact; DELETE FROM urn_keys; DELETE FROM browse_nodes; INSERT INTO fts (fts) VALUES ('delete-all');",
      )
    })()
    this.vocabulary.reset()
    this.facets.reset()
  }

  async stats(): Promise<IndexStats> {
    const documents = (this.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    let diskBytes = 0
    if (this.file !== ':memory:') {
      for (const suffix of ['', '-wal', '-shm']) {
        try {
          diskBytes += statSync(this.file + suffix).size
        } catch {
          // the file does not exist (no WAL yet)
        }
      }
    }
    const pageBytes = (this.db.pragma('page_size', { simple: true }) as number) ?? 4096
    const pages = (this.db.pragma('page_count', { simple: true }) as number) ?? 0
    return {
      documents,
      cursor: this.readCursor(),
      diskBytes,
      memoryBytes:
        Math.min(this.cacheBytes, pages * pageBytes) +
        this.vocabulary.size().bytes +
        this.facets.size().bytes,
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }

  /**
   * Loads the in-memory caches that queries need (facet columns, words) for about `budgetMs`,
   * at least one step, in a read of its own, then runs the {@link practiceQueries}, one a step;
   * true once all is done. Called while the index is idle after it opens, so the first queries
   * find the caches ready; a query that comes before the end finishes what is left. Writes may
   * run between steps.
   */
  warmStep(budgetMs: number): boolean {
    const deadline = performance.now() + budgetMs
    if (!this.read(() => this.facets.warm(deadline) && this.vocabulary.warm(deadline))) return false
    this.practice ??= practiceQueries(this.db, this.schema, this.vocabulary.common, (t) => this.bestFields(t))
    const r = this.practice.shift()
    if (!r) return true
    try {
      if (typeof r.query === 'string')
        this.read(() => autocompleteQuery(this.queryContext(), this.schema, r as AutocompleteRequest))
      else this.read(() => searchQuery(this.queryContext(), this.schema, r as SearchRequest))
    } catch {
      // Its answer does not matter.
    }
    return this.practice.length === 0
  }

  /** Whether the caches are loaded, and how many loads queries had to do (for tests and benchmarks). */
  cacheState(): { warm: boolean; queryLoads: number } {
    return {
      warm: this.facets.ready && this.vocabulary.ready,
      queryLoads: this.facets.queryLoads + this.vocabulary.queryLoads,
    }
  }

  /**
   * Prepares a bulk build of about `expected` new documents (`catalog import`): when the index
   * holds fewer documents than that, the indexes that only queries read are dropped, to be built
   * once, sorted, by {@link endBulk}. Writes through {@link apply} work as always meanwhile;
   * queries are correct but slow. A process killed before `endBulk` leaves nothing missing: the
   * next open creates them. Returns the indexes dropped.
   */
  beginBulk(expected: number): string[] {
    // FTS5 keeps a transaction's new words in memory up to `hashsize` bytes, then writes them as
    // a segment that later merges rewrite: a page of thousands of documents flushed in one
    // segment instead of dozens is fewer, larger segments and less merging. Only memory while a
    // write is pending depends on it (a small write never reaches it), so a build killed before
    // `endBulk` leaves nothing to undo.
    this.ftsConfig('hashsize', BULK_FTS_HASH_BYTES)
    // Writes keep loaded caches current, which a build does not need: queries load them again
    // (this also ends a warm-up under way).
    this.facets.reset()
    this.vocabulary.reset()
    const documents = (this.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    return documents >= expected ? [] : dropSecondaryIndexes(this.db)
  }

  /** Ends a bulk build: creates the indexes {@link beginBulk} dropped and checkpoints the WAL. */
  endBulk(): void {
    this.ftsConfig('hashsize', FTS_HASH_BYTES)
    createSecondaryIndexes(this.db)
    this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /** Sets an FTS5 configuration option (stored in the index file). */
  private ftsConfig(option: string, value: number): void {
    // An integer: FTS5 refuses the REAL that a JavaScript number binds as.
    this.db.prepare('INSERT INTO fts (fts, rank) VALUES (?, ?)').run(option, BigInt(value))
  }

  private applyAll(changes: readonly IndexChange[], cursor: number): ApplyResult {
    const changed = this.writer.apply(changes)
    const next = Math.max(this.readCursor(), cursor)
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)").run(String(next))
    return { documentsChanged: changed, cursor: next }
  }

  private readCursor(): number {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'cursor'").get() as
      | { value: string }
      | undefined
    return row ? Number(row.value) : 0
  }

  /**
   * Creates the FTS table, or, when the analysed fields or the layout changed since the file
   * was written, rebuilds every derived table from the stored documents (no change-log replay).
   */
  private ensureLayout(): void {
    // Which URN keys are written depends on the entity types (see `ValueAnalysis.keys`).
    const wanted = JSON.stringify({
      layout: LAYOUT_VERSION,
      fts: this.ftsFields,
      urnTypes: [...this.urnTypes],
    })
    // A document's URN keys are found again from its exact fields to delete them: a model whose
    // exact fields changed rebuilds too (a file that predates this record keeps its rows).
    const exact = JSON.stringify(
      this.schema
        .allFields()
        .map((f) => f.name)
        .filter((name) => this.schema.isExact(name))
        .sort(),
    )
    const meta = (key: string) =>
      (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)
        ?.value
    const saveExact = () =>
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('exact', ?)").run(exact)
    const savedExact = meta('exact')
    if (meta('layout') === wanted && (savedExact === undefined || savedExact === exact)) {
      if (savedExact === undefined) saveExact()
      return
    }
    this.db.transaction(() => {
      const columns = this.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('docs') as string[]
      if (columns.includes('doc')) this.db.exec('ALTER TABLE docs DROP COLUMN doc') // layout 2
      this.db.exec('DROP TABLE IF EXISTS fts_vocab; DROP TABLE IF EXISTS fts;')
      this.db.exec(ftsDdl(this.ftsFields))
      // Layout 4 keyed `exact` by the value as it is and `browse_nodes` by path: both are made
      // again in today's shape.
      this.db.exec(`DROP TABLE IF EXISTS exact; ${EXACT_DDL}`)
      this.db.exec(`DROP TABLE IF EXISTS browse_nodes; ${BROWSE_NODES_DDL}`)
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('layout', ?)").run(wanted)
      saveExact()
      joinLegacyBrowsePathsV2(this.db, this.browsePathV2Fields())
      // Every row is rewritten: the query-only indexes are built once, after.
      dropSecondaryIndexes(this.db)
      this.reindexAll()
      createSecondaryIndexes(this.db)
    })()
  }

  /** Index fields of type `BROWSE_PATH_V2` (DataHub's `browsePathV2`). */
  private browsePathV2Fields(): string[] {
    return this.schema
      .allFields()
      .filter((f) => f.type === 'BROWSE_PATH_V2')
      .map((f) => f.name)
  }

  /** Rewrites every document's derived rows from its stored merged document. */
  private reindexAll(): void {
    const writer = new DocumentWriter(this.db, {
      ftsFields: this.ftsFields,
      fieldIds: this.fieldIds,
      vocabulary: new Vocabulary(() => []),
      keyAspectOf: () => undefined,
      isExact: (field) => this.schema.isExact(field),
      facets: new FacetCache(new Set(), {
        docs: () => [],
        values: () => ({ postings: [], last: undefined }),
      }),
      bestFields: () => new Set(),
      urnTypes: this.urnTypes,
    })
    this.db.exec('DELETE FROM exact; DELETE FROM urn_keys; DELETE FROM browse_nodes;')
    for (const r of this.db.prepare('SELECT id, entity_type, parts FROM docs').all() as Array<{
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

  /** An entity type's default fields of the highest boost (a dataset's `id`, `name`, `qualifiedName`). */
  private bestFields(entityType: string): ReadonlySet<string> {
    let best = this.best.get(entityType)
    if (!best) {
      const spec = this.schema.entity(entityType)
      const boost = (f: string) => spec?.fields.get(f)?.boost ?? 1
      const top = Math.max(0, ...(spec?.defaultFields ?? []).map(boost))
      best = new Set((spec?.defaultFields ?? []).filter((f) => boost(f) === top))
      this.best.set(entityType, best)
    }
    return best
  }

  /** Runs a query in one read transaction (one consistent snapshot). */
  private read<T>(fn: () => T): T {
    if (!this.db.open) throw new UnavailableError('the search index is closed')
    return this.db.transaction(() => {
      // Another connection wrote the file: field ids, facet values and words may be stale.
      const version = this.db.pragma('data_version', { simple: true }) as number
      if (version !== this.dataVersion) {
        this.loadFieldIds()
        this.facets.reset()
        this.vocabulary.reset()
        this.dataVersion = version
      }
      return fn()
    })()
  }

  private queryContext(): QueryContext {
    return {
      ftsFields: this.ftsFields,
      urnTypes: this.urnTypes,
      fieldId: (name) => this.fieldIds.get(name),
      isExact: (name) => this.schema.isExact(name),
      vocabulary: this.vocabulary,
      facets: this.facets,
      totalHitsCap: this.totalHitsCap,
      rankWindow: this.rankWindow,
      statement: (sql) => this.statement(sql),
      filter: (filter) =>
        filterSql(
          filter,
          (name) => this.fieldIds.get(name),
          (name) => this.schema.isExact(name),
          (v) => this.entityNames.get(v.toLowerCase()),
          (field) => this.jsonPaths(field),
          (field) => this.schema.field(field)?.type === 'BROWSE_PATH_V2',
        ),
      jsonPaths: (field) => this.jsonPaths(field),
    }
  }

  private loadFieldIds(): void {
    for (const r of this.db.prepare('SELECT id, name FROM fields').all() as Array<{
      id: number
      name: string
    }>)
      this.fieldIds.set(r.name, r.id)
  }

  /** JSON paths of a field in the stored contributions (`$."datasetProperties"."description"`). */
  private jsonPaths(field: string): string[] {
    const name = field.replace(/["\\]/g, '')
    return this.schema.aspectsOf(field).map((aspect) => `$."${aspect}"."${name}"`)
  }

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql)
    if (!s) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear()
      s = this.db.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }
}

/** What the query builders need: the compile context, cached statements and the filter compiler. */
export interface QueryContext extends CompileContext {
  readonly facets: FacetCache
  readonly totalHitsCap: number
  readonly rankWindow: number
  readonly jsonPaths: (field: string) => readonly string[]
  readonly statement: (sql: string) => Database.Statement
  readonly filter: (filter: NormalizedFilter) => Sql
}

/** Creates `file` empty with mode 0600 unless it exists (SQLite takes an empty file as a new database). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}
