import type { SearchRequest } from '@catalog/search'
import { concatIds } from './id-reads.js'
import type { Sql } from './query-compiler.js'
import type { QueryContext } from './query-context.js'

/** Largest read of one step (ids crossing into JavaScript at once). */
const MAX_CHUNK = 4096

/**
 * The matches of a select that yields `doc_id` in ascending order (an FTS5 match), those in the
 * request's scope and filter, read on demand in growing steps (each `doc_id > <last read>
 * LIMIT n`, which FTS5 starts with a seek and stops at the limit): a caller that needs the first
 * few matches, or those up to some id, reads little more than those, however long the words'
 * lists are in the whole index.
 */
export class MatchStream {
  /** The matches read so far, in scope, ascending. */
  readonly ids: number[] = []
  /** Rows the select yielded so far, in scope or not. */
  rows = 0
  private after = -1
  private ended = false

  constructor(
    private readonly ctx: QueryContext,
    private readonly req: Pick<SearchRequest, 'entityTypes' | 'includeRemoved' | 'filter'>,
    private readonly where: Sql,
    private readonly select: Sql,
    private readonly inScope: (id: number) => boolean,
    /** Rows asked for by the first step; each next step asks four times as many. */
    private chunk: number,
    /** True when the select is known to yield nothing: nothing is read. */
    none = false,
  ) {
    this.ended = none
  }

  /** True once every match has been read. */
  get done(): boolean {
    return this.ended
  }

  /** Reads until at least `n` matches are held, or every match. */
  fill(n: number): void {
    while (!this.ended && this.ids.length < n) this.next()
  }

  /** Reads until every match up to id `bound` is held. */
  through(bound: number): void {
    while (!this.ended && this.after < bound) this.next()
  }

  /** Reads one more step, of at most `max` rows. */
  next(max = MAX_CHUNK): void {
    if (this.ended) return
    const limit = Math.max(1, Math.min(this.chunk, max))
    this.chunk = Math.min(this.chunk * 4, MAX_CHUNK)
    const q = this.select
    if (this.req.filter.or.length > 0) {
      // Filtered: the documents are joined, and the limit counts rows that pass.
      const ids = concatIds(
        this.ctx.statement,
        `SELECT q.doc_id FROM (${q.sql}) q CROSS JOIN docs d ON d.id = q.doc_id WHERE q.doc_id > ? AND ${this.where.sql} LIMIT ?`,
        [...q.params, this.after, ...this.where.params, limit],
      )
      this.ids.push(...ids)
      this.rows += ids.length
      this.after = ids.at(-1) ?? this.after
      this.ended = ids.length < limit
      return
    }
    const ids = concatIds(this.ctx.statement, `SELECT doc_id FROM (${q.sql}) WHERE doc_id > ? LIMIT ?`, [
      ...q.params,
      this.after,
      limit,
    ])
    for (const id of ids) if (this.inScope(id)) this.ids.push(id)
    this.rows += ids.length
    this.after = ids.at(-1) ?? this.after
    this.ended = ids.length < limit
  }
}
