import type { BrowseV2Group } from './port.js'

/** DataHub's separator of browse path v2 entries in a search document (U+241F). */
export const BROWSE_V2_DELIMITER = '\u241F'

/** Most groups browseV2 counts under one path (DataHub's `ESBrowseDAO.AGGREGATION_MAX_SIZE`). */
export const MAX_BROWSE_V2_GROUPS = 2000

/**
 * The indexed value of a `browsePathsV2` path: its entries' ids joined, each after the
 * delimiter (`␟urn:li:container:db␟schema`), as DataHub's `SearchDocumentTransformer` stores
 * `browsePathV2`; undefined for an empty path.
 */
export function browsePathV2Value(ids: readonly string[]): string | undefined {
  return ids.length === 0 ? undefined : browsePathV2Node(ids)
}

/** The node of a browsed path given as its ids: `␟a␟b`, or `` for the root. */
export function browsePathV2Node(path: readonly string[]): string {
  return path.map((id) => `${BROWSE_V2_DELIMITER}${id}`).join('')
}

/**
 * The browseV2 groups under `node`, counted from the indexed paths of the matching documents
 * (for adapters that scan documents rather than aggregate): each group is the next entry of
 * the paths strictly under the node, counted once per document; `hasSubGroups` when some path
 * goes deeper than the group. Groups by count descending, then name; `total` is the number of
 * documents strictly under the node.
 */
export function browseV2Groups(
  documents: Iterable<readonly string[]>,
  node: string,
): { groups: BrowseV2Group[]; total: number } {
  const prefix = `${node}${BROWSE_V2_DELIMITER}`
  const counts = new Map<string, { count: number; hasSubGroups: boolean }>()
  let total = 0
  for (const paths of documents) {
    const seen = new Map<string, boolean>()
    for (const path of paths) {
      if (!path.startsWith(prefix)) continue
      const rest = path.slice(prefix.length)
      const cut = rest.indexOf(BROWSE_V2_DELIMITER)
      const name = cut < 0 ? rest : rest.slice(0, cut)
      if (name === '') continue
      seen.set(name, seen.get(name) === true || cut >= 0)
    }
    if (seen.size > 0) total++
    for (const [name, deeper] of seen) {
      const c = counts.get(name) ?? { count: 0, hasSubGroups: false }
      c.count++
      c.hasSubGroups ||= deeper
      counts.set(name, c)
    }
  }
  const groups = [...counts]
    .map(([name, c]) => ({ name, count: c.count, hasSubGroups: c.hasSubGroups }))
    .sort(byCountThenName)
    .slice(0, MAX_BROWSE_V2_GROUPS)
  return { groups, total }
}

/** DataHub's bucket order: count descending, then name (code point order). */
export function byCountThenName(a: BrowseV2Group, b: BrowseV2Group): number {
  return b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
}
