/**
 * Per facet value, the ids of the documents having it, ascending (a posting list): built on
 * first use from a scan of the facet cache's columns, then kept current as documents change
 * (new ids appended, lists touched by a change rebuilt from themselves on next use, never from
 * a scan), so a lone `field:value` reads its hits from memory.
 */
export class ValuePostings {
  private readonly lists = new Map<number, Int32Array>()
  private readonly added = new Map<number, number[]>()
  private readonly stale = new Set<number>()

  constructor(
    /** Every document having the value, ascending (a scan of the columns). */
    private readonly scan: (valueId: number) => number[],
    /** Whether a document has the value now. */
    private readonly has: (docId: number, valueId: number) => boolean,
  ) {}

  /** The documents having a value, ascending. */
  get(valueId: number): Int32Array {
    let list = this.lists.get(valueId)
    if (!list) {
      list = Int32Array.from(this.scan(valueId))
      this.lists.set(valueId, list)
      return list
    }
    const more = this.added.get(valueId)
    if (!more && !this.stale.has(valueId)) return list
    const all = new Int32Array(list.length + (more?.length ?? 0))
    all.set(list)
    if (more) all.set(more, list.length)
    all.sort()
    let n = 0
    for (let i = 0; i < all.length; i++) {
      const id = all[i] as number
      if ((n > 0 && all[n - 1] === id) || !this.has(id, valueId)) continue
      all[n++] = id
    }
    list = all.slice(0, n)
    this.lists.set(valueId, list)
    this.added.delete(valueId)
    this.stale.delete(valueId)
    return list
  }

  /** Records that a document's values went from `before` to `after` (only lists built so far care). */
  changed(docId: number, before: ArrayLike<number>, after: ArrayLike<number>): void {
    if (this.lists.size === 0) return
    for (let i = 0; i < before.length; i++) {
      const vid = before[i] as number
      if (this.lists.has(vid)) this.stale.add(vid)
    }
    for (let i = 0; i < after.length; i++) {
      const vid = after[i] as number
      if (!this.lists.has(vid)) continue
      const more = this.added.get(vid)
      if (!more) this.added.set(vid, [docId])
      else if (more.length < Math.max(1024, this.lists.get(vid)?.length ?? 0)) more.push(docId)
      else {
        // More written than the list holds: scanning again on next use is cheaper than merging.
        this.lists.delete(vid)
        this.added.delete(vid)
        this.stale.delete(vid)
      }
    }
  }

  /** Ids held, for the memory estimate. */
  size(): number {
    let n = 0
    for (const list of this.lists.values()) n += list.length
    return n
  }
}
