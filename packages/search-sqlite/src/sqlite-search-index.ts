import { UnavailableError } from '@catalog/core'
import {
  type ApplyResult,
  type AutocompleteRequest,
  type AutocompleteResultPage,
  type BrowseRequest,
  type BrowseResultPage,
  type BrowseV2Request,
  type BrowseV2ResultPage,
  type IndexChange,
  type IndexedDocument,
  type IndexStats,
  IS_LATEST,
  LIFECYCLE_STAGE,
  latestVersionsOnly,
  mergeContributions,
  type SearchIndex,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
  withoutHiddenStages,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import { autocompleteQuery } from './autocomplete.js'
import { bestFieldsOf } from './best-fields.js'
import { browseQuery } from './browse.js'
import { browseV2Query } from './browse-v2.js'
import { bulkMode } from './bulk-mode.js'
import { type BulkPage, bulkPagesOf, type PackedBulkPages } from './bulk-page.js'
import { BulkWriter } from './bulk-writer.js'
import { docRows, facetPostings, vocabularyPage } from './cache-sources.js'
import { DocumentWriter } from './document-writer.js'
import { FacetCache } from './facet-cache.js'
import { fileBytes } from './file-bytes.js'
import { IndexCursor } from './index-cursor.js'
import { ensureLayout } from './index-layout.js'
import { IndexWarmUp } from './index-warm-up.js'
import { openIndexFile } from './open-index-file.js'
import { PartsCodec } from './parts-codec.js'
import { createQueryContext, type QueryContext } from './query-context.js'
import { RANK_WINDOW, type SqliteSearchOptions, TOTAL_HITS_CAP } from './search-options.js'
import { searchQuery } from './search-query.js'
import { StatementCache } from './statement-cache.js'
import { urnHash } from './urn-hash.js'
import { Vocabulary } from './vocabulary.js'

export type { QueryContext } from './query-context.js'

export type { SqliteSearchOptions } from './search-options.js'

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
  /** How `docs.parts` is written. */
  private readonly codec: PartsCodec
  private readonly vocabulary: Vocabulary
  private readonly facets: FacetCache
  private readonly writer: DocumentWriter
  private readonly bulkWriter: BulkWriter
  private readonly bulkTx: (pages: BulkPage | PackedBulkPages, cursor: number) => ApplyResult
  private readonly context: QueryContext
  private readonly applyTx: (changes: readonly IndexChange[], cursor: number) => ApplyResult
  private readonly file: string
  /** `PRAGMA data_version` when the in-memory caches were last known current. */
  private dataVersion: number
  private readonly cacheBytes: number
  /** An entity type's default fields of the highest boost (a dataset's `id`, `name`, `qualifiedName`). */
  private readonly bestFields: (entityType: string) => ReadonlySet<string>
  private readonly warmUp: IndexWarmUp
  private readonly logCursor: IndexCursor

  constructor(options: SqliteSearchOptions) {
    this.file = options.file
    this.schema = options.schema
    this.bestFields = bestFieldsOf(options.schema)
    this.cacheBytes = (options.cacheMb ?? 32) * 1024 * 1024
    this.ftsFields = options.schema.wordFields().map((f) => f.name)
    this.urnTypes = new Set(
      options.schema.registry
        .allEntities()
        .map((e) => e.name)
        .sort(),
    )
    this.codec = PartsCodec.of(options.schema)
    try {
      this.db = openIndexFile(options.file, this.cacheBytes)
      this.loadFieldIds()
      ensureLayout(this.db, {
        schema: this.schema,
        ftsFields: this.ftsFields,
        urnTypes: this.urnTypes,
        fieldIds: this.fieldIds,
        codec: this.codec,
      })
      // Rows a killed bulk build left staged go to their tables.
      bulkMode.settle(this.db)
      this.dataVersion = this.db.pragma('data_version', { simple: true }) as number
    } catch (err) {
      throw new UnavailableError(
        `cannot open the search index at ${options.file}: ${(err as Error).message}`,
        {
          cause: err,
        },
      )
    }
    this.logCursor = new IndexCursor(this.db)
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
      codec: this.codec,
    })
    this.applyTx = this.db.transaction((changes: readonly IndexChange[], cursor: number) => ({
      documentsChanged: this.writer.apply(changes),
      cursor: this.logCursor.advance(cursor),
    }))
    this.bulkWriter = new BulkWriter(this.db, this.ftsFields, this.writer, this.codec)
    this.bulkTx = this.db.transaction((pages: BulkPage | PackedBulkPages, cursor: number) => {
      let documentsChanged = 0
      for (const page of bulkPagesOf(pages)) documentsChanged += this.bulkWriter.write(page)
      return { documentsChanged, cursor: this.logCursor.advance(cursor) }
    })
    this.context = createQueryContext({
      schema: this.schema,
      ftsFields: this.ftsFields,
      urnTypes: this.urnTypes,
      fieldIds: this.fieldIds,
      codec: this.codec,
      vocabulary: this.vocabulary,
      facets: this.facets,
      totalHitsCap: options.totalHitsCap ?? TOTAL_HITS_CAP,
      rankWindow: options.rankWindow ?? RANK_WINDOW,
      statements: new StatementCache(this.db),
    })
    this.warmUp = new IndexWarmUp({
      db: this.db,
      schema: this.schema,
      codec: this.codec,
      facets: this.facets,
      vocabulary: this.vocabulary,
      bestFields: (t) => this.bestFields(t),
      read: (fn) => this.read(fn),
      search: (r) => searchQuery(this.queryContext(), this.schema, r),
      autocomplete: (r) => autocompleteQuery(this.queryContext(), this.schema, r),
    })
  }

  async cursor(): Promise<number> {
    return this.logCursor.read()
  }

  async apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult> {
    try {
      return this.applyTx(changes, cursor)
    } catch (err) {
      // The transaction rolled back; the in-memory facet values and field ids may be ahead of it.
      this.facets.reset()
      this.reloadFieldIds()
      throw err
    }
  }

  /**
   * Writes a page of whole documents built by a `BulkPageBuilder` (`catalog import`), as
   * {@link apply} would write their removal and contributions, and moves the cursor to `cursor`.
   * Packed pages (see `packBulkPage`) are written in order, in one transaction.
   */
  async applyBulk(pages: BulkPage | PackedBulkPages, cursor: number): Promise<ApplyResult> {
    try {
      return this.bulkTx(pages, cursor)
    } catch (err) {
      this.reloadFieldIds()
      throw err
    } finally {
      // Written without them: loaded facet values and words (a query during a build) load again.
      this.facets.reset()
      this.vocabulary.reset()
    }
  }

  /** {@link apply} with the changes as JSON text (an `IndexChange[]`). */
  async applyJson(changesJson: string, cursor: number): Promise<ApplyResult> {
    return this.apply(JSON.parse(changesJson) as IndexChange[], cursor)
  }

  async search(request: SearchRequest): Promise<SearchResultPage> {
    return this.read(() =>
      searchQuery(this.queryContext(), this.schema, this.stageScope(this.versionScope(request))),
    )
  }

  /** Whether any entity is a version that is not its set's latest (prepared at the first search that asks). */
  private anyNotLatest?: Database.Statement
  /** Whether any entity is in one of the lifecycle stages of a JSON array (likewise). */
  private anyInStages?: Database.Statement

  /**
   * The request's `latestVersionsOnly` as a filter, when the index holds a version that is not
   * its set's latest; else nothing would be left out, and the request keeps its own fast paths
   * (a lone `field:value`, facets from memory): one look-up of the exact values.
   */
  private versionScope(request: SearchRequest): SearchRequest {
    if (!request.latestVersionsOnly) return request
    const field = this.fieldIds.get(IS_LATEST)
    this.anyNotLatest ??= this.db.prepare("SELECT 1 FROM exact WHERE field = ? AND value = 'false' LIMIT 1")
    const any = field !== undefined && this.anyNotLatest.get(field) !== undefined
    return any ? latestVersionsOnly(request) : request
  }

  /**
   * The request's hidden lifecycle stages as a filter, when an entity of the index is in one of
   * them; else nothing would be left out, and the request keeps its fast paths: one look-up.
   */
  private stageScope(request: SearchRequest): SearchRequest {
    const stages = request.hiddenLifecycleStages
    if (!stages?.length) return request
    const field = this.fieldIds.get(LIFECYCLE_STAGE)
    this.anyInStages ??= this.db.prepare(
      'SELECT 1 FROM exact WHERE field = ? AND value COLLATE NOCASE IN (SELECT value FROM json_each(?)) LIMIT 1',
    )
    const any = field !== undefined && this.anyInStages.get(field, JSON.stringify(stages)) !== undefined
    if (any) return withoutHiddenStages(request)
    const { hiddenLifecycleStages: _none, ...rest } = request
    return rest
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
    const row = this.db
      .prepare('SELECT entity_type, removed, parts FROM docs WHERE urn_hash = ? AND urn = ?')
      .get(urnHash(urn), urn) as { entity_type: string; removed: number; parts: string } | undefined
    if (!row) return undefined
    const parts = this.codec.decode(row.parts)
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
      if (bulkMode.staging(this.db)) this.db.exec('DELETE FROM exact_staged; DELETE FROM urn_keys_staged;')
      this.db.exec(
        "DELETE FROM docs; DELETE FROM exact; DELETE FROM urn_keys; DELETE FROM browse_nodes; INSERT INTO fts (fts) VALUES ('delete-all');",
      )
    })()
    this.vocabulary.reset()
    this.facets.reset()
  }

  async stats(): Promise<IndexStats> {
    const documents = (this.db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    const pageBytes = (this.db.pragma('page_size', { simple: true }) as number) ?? 4096
    const pages = (this.db.pragma('page_count', { simple: true }) as number) ?? 0
    return {
      documents,
      cursor: this.logCursor.read(),
      diskBytes: fileBytes(this.file),
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
   * at least one step, in a read of its own, then runs its practice queries, one a step;
   * true once all is done. Called while the index is idle after it opens, so the first queries
   * find the caches ready; a query that comes before the end finishes what is left. Writes may
   * run between steps.
   */
  warmStep(budgetMs: number): boolean {
    return this.warmUp.step(budgetMs)
  }

  /** Whether the caches are loaded, and how many loads queries had to do (for tests and benchmarks). */
  cacheState(): { warm: boolean; queryLoads: number } {
    return this.warmUp.state()
  }

  /**
   * Prepares a bulk build of about `expected` new documents (`catalog import`): when the index
   * holds fewer documents than that, the indexes that only queries read are dropped, to be built
   * once, sorted, by {@link endBulk}, and the exact values and URN keys of the documents that
   * {@link applyBulk} adds are staged by document, moved to their tables, sorted, by `endBulk`.
   * Writes through {@link apply} work as always meanwhile; queries are slow, and do not see the
   * staged rows (`field:value`, filters, facets and browse of the documents added so far). A
   * process killed before `endBulk` leaves nothing missing: the next open creates the indexes
   * and moves the staged rows. Returns the indexes dropped.
   */
  beginBulk(expected: number): string[] {
    // Writes keep loaded caches current, which a build does not need: queries load them again
    // (this also ends a warm-up under way).
    this.facets.reset()
    this.vocabulary.reset()
    const dropped = bulkMode.begin(this.db, expected)
    this.setStaging(bulkMode.staging(this.db))
    return dropped
  }

  /** Ends a bulk build: moves the staged rows, creates the indexes {@link beginBulk} dropped and checkpoints the WAL. */
  endBulk(): void {
    this.setStaging(false)
    bulkMode.end(this.db)
  }

  private setStaging(on: boolean): void {
    this.writer.setStaging(on)
    this.bulkWriter.setStaging(on)
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
    return this.context
  }

  /** After a rolled-back transaction: the field ids it gave are gone with it. */
  private reloadFieldIds(): void {
    this.fieldIds.clear()
    this.loadFieldIds()
  }

  private loadFieldIds(): void {
    for (const r of this.db.prepare('SELECT id, name FROM fields').all() as Array<{
      id: number
      name: string
    }>)
      this.fieldIds.set(r.name, r.id)
  }
}
