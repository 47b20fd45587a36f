import { ENTITY_TYPE_FIELD, type FacetResult, type FacetValue } from '@catalog/search'
import type { Columns } from './facet-columns.js'
import { FacetLoader, type FacetSource } from './facet-loader.js'
import { ValuePostings } from './value-postings.js'

export type { DocRow, FacetPosting, FacetSource } from './facet-loader.js'

/** Documents written while a load runs that it replays at its end; past this it starts over. */
const MAX_PENDING = 65_536

/** A write made while the columns load: the document's value ids, flag and size, or null (deleted). */
type PendingWrite = { readonly vals: number[]; readonly removed: boolean; readonly size: number } | null

/**
 * The facet values and visibility (entity type, soft-deleted) of every document, in memory, in
 * columnar arrays indexed by document id: a document's value ids are `vals[start[id] ..
 * start[id] + len[id]]`, the first being its entity type. Facet counts over many hits are then
 * a loop over typed arrays, and a query without a filter checks its scope without reading the
 * documents table. Loaded on first use; kept current by the writer ({@link set}, {@link
 * delete}; a rewritten document's values go to the end, and the arrays are compacted when
 * more than half is garbage); dropped ({@link reset}) when a write fails, reloaded on next use.
 * The load runs in steps ({@link warm}) while the index is idle after it opens; a query that
 * needs the columns before then finishes the load itself ({@link queryLoads} counts those).
 */
export class FacetCache {
  private loadedState: Columns | undefined
  private postings: ValuePostings | undefined
  private readonly ids = new Map<string, number>()
  private readonly values: Array<{ readonly field: string; readonly value: string }> = []
  /** Value ids by field. */
  private readonly fieldValues = new Map<string, number[]>()
  private loader: FacetLoader | undefined
  /** Writes made while {@link loader} runs, replayed when it is done (the last one per document). */
  private pending = new Map<number, PendingWrite>()
  /** Loads (or ends of loads) that a query had to do because the columns were not ready. */
  queryLoads = 0

  constructor(
    /** Fields counted as facets (every entity type's `addToFilters` fields). */
    readonly fields: ReadonlySet<string>,
    private readonly source: FacetSource,
  ) {}

  /** Records a document's facet values (a no-op until the cache is loaded or loading). */
  set(
    docId: number,
    entityType: string,
    fields: Readonly<Record<string, readonly unknown[]>>,
    bestSize: number,
  ): void {
    const c = this.loadedState
    if (!c && !this.loader) return
    const out: number[] = [this.valueId(ENTITY_TYPE_FIELD, entityType)]
    for (const field of this.fields)
      for (const v of fields[field] ?? []) out.push(this.valueId(field, String(v)))
    const removed = fields.removed?.includes(true) === true
    if (!c) {
      this.later(docId, { vals: out, removed, size: bestSize })
      return
    }
    this.postings?.changed(docId, c.slice(docId), out)
    c.put(docId, out, removed, bestSize)
  }

  delete(docId: number): void {
    const c = this.loadedState
    if (!c) {
      this.later(docId, null)
      return
    }
    this.postings?.changed(docId, c.slice(docId), [])
    c.remove(docId)
  }

  reset(): void {
    this.loadedState = undefined
    this.postings = undefined
    this.loader = undefined
    this.pending = new Map()
  }

  /** True once the columns are loaded. */
  get ready(): boolean {
    return this.loadedState !== undefined
  }

  /**
   * Loads the columns until `deadline` (a `performance.now()` time) has passed, at least one
   * step; true once they are loaded.
   */
  warm(deadline: number): boolean {
    if (this.loadedState) return true
    this.loader ??= new FacetLoader(this.source, this.fields, (f, v) => this.valueId(f, v))
    const columns = this.loader.step(deadline)
    if (!columns) return false
    // What was written while the load ran is in the rows it read or not: written again, it is current.
    for (const [id, write] of this.pending) {
      if (write) columns.put(id, write.vals, write.removed, write.size)
      else columns.remove(id)
    }
    this.loader = undefined
    this.pending = new Map()
    this.loadedState = columns
    return true
  }

