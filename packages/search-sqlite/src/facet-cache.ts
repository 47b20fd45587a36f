import { ENTITY_TYPE_FIELD, type FacetResult, type FacetValue } from '@catalog/search'

/** A row of the facet loader: document id, field name, value. */
export type FacetRow = readonly [number, string, string]

/**
 * The facet values of every document, in memory, so facet counts over many hits are a loop
 * over the hits instead of a join. Loaded on first use from the index; kept current by the
 * writer ({@link set}, {@link delete}); dropped ({@link reset}) when a write fails, and
 * reloaded on next use.
 */
export class FacetCache {
  private docs: Map<number, Int32Array> | undefined
  private readonly ids = new Map<string, number>()
  private readonly values: Array<{ readonly field: string; readonly value: string }> = []

  constructor(
    /** Fields counted as facets (every entity type's `addToFilters` fields). */
    readonly fields: ReadonlySet<string>,
    private readonly load: () => Iterable<FacetRow>,
  ) {}

  /** Records a document's facet values (a no-op until the cache is loaded). */
  set(docId: number, entityType: string, fields: Readonly<Record<string, readonly unknown[]>>): void {
    if (!this.docs) return
    this.docs.set(docId, this.encode(entityType, fields))
  }

  delete(docId: number): void {
    this.docs?.delete(docId)
  }

  reset(): void {
    this.docs = undefined
  }

  /** Counts the facet values of the given documents; buckets by count, then value. */
  count(
    docIds: Iterable<number>,
    facets: ReadonlyArray<{ readonly field: string; readonly displayName: string }>,
    maxValues: number,
  ): FacetResult[] {
    const docs = this.loaded()
    const counts = new Uint32Array(this.values.length)
    for (const id of docIds) {
      const vids = docs.get(id)
      if (!vids) continue
      for (let i = 0; i < vids.length; i++) {
        const vid = vids[i] as number
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
    let bytes = this.values.length * 64
    for (const v of this.docs?.values() ?? []) bytes += 96 + v.byteLength
    return { values: this.values.length, bytes }
  }

  private loaded(): Map<number, Int32Array> {
    if (!this.docs) {
      const acc = new Map<number, number[]>()
      for (const [docId, field, value] of this.load()) {
        const list = acc.get(docId) ?? []
        list.push(this.valueId(field, value))
        acc.set(docId, list)
      }
      this.docs = new Map([...acc].map(([id, list]) => [id, Int32Array.from(list)]))
    }
    return this.docs
  }

  private encode(entityType: string, fields: Readonly<Record<string, readonly unknown[]>>): Int32Array {
    const out: number[] = [this.valueId(ENTITY_TYPE_FIELD, entityType)]
    for (const field of this.fields)
      for (const v of fields[field] ?? []) out.push(this.valueId(field, String(v)))
    return Int32Array.from(out)
  }

  private valueId(field: string, value: string): number {
    const key = `${field}\u0000${value}`
    let id = this.ids.get(key)
    if (id === undefined) {
      id = this.values.length
      this.values.push({ field, value })
      this.ids.set(key, id)
    }
    return id
  }
}
