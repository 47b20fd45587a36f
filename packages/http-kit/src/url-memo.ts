/** URLs remembered at most (all are dropped past it). */
const DEFAULT_MAX_URLS = 10_000

/**
 * Remembers what a route worked out from a request URL alone (the path key, Rest.li lists, the
 * validated query), for URLs that come again: a URL seen before is answered with the same
 * result, whose strings are the same objects each time, so maps keyed by them find them
 * without hashing them again. A parse that throws is not remembered.
 */
export class UrlMemo<T> {
  private readonly known = new Map<string, T>()

  constructor(private readonly maxUrls = DEFAULT_MAX_URLS) {}

  /** What `parse` gave for `url` before, else `parse()`'s answer, remembered. */
  get(url: string, parse: () => T): T {
    const hit = this.known.get(url)
    if (hit !== undefined) return hit
    const parsed = parse()
    if (this.known.size >= this.maxUrls) this.known.clear()
    this.known.set(url, parsed)
    return parsed
  }
}
