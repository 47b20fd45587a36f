import type { FieldValue } from '@catalog/search'

/** Browse-count changes by entity type and node (`type\0node`): [at or under, strictly under]. */
export type BrowseDeltas = Map<string, [number, number]>

/**
 * Adds (`sign` 1) or takes away (-1) a visible document's browse paths to `deltas`: every prefix
 * of a path counts it as at-or-under, every proper prefix (the root `''` included) as strictly
 * under.
 */
export function addBrowseCounts(
  deltas: BrowseDeltas,
  entityType: string,
  paths: readonly FieldValue[] | undefined,
  sign: 1 | -1,
): void {
  if (!paths || paths.length === 0) return
  const at = new Set<string>()
  const below = new Set<string>()
  for (const raw of paths) {
    const path = String(raw)
    let node = ''
    // Each `/`-separated segment (empty ones skipped) extends the node by one level.
    for (let from = 0; from <= path.length; ) {
      let to = path.indexOf('/', from)
      if (to === -1) to = path.length
      if (to > from) {
        below.add(node)
        node = `${node}/${path.slice(from, to)}`
        at.add(node)
      }
      from = to + 1
    }
  }
  for (const node of at) bump(deltas, `${entityType}\u0000${node}`, 0, sign)
  for (const node of below) bump(deltas, `${entityType}\u0000${node}`, 1, sign)
}

function bump(deltas: BrowseDeltas, key: string, which: 0 | 1, sign: 1 | -1): void {
  const delta = deltas.get(key)
  if (delta) delta[which] += sign
  else deltas.set(key, which === 0 ? [sign, 0] : [0, sign])
}
