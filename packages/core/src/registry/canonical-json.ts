/**
 * JSON with object keys sorted, for equality of stored aspect values: what
 * `JSON.stringify(value, sortKeysReplacer)` gives, byte for byte, in one walk without a sorted
 * copy of every object. Plain JSON data (what `JSON.parse` and the validator produce) takes
 * the walk; anything else (a `toJSON`, a class instance, a `__proto__` key, a bigint) is
 * handed to `JSON.stringify` with the sorting replacer, so the answer never differs.
 */
export function canonicalJson(value: unknown): string {
  const out = walk(value)
  return out === UNUSUAL ? replacerJson(value) : (out as string)
}

/** Marks a value the walk leaves to {@link replacerJson}. */
const UNUSUAL = Symbol('unusual')
/** What `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
const OMITTED = Symbol('omitted')

function walk(value: unknown): string | typeof UNUSUAL | typeof OMITTED {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'boolean':
      return value ? 'true' : 'false'
    case 'undefined':
    case 'function':
    case 'symbol':
      return OMITTED
    case 'bigint':
      return UNUSUAL
  }
  if (value === null) return 'null'
  if (Array.isArray(value)) return array(value)
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return UNUSUAL
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return UNUSUAL
  return object(value as Record<string, unknown>)
}

function array(value: readonly unknown[]): string | typeof UNUSUAL {
  if (Object.getPrototypeOf(value) !== Array.prototype) return UNUSUAL
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return UNUSUAL
  let out = '['
  for (let i = 0; i < value.length; i++) {
    const member = walk(value[i])
    if (member === UNUSUAL) return UNUSUAL
    if (i > 0) out += ','
    out += member === OMITTED ? 'null' : member
  }
  return `${out}]`
}

function object(value: Record<string, unknown>): string | typeof UNUSUAL {
  const keys = Object.keys(value)
  // Array-index keys come first in ascending numeric order, as in any JS object (the sorted
  // copy the replacer builds included); the rest sorted by code unit, as `Array#sort` does.
  let indexKeys = 0
  while (indexKeys < keys.length && isArrayIndex(keys[indexKeys] as string)) indexKeys++
  if (!sortedFrom(keys, indexKeys)) {
    if (indexKeys === 0) keys.sort()
    else {
      const rest = keys.slice(indexKeys).sort()
      for (let i = 0; i < rest.length; i++) keys[indexKeys + i] = rest[i] as string
    }
  }
  let out = '{'
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string
    if (key === '__proto__') return UNUSUAL
    const member = walk(value[key])
    if (member === UNUSUAL) return UNUSUAL
    if (member === OMITTED) continue
    if (out.length > 1) out += ','
    out += JSON.stringify(key)
    out += ':'
    out += member
  }
  return `${out}}`
}

/** True when `keys` from `start` on are in `Array#sort` order already (most small objects). */
function sortedFrom(keys: readonly string[], start: number): boolean {
  for (let i = start + 1; i < keys.length; i++)
    if ((keys[i - 1] as string) > (keys[i] as string)) return false
  return true
}

/** An array index as a property key: a canonical unsigned integer below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  const first = key.charCodeAt(0)
  if (first < 48 || first > 57) return false
  if (key.length > 10 || (first === 48 && key.length > 1)) return false
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return Number(key) < 4_294_967_295
}

/** The reference definition: a sorted copy of every object, by a `JSON.stringify` replacer. */
function replacerJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key]
    return sorted
  })
}
