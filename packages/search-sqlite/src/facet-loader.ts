import { ENTITY_TYPE_FIELD } from '@catalog/search'
import { Columns, grown } from './facet-columns.js'

/** A posting of the facet loader: field name, value, and the ids of the documents having it. */
export type FacetPosting = readonly [string, string, readonly number[]]
/**
 * A row of the document loader: document id, entity type, soft-deleted (1) or not (0), and the
 * number of words in the entity type's best fields (see `FacetCache.bestSize`).
 */
export type DocRow = readonly [number, string, number, number]

/** Where the loader reads from, a piece at a time. */
export interface FacetSource {
  /** Up to `limit` documents with ids from `from` on, ascending. */
  readonly docs: (from: number, limit: number) => Iterable<DocRow>
  /**
   * Values of a facet field with the documents having it, after `after` (undefined: from the
   * first) up to about `rows` rows, and where to go on from (undefined: the field is done).
   */
  readonly values: (
    field: string,
    after: string | undefined,
    rows: number,
  ) => { readonly postings: Iterable<FacetPosting>; readonly last: string | undefined }
}

/** Rows a first read takes; later reads grow or shrink to take about {@link STEP_MS}. */
const FIRST_CHUNK = 1024
const MIN_CHUNK = 64
const MAX_CHUNK = 65_536
/** What one read of documents should cost, ms: short enough for a query to wait behind it. */
const STEP_MS = 4

/**
 * Reads the facet cache's columns in steps: the documents in id ranges (sized so that a read
 * takes a few ms), then each facet field's values (in ranges of values sized alike), then builds the columnar
 * arrays. {@link step} goes on until a deadline, so the work can be spread over idle moments
 * (warming up after the index opens) or done at once (a query that needs the columns now); either
 * way the total is what one load costs. Writes made while it runs are the cache's to replay.
 */
export class FacetLoader {
  private typeOf = new Int32Array(1024).fill(-1)
  private removed = new Uint8Array(1024)
  private size = new Uint16Array(1024)
  private docs = 0
  private nextId = 0
  private chunk = FIRST_CHUNK
  private valueRows = FIRST_CHUNK
  /** Set once a query needs the columns: no more sizing of pieces to a step. */
  private urgent = false
  /** Where the current field's values go on from. */
  private fieldAfter: string | undefined
  private counts: Uint32Array | undefined
  private readonly fieldsLeft: string[]
  private readonly postings: Array<{ readonly vid: number; readonly ids: Int32Array }> = []

  constructor(
    private readonly source: FacetSource,
    fields: ReadonlySet<string>,
    /** The cache's id of a (field, value). */
    private readonly valueId: (field: string, value: string) => number,
  ) {
    this.fieldsLeft = [...fields]
  }

  /**
   * Loads until done or until `deadline` (a `performance.now()` time) has passed, whichever
   * comes first; at least one piece per call. Returns the columns once everything is read.
   */
  step(deadline: number): Columns | undefined {
    if (deadline === Number.POSITIVE_INFINITY) {
      // Needed now (by a query): the rest in the largest pieces, a field's values in one read.
      this.urgent = true
      this.chunk = MAX_CHUNK
      this.valueRows = Number.MAX_SAFE_INTEGER
    }
    while (!this.counts) {
      this.readDocs()
      if (performance.now() >= deadline) return undefined
    }
    while (this.fieldsLeft.length > 0) {
      this.readValues(this.fieldsLeft[0] as string)
      if (this.fieldsLeft.length > 0 && performance.now() >= deadline) return undefined
    }
    return Columns.build(this.docs, this.typeOf, this.removed, this.size, this.counts, this.postings)
  }

  /** The next range of documents; at the end, each document's value count starts at 1 (its type). */
  private readDocs(): void {
    const started = performance.now()
    let n = 0
    for (const [id, type, gone, words] of this.source.docs(this.nextId, this.chunk)) {
      if (id >= this.typeOf.length) {
        const cap = Math.max(id + 1, this.typeOf.length * 2)
        this.typeOf = grown(this.typeOf, new Int32Array(cap).fill(-1))
        this.removed = grown(this.removed, new Uint8Array(cap))
        this.size = grown(this.size, new Uint16Array(cap))
      }
      this.typeOf[id] = this.valueId(ENTITY_TYPE_FIELD, type)
      this.removed[id] = gone === 1 ? 1 : 0
      this.size[id] = Math.min(words, 0xffff)
      this.docs = Math.max(this.docs, id + 1)
      this.nextId = id + 1
      n++
    }
    if (n < this.chunk) {
      const counts = new Uint32Array(this.docs)
      for (let id = 0; id < this.docs; id++) counts[id] = (this.typeOf[id] as number) >= 0 ? 1 : 0
      this.counts = counts
      return
    }
    if (!this.urgent) this.chunk = sized(this.chunk, performance.now() - started)
  }

  /** The next range of a field's values; the field is done after its last. */
  private readValues(field: string): void {
    const started = performance.now()
    const counts = this.counts as Uint32Array
    const docs = this.docs
    const { postings, last } = this.source.values(field, this.fieldAfter, this.valueRows)
    this.fieldAfter = last
    if (last === undefined) this.fieldsLeft.shift()
    if (!this.urgent) this.valueRows = sized(this.valueRows, performance.now() - started)
    for (const [name, value, ids] of postings) {
      const list = Int32Array.from(ids)
      this.postings.push({ vid: this.valueId(name, value), ids: list })
      for (const id of list)
        if (id < docs && (counts[id] as number) > 0) counts[id] = (counts[id] as number) + 1
    }
  }
}

/** The next read's size: doubled after a quick read, halved after a slow one. */
function sized(rows: number, ms: number): number {
  if (ms < STEP_MS / 2) return Math.min(MAX_CHUNK, rows * 2)
  if (ms > STEP_MS * 2) return Math.max(MIN_CHUNK, Math.floor(rows / 2))
  return rows
}
