import { ENTITY_TYPE_FIELD, type FacetResult, type FacetValue } from '@catalog/search'
import { ValuePostings } from './value-postings.js'

/** A posting of the facet loader: field name, value, and the ids of the documents having it. */
export type FacetPosting = readonly [string, string, readonly number[]]
/**
 * A row of the document loader: document id, entity type, soft-deleted (1) or not (0), and the
 * number of words in the entity type's best fields (see {@link FacetCache.bestSize}).
 */
export type DocRow = readonly [number, string, number, number]

/** Where the loaders read from. */
export interface FacetSource {
  readonly docs: () => Iterable<DocRow>
  readonly values: () => Iterable<FacetPosting>
}

/**
 * The facet values and visibility (entity type, soft-deleted) of every document, in memory, in
 * columnar arrays indexed by document id: a document's value ids are `vals[start[id] ..
 * start[id] + len[id]]`, the first being its entity type. Facet counts over many hits are then
 * a loop over typed arrays, and a query without a filter checks its scope without reading the
 * documents table. Loaded on first use; kept current by the writer ({@link set}, {@link
 * delete}; a rewritten document's values go to the end, and the arrays are compacted when
 * more than half is garbage); dropped ({@link reset}) when a write fails, reloaded on next use.
 */
export class FacetCache {
  private loadedState: Columns | undefined
  private postings: ValuePostings | undefined
  private readonly ids = new Map<string, number>()
  private readonly values: Array<{ readonly field: string; readonly value: string }> = []
  /** Value ids by field. */
  private readonly fieldValues = new Map<string, number[]>()

  constructor(
    /** Fields counted as facets (every entity type's `addToFilters` fields). */
    readonly fields: ReadonlySet<string>,
    private readonly source: FacetSource,
  ) {}

  /** Records a document's facet values (a no-op until the cache is loaded). */
  set(
    docId: number,
    entityType: string,
    fields: Readonly<Record<string, readonly unknown[]>>,
    bestSize: number,
  ): void {
    const c = this.loadedState
    if (!c) return
    const out: number[] = [this.valueId(ENTITY_TYPE_FIELD, entityType)]
    for (const field of this.fields)
      for (const v of fields[field] ?? []) out.push(this.valueId(field, String(v)))
    this.postings?.changed(docId, c.slice(docId), out)
    c.put(docId, out, fields.removed?.includes(true) === true, bestSize)
  }

  delete(docId: number): void {
    const c = this.loadedState
    if (!c) return
    this.postings?.changed(docId, c.slice(docId), [])
    c.remove(docId)
  }

  reset(): void {
    this.loadedState = undefined
    this.postings = undefined
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
    this.loadedState ??= this.load()
    return this.loadedState
  }

