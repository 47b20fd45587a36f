import type { JsonTextPaths } from './json-body-protocol.js'

/** A value taken out of a parsed body: where it was and its JSON text. */
export interface TakenText {
  readonly path: ReadonlyArray<string | number>
  readonly text: string
}

/**
 * Takes the large values at `paths` out of a parsed body: each object or array found at a path
 * whose `JSON.stringify` text is `minChars` long or longer is replaced by `null` in `root` and
 * returned as text, with where it was. Paths that do not fit the body's shape are skipped.
 */
export function takeLargeTexts(root: unknown, { paths, minChars }: JsonTextPaths): TakenText[] {
  const out: TakenText[] = []
  for (const path of paths) {
    if (path.length === 0) continue
    walk(root, path, 0, [], (holder, key, at) => {
      const value = (holder as Record<string | number, unknown>)[key]
      if (value === null || typeof value !== 'object') return
      const text = JSON.stringify(value)
      if (text.length < minChars) return
      ;(holder as Record<string | number, unknown>)[key] = null
      out.push({ path: at, text })
    })
  }
  return out
}

type Visit = (holder: object, key: string | number, path: ReadonlyArray<string | number>) => void

/** Calls `visit` with the holder and key of each value `path` (from `depth` on) reaches. */
function walk(
  node: unknown,
  path: readonly string[],
  depth: number,
  at: ReadonlyArray<string | number>,
  visit: Visit,
): void {
  if (node === null || typeof node !== 'object') return
  const step = path[depth] as string
  const last = depth === path.length - 1
  const keys: Array<string | number> =
    step !== '*'
      ? Object.hasOwn(node, step)
        ? [Array.isArray(node) ? Number(step) : step]
        : []
      : Array.isArray(node)
        ? node.map((_, i) => i)
        : Object.keys(node)
  for (const key of keys) {
    const here = [...at, key]
    if (last) visit(node, key, here)
    else walk((node as Record<string | number, unknown>)[key], path, depth + 1, here, visit)
  }
}
