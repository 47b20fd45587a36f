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
    const segments = String(raw)
      .split('/')
      .filter((x) => x !== '')
    let node = ''
    for (const segment of segments) {
      below.add(node)
      node = `${node}/${segment}`
      at.add(node)
    }
  }
  for (const node of new Set([...at, ...below])) {
    const key = `${entityType}\u0000${node}`
    const delta = deltas.get(key) ?? [0, 0]
    if (at.has(node)) delta[0] += sign
    if (below.has(node)) delta[1] += sign
    deltas.set(key, delta)
  }
}