  /**
   * Reads every document, then every facet value's documents, into the columnar arrays: each
   * document's values are counted first and then filled in, through typed arrays, so that the
   * load makes no array or map entry per document (that peaked at ~100 MB at 100k documents).
   */
  private load(): Columns {
    let typeOf = new Int32Array(1024).fill(-1)
    let removed = new Uint8Array(1024)
    let size = new Uint16Array(1024)
    let docs = 0
    for (const [id, type, gone, words] of this.source.docs()) {
      if (id >= typeOf.length) {
        const cap = Math.max(id + 1, typeOf.length * 2)
        typeOf = grown(typeOf, new Int32Array(cap).fill(-1))
        removed = grown(removed, new Uint8Array(cap))
        size = grown(size, new Uint16Array(cap))
      }
      typeOf[id] = this.valueId(ENTITY_TYPE_FIELD, type)
      removed[id] = gone === 1 ? 1 : 0
      size[id] = Math.min(words, 0xffff)
      docs = Math.max(docs, id + 1)
    }
    const counts = new Uint32Array(docs)
    for (let id = 0; id < docs; id++) counts[id] = (typeOf[id] as number) >= 0 ? 1 : 0
    const postings: Array<{ readonly vid: number; readonly ids: Int32Array }> = []
    for (const [field, value, ids] of this.source.values()) {
      const list = Int32Array.from(ids)
      postings.push({ vid: this.valueId(field, value), ids: list })
      for (const id of list)
        if (id < docs && (counts[id] as number) > 0) counts[id] = (counts[id] as number) + 1
    }
    return Columns.build(docs, typeOf, removed, size, counts, postings)
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

/** `into` holding `from` at its start. */
function grown<T extends Int32Array | Uint16Array | Uint8Array>(from: ArrayLike<number>, into: T): T {
  into.set(from)
  return into
}

/** Growable columnar arrays: per document id its value slice and soft-delete flag. */
class Columns {
  start = new Int32Array(1024)
  len = new Uint16Array(1024)
  removed = new Uint8Array(1024)
  size = new Uint16Array(1024)
  vals = new Int32Array(8192)
  private end = 0
  private garbage = 0

  /**
   * The arrays of `docs` documents at once: a document whose type is known (`typeOf` >= 0)
   * gets its type, then the value of each posting that holds it, in posting order (`counts`:
   * how many values each document gets, its type included).
   */
  static build(
    docs: number,
    typeOf: Int32Array,
    removed: Uint8Array,
    size: Uint16Array,
    counts: Uint32Array,
    postings: ReadonlyArray<{ readonly vid: number; readonly ids: Int32Array }>,
  ): Columns {
    const c = new Columns()
    const cap = Math.max(1024, docs)
    c.start = new Int32Array(cap)
    c.len = new Uint16Array(cap)
    c.removed = grown(removed.subarray(0, Math.min(docs, removed.length)), new Uint8Array(cap))
    c.size = grown(size.subarray(0, Math.min(docs, size.length)), new Uint16Array(cap))
    let total = 0
    for (let id = 0; id < docs; id++) {
      c.start[id] = total
      total += Math.min(counts[id] as number, 0xffff)
    }
    c.vals = new Int32Array(Math.max(8192, total))
    c.end = total
    const add = (id: number, vid: number) => {
      const at = c.len[id] as number
      if (at < Math.min(counts[id] as number, 0xffff)) {
        c.vals[(c.start[id] as number) + at] = vid
        c.len[id] = at + 1
      }
    }
    for (let id = 0; id < docs; id++) if ((typeOf[id] as number) >= 0) add(id, typeOf[id] as number)
    for (const { vid, ids } of postings) for (const id of ids) if (id < docs) add(id, vid)
    return c
  }

  put(id: number, list: readonly number[], removed: boolean, size: number): void {
    this.remove(id)
    if (id >= this.len.length) this.growDocs(id + 1)
    if (this.end + list.length > this.vals.length) this.growVals(this.end + list.length)
    this.start[id] = this.end
    this.len[id] = Math.min(list.length, 0xffff)
    this.removed[id] = removed ? 1 : 0
    this.size[id] = Math.min(size, 0xffff)
    for (let i = 0; i < (this.len[id] as number); i++) this.vals[this.end++] = list[i] as number
  }

  /** A document's value ids (empty for an unknown one). */
  slice(id: number): Int32Array {
    if (id >= this.len.length) return new Int32Array(0)
    const from = this.start[id] as number
    return this.vals.slice(from, from + (this.len[id] as number))
  }

  /** Whether a document has a value. */
  has(id: number, vid: number): boolean {
    if (id >= this.len.length) return false
    const from = this.start[id] as number
    const to = from + (this.len[id] as number)
    for (let i = from; i < to; i++) if (this.vals[i] === vid) return true
    return false
  }

  remove(id: number): void {
    if (id >= this.len.length) return
    this.garbage += this.len[id] as number
    this.len[id] = 0
    this.removed[id] = 0
  }

  private growDocs(min: number): void {
    const size = Math.max(min, this.len.length * 2)
    const grow = <T extends Int32Array | Uint16Array | Uint8Array>(a: T, b: T): T => {
      b.set(a)
      return b
    }
    this.start = grow(this.start, new Int32Array(size))
    this.len = grow(this.len, new Uint16Array(size))
    this.removed = grow(this.removed, new Uint8Array(size))
    this.size = grow(this.size, new Uint16Array(size))
  }

  /** Compacts away rewritten slices when they are more than half, else doubles. */
  private growVals(min: number): void {
    const live = this.end - this.garbage
    const next = new Int32Array(Math.max(min - this.garbage, live * 2, 8192) + (min - this.end))
    let at = 0
    for (let id = 0; id < this.len.length; id++) {
      const n = this.len[id] as number
      if (n === 0) continue
      const from = this.start[id] as number
      next.set(this.vals.subarray(from, from + n), at)
      this.start[id] = at
      at += n
    }
    this.vals = next
    this.end = at
    this.garbage = 0
  }
}
