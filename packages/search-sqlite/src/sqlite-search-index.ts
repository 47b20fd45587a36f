import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { UnavailableError } from '@catalog/core'
import type {
  ApplyResult,
  AutocompleteRequest,
  AutocompleteResultPage,
  BrowseRequest,
  BrowseResultPage,
  DocumentFields,
  IndexChange,
  IndexedDocument,
  IndexStats,
  NormalizedFilter,
  SearchIndex,
  SearchRequest,
  SearchResultPage,
  SearchSchema,
} from '@catalog/search'
import Database from 'better-sqlite3'
import { autocompleteQuery } from './autocomplete.js'
import { browseQuery } from './browse.js'
import { BASE_DDL, ftsDdl } from './ddl.js'
import { DocumentWriter } from './document-writer.js'
import { filterSql } from './filter-sql.js'
import type { CompileContext, Sql } from './query-compiler.js'
import { searchQuery } from './search-query.js'
import { Vocabulary } from './vocabulary.js'

export interface SqliteSearchOptions {
  /** Database file path, or `:memory:`. */
  readonly file: string
  readonly schema: SearchSchema
  /** SQLite page cache, MB (default 64). */
  readonly cacheMb?: number
}

const MAX_STATEMENTS = 400

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
  private readonly fieldIds = new Map<string, number>()
  private readonly vocabulary: Vocabulary
  private readonly writer: DocumentWriter
  private readonly statements = new Map<string, Database.Statement>()
  private readonly applyTx: (changes: readonly IndexChange[], cursor: number) => ApplyResult
  private readonly entityNames = new Map<string, string>()
  private readonly file: string
  private readonly cacheBytes: number

  constructor(options: SqliteSearchOptions) {
    this.file = options.file
    this.schema = options.schema
    this.cacheBytes = (options.cacheMb ?? 64) * 1024 * 1024
    this.ftsFields = options.schema.wordFields().map((f) => f.name)
    if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true })
    try {
      this.db = new Database(options.file)
      this.db.pragma('journal_mode = WAL')
      this.db.pragma('synchronous = NORMAL')
      this.db.pragma('busy_timeout = 5000')
      this.db.pragma('temp_store = MEMORY')
      this.db.pragma(`cache_size = -${Math.round(this.cacheBytes / 1024)}`)
      this.db.exec(BASE_DDL)
      for (const r of this.db.prepare('SELECT id, name FROM fields').all() as Array<{ id: number; name: string }>)
        this.fieldIds.set(r.name, r.id)
      this.ensureFts()
      this.db.exec(
        'CREATE TEMP TABLE IF NOT EXISTS hits (doc_id INTEGER PRIMARY KEY, terms INTEGER NOT NULL, score REAL NOT NULL)',
      )
    } catch (err) {
      throw new UnavailableError(`cannot open the search index at ${options.file}: ${(err as Error).message}`, {
        cause: err,
      })
    }
    for (const e of options.schema.registry.allEntities()) {
      this.entityNames.set(e.name.toLowerCase(), e.name)
      if (e.graphqlType) this.entityNames.set(e.graphqlType.toLowerCase(), e.name)
    }
    this.vocabulary = new Vocabulary(() =>
      (this.db.prepare('SELECT term FROM fts_vocab').raw().all() as Array<[string]>).map((r) => r[0]),
    )
    this.writer = new DocumentWriter(this.db, {
      ftsFields: this.ftsFields,
      fieldIds: this.fieldIds,
      vocabulary: this.vocabulary,
      keyAspectOf: (type) => options.schema.registry.findEntity(type)?.keyAspect,
      isExact: (field) => options.schema.isExact(field),
    })
    this.applyTx = this.db.transaction((changes: readonly IndexChange[], cursor: number) =>
      this.applyAll(changes, cursor),
    )
  }

  async cursor(): Promise<number> {
    return this.readCursor()
  }

  async apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult> {
    return this.applyTx(changes, cursor)
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

  async document(urn: string): Promise<IndexedDocument | undefined> {
    const row = this.db.prepare('SELECT entity_type, removed, parts, doc FROM docs WHERE urn = ?').get(urn) as
      | { entity_type: string; removed: number; parts: string; doc: string }
      | undefined
    if (!row) return undefined
    return {
      urn,
      entityType: row.entity_type,
      removed: row.removed === 1,
      fields: JSON.parse(row.doc) as DocumentFields,
      aspects: Object.keys(JSON.parse(row.parts) as object).sort(),
    }
  }

  async clear(): Promise<void> {
    this.db.transaction(() => {
      this.db.exec(
        "DELETE FROM docs; DELETE FROM exact; DELETE FROM urn_keys; INSERT INTO fts (fts) VALUES ('delete-all');",
      )
    })()
    this.vocabulary.reset()
  }

  async stats(): Promise<IndexStats> {
    const documents = (this.db.prepare("SELECT count(*) AS n FROM docs").get() as { n: number }).n
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
      memoryBytes: Math.min(this.cacheBytes, pages * pageBytes) + this.vocabulary.size().bytes,
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }

  private applyAll(changes: readonly IndexChange[], cursor: number): ApplyResult {
    const changed = this.writer.apply(changes)
    const next = Math.max(this.readCursor(), cursor)
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)").run(String(next))
    return { documentsChanged: changed, cursor: next }
  }

  private readCursor(): number {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'cursor'").get() as { value: string } | undefined
    return row ? Number(row.value) : 0
  }

  /** Creates the FTS table, or rebuilds it from the stored documents when the analysed fields changed. */
  private ensureFts(): void {
    const wanted = JSON.stringify(this.ftsFields)
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'fts_fields'").get() as
      | { value: string }
      | undefined
    if (row?.value === wanted) return
    this.db.transaction(() => {
      this.db.exec('DROP TABLE IF EXISTS fts_vocab; DROP TABLE IF EXISTS fts;')
      this.db.exec(ftsDdl(this.ftsFields))
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_fields', ?)").run(wanted)
      if (row) this.reindexAll()
    })()
  }

  /** Rewrites every document's derived rows from its stored merged document. */
  private reindexAll(): void {
    const writer = new DocumentWriter(this.db, {
      ftsFields: this.ftsFields,
      fieldIds: this.fieldIds,
      vocabulary: new Vocabulary(() => []),
      keyAspectOf: () => undefined,
      isExact: (field) => this.schema.isExact(field),
    })
    this.db.exec('DELETE FROM exact; DELETE FROM urn_keys;')
    for (const r of this.db.prepare("SELECT id, doc FROM docs").all() as Array<{
      id: number
      doc: string
    }>)
      writer.index(r.id, JSON.parse(r.doc) as DocumentFields)
  }

  /** Runs a query in one read transaction (one consistent snapshot). */
  private read<T>(fn: () => T): T {
    if (!this.db.open) throw new UnavailableError('the search index is closed')
    return this.db.transaction(fn)()
  }

  private queryContext(): QueryContext {
    return {
      ftsFields: this.ftsFields,
      fieldId: (name) => this.fieldIds.get(name),
      isExact: (name) => this.schema.isExact(name),
      vocabulary: this.vocabulary,
      statement: (sql) => this.statement(sql),
      filter: (filter) =>
        filterSql(
          filter,
          (name) => this.fieldIds.get(name),
          (name) => this.schema.isExact(name),
          (v) => this.entityNames.get(v.toLowerCase()),
        ),
    }
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
  readonly statement: (sql: string) => Database.Statement
  readonly filter: (filter: NormalizedFilter) => Sql
}
