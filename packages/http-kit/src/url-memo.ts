/** Characters of URLs remembered at most (all are dropped past it): about 10,000 URLs of 100. */
const DEFAULT_MAX_CHARS = 1024 * 1024

/**
 * Remembers what a route worked out from a request URL alone (the path key, Rest.li lists, the
 * validated query), for URLs that come again: a URL seen before is answered with the same
 * result, whose strings are the same objects each time, so maps keyed by them find them
 * without hashing them again. A parse that throws is not remembered. Its memory is bounded by
 * the length of the URLs it holds (a result is made of the URL's parts), not by their number.
 */
export class UrlMemo<T> {
  private readonly known = new Map<string, T>()
  private chars = 0

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  /** What `parse` gave for `url` before, else `parse()`'s answer, remembered. */
  get(url: string, parse: () => T): T {
    const hit = this.known.get(url)
    if (hit !== undefined) return hit
    const parsed = parse()
    if (this.chars + url.length > this.maxChars) {
      this.known.clear()
      this.chars = 0
    }
    this.known.set(url, parsed)
    this.chars += url.length
    return parsed
  }
}
