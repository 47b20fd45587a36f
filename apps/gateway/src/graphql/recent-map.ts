/**
 * A Map that keeps only the `limit` most recently set entries (the oldest goes first). A request's
 * caches of entities use it: a page of 10,000 results kept every entity read and mapped until
 * the answer was written, so each young-generation garbage collection copied them all (tens of
 * milliseconds a time) and they were promoted; once a result is completed its entity is garbage.
 * An entity evicted and asked for again is read again.
 */
export class RecentMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super()
  }

  override set(key: K, value: V): this {
    super.delete(key)
    super.set(key, value)
    if (this.size > this.limit) {
      const oldest = this.keys().next()
      if (!oldest.done) this.delete(oldest.value)
    }
    return this
  }
}
