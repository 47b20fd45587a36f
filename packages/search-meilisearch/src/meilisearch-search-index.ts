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
  latestVersionsOnly,
  type SearchIndex,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
  withoutHiddenStages,
} from '@catalog/search'
import { MeilisearchApiError } from 'meilisearch'
import { ATTR, fieldCatalog } from './attributes.js'
import { autocompleteQuery } from './autocomplete.js'
import { type BackendOptions, MeiliBackend } from './backend.js'
import { browseQuery } from './browse.js'
import { browseV2Query } from './browse-v2.js'
import { fromStored, type StoredDocument } from './document-mapper.js'
import { DocumentWriter, type IndexState } from './document-writer.js'
import { translateError } from './errors.js'
import { deriveSettings, layoutFingerprint, settingsDiffer } from './index-settings.js'
import { type QueryContext, searchQuery } from './search-query.js'
import { pkOf, STATE_PK } from './tokens.js'

/** The logger the adapter warns through (pino's interface). */
export interface WarnLogger {
  warn(details: object, message: string): void
}

export interface MeilisearchSearchOptions extends BackendOptions {
  readonly schema: SearchSchema
  readonly log?: WarnLogger
}

const ENTITY_DOCUMENTS = `${ATTR.entityType} EXISTS`
const SCAN_PAGE = 1000

/**
 * The search index port on Meilisearch: one index holding every entity type's documents
 * (`_entityType` is a filterable attribute, so a search over several types ranks, pages and
 * counts facets in one query), plus one state document holding the durable cursor. Settings
 * come from the registry (see `deriveSettings`) and are applied idempotently at open; every
 * write waits for its Meilisearch task. See the package README for the mapping of the port's
 * semantics to Meilisearch, and where they differ from the embedded index.
 */
export class MeilisearchSearchIndex implements SearchIndex {
  private closed = false
  private queue: Promise<unknown> = Promise.resolve()
  private readonly ctx: QueryContext
  private readonly writer: DocumentWriter

  private constructor(
    private readonly backend: MeiliBackend,
    schema: SearchSchema,
    private readonly layout: string,
    log: WarnLogger | undefined,
  ) {
    const catalog = fieldCatalog(schema)
    this.ctx = { backend, schema, catalog, warn: (d, m) => log?.warn(d, m) }
    this.writer = new DocumentWriter(backend, catalog)
  }

  /**
   * Connects (a clear {@link UnavailableError} when Meilisearch cannot be reached or refuses
   * the key), creates the index if needed, applies the derived settings when they differ, and
   * rebuilds the documents from their stored contributions when the document layout changed.
   */
  static async open(options: MeilisearchSearchOptions): Promise<MeilisearchSearchIndex> {
    const backend = new MeiliBackend(options)
    await backend.verify()
    await ensureIndex(backend)
    const wanted = deriveSettings(options.schema)
    const current = await backend.call('read the index settings', () => backend.index.getSettings())
    if (settingsDiffer(current, wanted))
      await backend.writeSettings('apply the index settings', () => backend.index.updateSettings(wanted))
    const layout = layoutFingerprint(options.schema)
    const index = new MeilisearchSearchIndex(backend, options.schema, layout, options.log)
    const state = await index.readState()
    if (state?.layout !== layout) {
      if (state) await index.writer.rebuild(await index.allKeys())
      await index.writer.put([], { cursor: state?.cursor ?? 0, layout })
    }
    return index
  }

  async cursor(): Promise<number> {
    this.check()
    return (await this.readState())?.cursor ?? 0
  }

  apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult> {
    return this.exclusive(async () => {
      const state = (await this.readState()) ?? { cursor: 0, layout: this.layout }
      return this.writer.apply(changes, cursor, { cursor: state.cursor, layout: this.layout })
    })
  }

  async search(request: SearchRequest): Promise<SearchResultPage> {
    this.check()
    const versions = request.latestVersionsOnly ? latestVersionsOnly(request) : request
    return searchQuery(this.ctx, withoutHiddenStages(versions))
  }

