import type { AutocompleteRequest, SearchRequest, SearchSchema } from '@catalog/search'
import type Database from 'better-sqlite3'
import type { FacetCache } from './facet-cache.js'
import type { PartsCodec } from './parts-codec.js'
import { practiceQueries } from './practice-queries.js'
import type { Vocabulary } from './vocabulary.js'

/** What the warm-up reads and runs through its index. */
export interface WarmUpHost {
  readonly db: Database.Database
  readonly schema: SearchSchema
  readonly codec: PartsCodec
  readonly facets: FacetCache
  readonly vocabulary: Vocabulary
  readonly bestFields: (entityType: string) => ReadonlySet<string>
  /** Runs `fn` in one read transaction of the index (caches reset when another connection wrote). */
  readonly read: <T>(fn: () => T) => T
  readonly search: (request: SearchRequest) => unknown
  readonly autocomplete: (request: AutocompleteRequest) => unknown
}

/**
 * Loads an index's in-memory query caches (facet columns, words) in small steps while the index
 * is idle after it opens, then runs its {@link practiceQueries}, one a step, so the first real
 * queries find the caches ready and the statements prepared.
 */
export class IndexWarmUp {
  /** The practice queries still to run (undefined before they were made). */
  private practice: Array<SearchRequest | AutocompleteRequest> | undefined

  constructor(private readonly host: WarmUpHost) {}

  /**
   * Loads the caches for about `budgetMs`, at least one step, in a read of its own, then runs one
   * practice query; true once all is done. A query that comes before the end finishes what is
   * left of the loads. Writes may run between steps.
   */
  step(budgetMs: number): boolean {
    const h = this.host
    const deadline = performance.now() + budgetMs
    if (!h.read(() => h.facets.warm(deadline) && h.vocabulary.warm(deadline))) return false
    this.practice ??= practiceQueries(h.db, h.schema, h.codec, h.vocabulary.common, h.bestFields)
    const r = this.practice.shift()
    if (!r) return true
    try {
      if (typeof r.query === 'string') h.read(() => h.autocomplete(r as AutocompleteRequest))
      else h.read(() => h.search(r as SearchRequest))
    } catch {
      // Its answer does not matter.
    }
    return this.practice.length === 0
  }

  /** Whether the caches are loaded, and how many loads queries had to do. */
  state(): { warm: boolean; queryLoads: number } {
    const h = this.host
    return {
      warm: h.facets.ready && h.vocabulary.ready,
      queryLoads: h.facets.queryLoads + h.vocabulary.queryLoads,
    }
  }
}
