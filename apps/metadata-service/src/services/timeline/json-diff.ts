import type { PatchOperation } from './types.js'

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`
const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * An RFC 6902 patch turning `from` into `to` (the `rawDiff` of a transaction): objects member
 * by member, arrays element by element with adds and removes at the end.
 */
export function jsonDiff(from: unknown, to: unknown, path = ''): PatchOperation[] {
  if (isObject(from) && isObject(to)) {
    const ops: PatchOperation[] = []
    for (const key of Object.keys(from)) {
      if (!(key in to)) ops.push({ op: 'remove', path: pointer(path, key) })
      else ops.push(...jsonDiff(from[key], to[key], pointer(path, key)))
    }
    for (const key of Object.keys(to))
      if (!(key in from)) ops.push({ op: 'add', path: pointer(path, key), value: to[key] })
    return ops
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const ops: PatchOperation[] = []
    const common = Math.min(from.length, to.length)
    for (let i = 0; i < common; i++) ops.push(...jsonDiff(from[i], to[i], pointer(path, i)))
    for (let i = from.length - 1; i >= common; i--) ops.push({ op: 'remove', path: pointer(path, i) })
    for (let i = common; i < to.length; i++) ops.push({ op: 'add', path: pointer(path, i), value: to[i] })
    return ops
  }
  return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ op: 'replace', path, value: to }]
}
