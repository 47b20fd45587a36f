/**
 * The leaves of an aspect value along an annotation path already split into segments: what
 * `entriesAt(value, path)` of `@catalog/core` finds, in the same order, without their pointers
 * (a search document needs the values only, and building each leaf's pointer string costs more
 * than finding it). Segments are property names, `*` visits every array element or map value
 * (a single value met there is itself),
 * `$key` gives a map's keys, and an array met where a property is expected (or at the path's
 * end) is walked element by element.
 */
export function pathValues(value: unknown, segments: readonly string[]): unknown[] {
  const out: unknown[] = []
  walk(value, segments, 0, out)
  return out
}

function walk(node: unknown, segments: readonly string[], i: number, out: unknown[]): void {
  if (node === undefined || node === null) return
  const segment = segments[i]
  if (Array.isArray(node) && segment !== '*') {
    for (const item of node) walk(item, segments, i, out)
    return
  }
  if (segment === undefined) {
    out.push(node)
    return
  }
  if (typeof node !== 'object') {
    // A single value where `*` expects a collection is that value (DataHub's model annotates
    // single URNs so: `parentTemplate/*`).
    if (segment === '*') walk(node, segments, i + 1, out)
    return
  }
  if (segment === '$key') {
    for (const k of Object.keys(node)) out.push(k)
    return
  }
  if (segment === '*') {
    for (const child of Array.isArray(node) ? node : Object.values(node)) walk(child, segments, i + 1, out)
    return
  }
  walk((node as Record<string, unknown>)[segment], segments, i + 1, out)
}