  /** The values a field has had (value id and value), for {@link posting}. */
  valuesOf(field: string): Array<readonly [number, string]> {
    this.loaded()
    return (this.fieldValues.get(field) ?? []).map((vid) => [
      vid,
      (this.values[vid] as { value: string }).value,
    ])
  }

  /** The documents having a value (an id of {@link valuesOf}), ascending. */
  posting(valueId: number): Int32Array {
    const c = this.loaded()
    this.postings ??= new ValuePostings(
      (vid) => {
        const out: number[] = []
        for (let id = 0; id < c.len.length; id++) if (c.has(id, vid)) out.push(id)
        return out
      },
      (id, vid) => c.has(id, vid),
    )
    return this.postings.get(valueId)
  }

  /**
   * A test of whether a document is in a search's scope (one of the entity types, and not
   * soft-deleted unless asked for), from memory.
   */
  scope(entityTypes: readonly string[], includeRemoved: boolean): (docId: number) => boolean {
    const c = this.loaded()
    const wanted = new Set(entityTypes.map((t) => this.ids.get(`${ENTITY_TYPE_FIELD}\u0000${t}`) ?? -1))
    return (id) => {
      if (id >= c.len.length || c.len[id] === 0) return false
      if (!includeRemoved && c.removed[id] === 1) return false
      return wanted.has(c.vals[c.start[id] as number] as number)
    }
  }

  /**
   * How many words a document has in its entity type's best fields (highest boost: a
   * dataset's `id`, `name`, `qualifiedName`), for ranking: as BM25's length norm, a match
   * in a short name is the better one. 0 for an unknown document.
   */
  bestSize(docId: number): number {
    const c = this.loaded()
    return docId < c.size.length ? (c.size[docId] as number) : 0
  }

  /** Counts the facet values of the given documents; buckets by count, then value. */
  count(
    docIds: Iterable<number>,
    facets: ReadonlyArray<{ readonly field: string; readonly displayName: string }>,
    maxValues: number,
  ): FacetResult[] {
    const { start, len, vals } = this.loaded()
    const counts = new Uint32Array(this.values.length)
    for (const id of docIds) {
      const n = id < len.length ? (len[id] as number) : 0
      const from = start[id] as number
      for (let i = from; i < from + n; i++) {
        const vid = vals[i] as number
        counts[vid] = (counts[vid] as number) + 1
      }
    }
    const byField = new Map<string, FacetValue[]>()
    for (let vid = 0; vid < counts.length; vid++) {
      const n = counts[vid] as number
      if (n === 0) continue
      const { field, value } = this.values[vid] as { field: string; value: string }
      const list = byField.get(field) ?? []
      list.push({ value, count: n })
      byField.set(field, list)
    }
    const out: FacetResult[] = []
    for (const f of facets) {
      const values = byField.get(f.field)
      if (!values || values.length === 0) continue
      values.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      out.push({ field: f.field, displayName: f.displayName, values: values.slice(0, maxValues) })
    }
    return out
  }

  /** Values held and a rough size in bytes. */
  size(): { values: number; bytes: number } {
    const c = this.loadedState
    const bytes =
      this.values.length * 64 +
      (c ? c.vals.byteLength + c.len.length * 11 : 0) +
      (this.postings?.size() ?? 0) * 4
    return { values: this.values.length, bytes }
  }

  private loaded(): Columns {
    if (!this.loadedState) {
      this.queryLoads++
      this.warm(Number.POSITIVE_INFINITY)
    }
    return this.loadedState as Columns
  }

  /** Keeps a write for the running load to replay (none runs: nothing to keep). */
  private later(docId: number, write: PendingWrite): void {
    if (!this.loader) return
    this.pending.set(docId, write)
    if (this.pending.size > MAX_PENDING) {
      // Writes outpace the load: start it over later rather than keep them all.
      this.loader = undefined
      this.pending = new Map()
    }
  }

  private valueId(field: string, value: string): number {
    const key = `${field}\u0000${value}`
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.values.length
      this.values.push({ field, value })
      this.ids.set(key, id)
      const list = this.fieldValues.get(field)
      if (list) list.push(id)
      else this.fieldValues.set(field, [id])
    }
    return id
  }
}
