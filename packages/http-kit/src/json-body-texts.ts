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
export function takeLargeTexts(root: unknown, paths: JsonTextPaths): TakenText[] {
  return take(root, paths, (value) =>
    value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined,
  )
}

/**
 * Takes the strings at `paths` that are `minChars` long or longer out of a parsed body (a
 * proposal's aspect, JSON text inside a string): each is replaced by `null` in `root` and
 * returned as it is, with where it was. A string holding a lone surrogate is left in place: its
 * UTF-8 would not give it back.
 */
export function takeLargeStrings(root: unknown, paths: JsonTextPaths): TakenText[] {
  return take(root, paths, (value) => (typeof value === 'string' && wellFormed(value) ? value : undefined))
}

/** `String.prototype.isWellFormed` (node 20 and later; not in the ES2023 library types). */
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed()

/** Takes out the values at `paths` whose text (`textOf`, undefined for none) is `minChars` long or longer. */
function take(
  root: unknown,
  { paths, minChars }: JsonTextPaths,
  textOf: (value: unknown) => string | undefined,
): TakenText[] {
  const out: TakenText[] = []
  for (const path of paths) {
    if (path.length === 0) continue
    walk(root, path, 0, [], (holder, key, at) => {
      const record = holder as Record<string | number, unknown>
      const text = textOf(record[key])
      if (text === undefined || text.length < minChars) return
      record[key] = null
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
