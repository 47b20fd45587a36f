import { childObject, isObj, keyText, type Tree, type TreeObject } from './tree.js'

/**
 * How an aspect's array is addressed by a patch, as DataHub's `ArrayMergingTemplate` does it: the
 * array becomes an object keyed by the text of each element's key fields (one nesting level per
 * key field, in order), the patch runs on that, and the object becomes an array again. A string
 * array (no key fields) is keyed by the strings themselves, which also drops duplicates.
 */
export interface ArrayRule {
  /** Object members leading from the aspect root to the object that holds the array (default: the root). */
  readonly at?: readonly string[]
  readonly field: string
  readonly keys: readonly string[]
  /** Rules applied inside each element (e.g. a schema field's `globalTags.tags`). */
  readonly nested?: readonly ArrayRule[]
  /** Leave an absent field absent (otherwise it becomes `{}`, and `[]` after the patch). */
  readonly optional?: boolean
}

/**
 * A key field may name a nested member with U+241F between the segments (`attribution␟source`);
 * a `*` segment takes the only member of a union (`value␟*`).
 */
export const KEY_PATH_SEPARATOR = '\u241f'

/** Turns the rule's array into its keyed object, in place; an absent or non-array field becomes `{}`. */
export function arrayToMap(root: TreeObject, rule: ArrayRule): void {
  const holder = holderOf(root, rule)
  if (!holder) return
  const array = holder.get(rule.field)
  if (array === undefined && rule.optional) return
  const map: TreeObject = new Map()
  if (Array.isArray(array)) {
    for (const element of array) {
      if (rule.nested && isObj(element)) for (const n of rule.nested) arrayToMap(element, n)
      if (rule.keys.length === 0) {
        map.set(typeof element === 'string' ? element : '', element)
        continue
      }
      let level = map
      for (const key of rule.keys.slice(0, -1)) level = childObject(level, keyText(keyValue(element, key)))
      const last = keyText(keyValue(element, rule.keys[rule.keys.length - 1] as string))
      const existing = level.get(last)
      // Two elements with the same key merge member by member, the later winning.
      if (isObj(existing) && isObj(element)) for (const [k, v] of element) existing.set(k, v)
      else level.set(last, element)
    }
  }
  holder.set(rule.field, map)
}

/**
 * Turns the rule's keyed object back into an array, in key insertion order: elements keep their
 * place, added keys come last. An array left there by the patch stays as it is; a removed field
 * becomes `[]`. An array placed at a key level is spliced in, and an element missing its key
 * field gets it from the map key.
 */
export function mapToArray(root: TreeObject, rule: ArrayRule): void {
  const holder = holderOf(root, rule)
  if (!holder) return
  const value = holder.get(rule.field)
  if (Array.isArray(value) || (value === undefined && rule.optional)) return
  const out: Tree[] = []
  if (isObj(value)) {
    if (rule.keys.length === 0) out.push(...value.values())
    else merge(value, rule.keys, out)
  }
  if (rule.nested)
    for (const element of out) if (isObj(element)) for (const n of rule.nested) mapToArray(element, n)
  holder.set(rule.field, out)
}

function merge(node: Tree, keys: readonly string[], out: Tree[]): void {
  if (keys.length === 0 || isElement(node)) {
    if (Array.isArray(node)) out.push(...node)
    else out.push(node)
    return
  }
  const rest = keys.slice(1)
  if (isObj(node)) {
    const keyField = keys[0] as string
    for (const [key, value] of node) {
      const start = out.length
      merge(value, rest, out)
      if (key === '' || keyField.includes(KEY_PATH_SEPARATOR)) continue
      for (let i = start; i < out.length; i++) {
        const element = out[i]
        if (isObj(element) && !element.has(keyField)) element.set(keyField, key)
      }
    }
  } else if (Array.isArray(node)) {
    for (const element of node) merge(element, rest, out)
  }
}

/**
 * An element placed above its full key depth: older clients address `/tags/<urn>` or
 * `/owners/<urn>/<type>` where the keys now also hold the attribution source. A key level only
 * holds objects (or spliced arrays); an element always has a scalar member, its key field.
 */
function isElement(node: Tree): boolean {
  if (!isObj(node)) return false
  for (const value of node.values()) if (!isObj(value) && !Array.isArray(value)) return true
  return false
}

function holderOf(root: TreeObject, rule: ArrayRule): TreeObject | undefined {
  let node: Tree | undefined = root
  for (const member of rule.at ?? []) node = isObj(node) ? node.get(member) : undefined
  return isObj(node) ? node : undefined
}

function keyValue(element: Tree, key: string): Tree | undefined {
  let node: Tree | undefined = element
  for (const segment of key.split(KEY_PATH_SEPARATOR)) {
    if (!isObj(node)) return undefined
    node = segment === '*' ? node.values().next().value : node.get(segment)
  }
  return node
}
