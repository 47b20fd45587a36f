/** A leaf found by {@link entriesAt}: its JSON pointer (`/owners/0/owner`) and value. */
export interface PathEntry {
  readonly pointer: string
  readonly value: unknown
}

/**
 * Walks an aspect value along an annotation path (`owners/*\/owner`): segments are property
 * names, `*` visits every array element or map value (a single value met there is itself),
 * `$key` gives a map's keys, and an array met where a property is expected is walked element by
 * element. Returns the leaves found with their pointers.
 */
export function entriesAt(value: unknown, path: string): PathEntry[] {
  const out: PathEntry[] = []
  walk(value, path.length === 0 ? [] : path.split('/'), 0, '', out)
  return out
}

/** The leaves of {@link entriesAt} without their pointers. */
export function valuesAt(value: unknown, path: string): unknown[] {
  return entriesAt(value, path).map((e) => e.value)
}

function walk(
  node: unknown,
  segments: readonly string[],
  i: number,
  pointer: string,
  out: PathEntry[],
): void {
  if (node === undefined || node === null) return
  if (Array.isArray(node) && (i === segments.length || segments[i] !== '*')) {
    for (const [n, item] of node.entries()) walk(item, segments, i, `${pointer}/${n}`, out)
    return
  }
  if (i === segments.length) {
    out.push({ pointer, value: node })
    return
  }
  const segment = segments[i] as string
  if (typeof node !== 'object') {
    // A single value where `*` expects a collection is that value (DataHub's model annotates
    // single URNs so: `parentTemplate/*`).
    if (segment === '*') walk(node, segments, i + 1, pointer, out)
    return
  }
  if (segment === '$key') {
    if (!Array.isArray(node))
      for (const k of Object.keys(node)) out.push({ pointer: `${pointer}/${k}`, value: k })
    return
  }
  if (segment === '*') {
    const entries = Array.isArray(node) ? node.map((v, n) => [String(n), v] as const) : Object.entries(node)
    for (const [k, child] of entries) walk(child, segments, i + 1, `${pointer}/${k}`, out)
    return
  }
  walk((node as Record<string, unknown>)[segment], segments, i + 1, `${pointer}/${segment}`, out)
}
