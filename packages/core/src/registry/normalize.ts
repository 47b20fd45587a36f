// canonicalJson moved to its own module; re-exported here for the modules that import it from here.
export { canonicalJson } from './canonical-json.js'

const PEGASUS2AVRO = 'com.linkedin.pegasus2avro.'
const LINKEDIN = 'com.linkedin.'

/** Rewrites `com.linkedin.pegasus2avro.X` to `com.linkedin.X` (the Python client's rewrite). */
export function canonicalRecordName(name: string): string {
  return name.startsWith(PEGASUS2AVRO) ? LINKEDIN + name.slice(PEGASUS2AVRO.length) : name
}

/**
 * Normalizes Avro-style JSON as the Python emitter does before sending: object keys naming
 * `com.linkedin.pegasus2avro.*` records become `com.linkedin.*`, and `null` members are
 * dropped (Pegasus has no nulls: an absent optional field is simply missing).
 * Returns a new value; the input is not modified.
 */
export function normalizeAspectJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeAspectJson)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) {
    if (member === null) continue
    out[canonicalRecordName(key)] = normalizeAspectJson(member)
  }
  return out
}

/** Avro-JSON wrappers of optional values (`{"string": "x"}`), unwrapped where a plain value is expected. */
export const AVRO_WRAPPERS: ReadonlySet<string> = new Set([
  'string',
  'int',
  'long',
  'float',
  'double',
  'boolean',
  'bytes',
  'array',
  'map',
])
