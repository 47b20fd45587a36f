/** The Meilisearch pages covering a `start`/`count` window, and what to keep of their hits. */
export interface PageWindow {
  /** Finite-pagination pages to fetch, in order (their hits concatenated). */
  readonly pages: ReadonlyArray<{ readonly page: number; readonly hitsPerPage: number }>
  /** Hits to drop from the concatenation, then how many to keep. */
  readonly skip: number
  readonly take: number
}

/**
 * Finite pagination (`page`/`hitsPerPage`) is the one that gives exhaustive totals, but
 * pages are aligned on their size. A window `[start, start + count)` is one page when
 * `start` is a multiple of `count`, else it spans two consecutive pages of `count` hits
 * (fetched in one multi-search) and is cut out of them. `count` 0 asks for the total only.
 */
export function pageWindow(start: number, count: number): PageWindow {
  if (count <= 0) return { pages: [{ page: 1, hitsPerPage: 0 }], skip: 0, take: 0 }
  const first = Math.floor(start / count)
  const skip = start - first * count
  const pages = [{ page: first + 1, hitsPerPage: count }]
  if (skip > 0) pages.push({ page: first + 2, hitsPerPage: count })
  return { pages, skip, take: count }
}
