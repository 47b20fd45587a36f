import { UnavailableError } from '@catalog/core'
import {
  type DocumentsQuery,
  type EnqueuedTaskPromise,
  type Index,
  Meilisearch,
  MeilisearchApiError,
  type MultiSearchQuery,
  type RecordAny,
  type SearchParams,
  type SearchResponse,
  type Task,
} from 'meilisearch'
import { taskError, translateError } from './errors.js'

export interface BackendOptions {
  /** Meilisearch's URL (`http://localhost:7700`). */
  readonly url: string
  /** API key (the master key, or a key allowed to search, write documents and settings). */
  readonly apiKey?: string
  /** The index uid. */
  readonly index: string
  /** Timeout of one HTTP request, ms (default 30 s). */
  readonly requestTimeoutMs?: number
  /** How long a write waits for its task, ms (default 120 s; settings changes wait 10 min). */
  readonly taskTimeoutMs?: number
}

/** A finite-pagination search answer (exhaustive `totalHits`). */
export type PagedResponse = SearchResponse<RecordAny, { hitsPerPage: number }>

const SETTINGS_TIMEOUT_MS = 600_000

/**
 * The adapter's one door to Meilisearch: every call goes through here so that every client
 * error becomes a domain error, and every write waits for its task and checks that it
 * succeeded before returning.
 */
export class MeiliBackend {
  readonly client: Meilisearch
  readonly index: Index
  private readonly taskTimeoutMs: number

  constructor(readonly options: BackendOptions) {
    this.client = new Meilisearch({
      host: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      timeout: options.requestTimeoutMs ?? 30_000,
      defaultWaitOptions: { timeout: options.taskTimeoutMs ?? 120_000, interval: 25 },
    })
    this.index = this.client.index(options.index)
    this.taskTimeoutMs = options.taskTimeoutMs ?? 120_000
  }

  /** Checks the server answers and is healthy; a clear {@link UnavailableError} otherwise. */
  async verify(): Promise<string> {
    try {
      await this.client.health()
      return (await this.client.getVersion()).pkgVersion
    } catch (err) {
      const e = translateError(err, 'check the server')
      throw new UnavailableError(`Cannot use Meilisearch at ${this.options.url} (MEILI_URL): ${e.message}`, {
        cause: err,
      })
    }
  }

  /** One finite-pagination search (exhaustive totals). */
  async search(params: SearchParams & { hitsPerPage: number }, doing = 'search'): Promise<PagedResponse> {
    return this.call(doing, () => this.index.search<RecordAny, typeof params>(params.q ?? '', params))
  }

  /** Several searches of this index in one request (each with exhaustive totals). */
  async multiSearch(
    queries: ReadonlyArray<SearchParams & { hitsPerPage: number }>,
    doing = 'search',
  ): Promise<PagedResponse[]> {
    if (queries.length === 0) return []
    const body = { queries: queries.map((q) => ({ ...q, indexUid: this.options.index }) as MultiSearchQuery) }
    const res = await this.call(doing, () => this.client.multiSearch(body))
    return res.results as unknown as PagedResponse[]
  }

  /** A page of documents (`filter` uses `POST /documents/fetch`). */
  async documents<T extends RecordAny>(query: DocumentsQuery<T>, doing = 'read documents') {
    return this.call(doing, () => this.index.getDocuments<T>(query))
  }

  /** One document by primary key, or undefined. */
  async document<T extends RecordAny>(pk: string, fields: string[], doing = 'read a document') {
    try {
      return await this.index.getDocument<T>(pk, { fields: fields as never })
    } catch (err) {
      if (err instanceof MeilisearchApiError && err.cause?.code === 'document_not_found') return undefined
      throw translateError(err, doing)
    }
  }

  /** Enqueues a write and waits for its task; a failed or cancelled task is an error. */
  async write(doing: string, enqueue: () => EnqueuedTaskPromise, timeoutMs?: number): Promise<Task> {
    const task = await this.call(doing, () =>
      enqueue().waitTask({ timeout: timeoutMs ?? this.taskTimeoutMs, interval: 25 }),
    )
    if (task.status !== 'succeeded') throw taskError(task, doing)
    return task
  }

  /** A settings change, with the longer timeout re-indexing may need. */
  async writeSettings(doing: string, enqueue: () => EnqueuedTaskPromise): Promise<Task> {
    return this.write(doing, enqueue, SETTINGS_TIMEOUT_MS)
  }

  /** Runs a client call, translating its errors. */
  async call<T>(doing: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      throw translateError(err, doing)
    }
  }
}