  async autocomplete(request: AutocompleteRequest): Promise<AutocompleteResultPage> {
    this.check()
    return autocompleteQuery(this.ctx, request)
  }

  async browse(request: BrowseRequest): Promise<BrowseResultPage> {
    this.check()
    return browseQuery(this.ctx, request)
  }

  async browseV2(request: BrowseV2Request): Promise<BrowseV2ResultPage> {
    this.check()
    return browseV2Query(this.ctx, request)
  }

  async document(urn: string): Promise<IndexedDocument | undefined> {
    this.check()
    const stored = await this.backend.document<StoredDocument & Record<string, unknown>>(pkOf(urn), [
      ATTR.pk,
      ATTR.urn,
      ATTR.entityType,
      ATTR.parts,
    ])
    return stored?._parts === undefined ? undefined : fromStored(stored)
  }

  clear(): Promise<void> {
    return this.exclusive(async () => {
      await this.backend.write('clear the index', () =>
        this.backend.index.deleteDocuments({ filter: ENTITY_DOCUMENTS }),
      )
    })
  }

  async stats(): Promise<IndexStats> {
    this.check()
    const [count, state] = await Promise.all([
      this.backend.search({ q: '', filter: ENTITY_DOCUMENTS, hitsPerPage: 0 }, 'count documents'),
      this.readState(),
    ])
    return { documents: count.totalHits, cursor: state?.cursor ?? 0, diskBytes: 0, memoryBytes: 0 }
  }

  async close(): Promise<void> {
    this.closed = true
    await this.queue.catch(() => {})
  }

  /** The state document, or undefined for an index this adapter never wrote. */
  private async readState(): Promise<IndexState | undefined> {
    const doc = await this.backend.document<Record<string, unknown>>(
      STATE_PK,
      [ATTR.cursor, ATTR.layout],
      'read the cursor',
    )
    if (!doc) return undefined
    const cursor = Number(doc[ATTR.cursor] ?? 0)
    return { cursor: Number.isFinite(cursor) ? cursor : 0, layout: String(doc[ATTR.layout] ?? '') }
  }

  /** The primary keys of every entity document. */
  private async allKeys(): Promise<string[]> {
    const keys: string[] = []
    for (let offset = 0; ; offset += SCAN_PAGE) {
      const page = await this.backend.documents<Record<string, unknown>>(
        { filter: ENTITY_DOCUMENTS, fields: [ATTR.pk], limit: SCAN_PAGE, offset },
        'list documents to rebuild',
      )
      for (const d of page.results) keys.push(String(d[ATTR.pk]))
      if (page.results.length < SCAN_PAGE) return keys
    }
  }

  /** Runs writes one at a time. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.check()
    const run = this.queue.then(fn, fn)
    this.queue = run.catch(() => {})
    return run
  }

  private check(): void {
    if (this.closed) throw new UnavailableError('the search index is closed')
  }
}

/** Creates the index with primary key `_pk` unless it exists; refuses an index keyed otherwise. */
async function ensureIndex(backend: MeiliBackend): Promise<void> {
  const uid = backend.options.index
  let primaryKey: string | null | undefined
  try {
    primaryKey = (await backend.client.getRawIndex(uid)).primaryKey
  } catch (err) {
    if (!(err instanceof MeilisearchApiError && err.cause?.code === 'index_not_found'))
      throw translateError(err, 'read the index')
    try {
      await backend.write('create the index', () => backend.client.createIndex(uid, { primaryKey: ATTR.pk }))
    } catch (created) {
      if (!(created instanceof Error && created.message.includes('index_already_exists'))) throw created
    }
    return
  }
  if (primaryKey && primaryKey !== ATTR.pk)
    throw new UnavailableError(
      `The Meilisearch index '${uid}' has primary key '${primaryKey}', not '${ATTR.pk}': it holds something else; choose another index name (MEILI_INDEX)`,
    )
}
