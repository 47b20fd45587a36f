import type { TSchema } from '@sinclair/typebox'

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

/** JSON with object keys sorted, for equality of stored aspect values. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key]
    return sorted
  })
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

/**
 * Unwraps Avro-JSON optional unions (`{"string": "x"}`, `{"array": [...]}`) where the schema
 * expects the plain value, as DataHub's file source does when it reads Avro-style example
 * files. Pegasus unions (schema-typed as records) are left alone, so `{"string": "urn:..."}`
 * stays where a union is expected.
 */
export function unwrapAvroUnions(schema: TSchema, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const type = schema.type as string | undefined
  if (!Array.isArray(value)) {
    const keys = Object.keys(value)
    const only = keys.length === 1 ? (keys[0] as string) : undefined
    if (
      only &&
      AVRO_WRAPPERS.has(only) &&
      (type === 'string' || type === 'array' || type === 'integer' || type === 'number' || type === 'boolean')
    ) {
      return unwrapAvroUnions(schema, (value as Record<string, unknown>)[only])
    }
  }
  if (Array.isArray(value)) {
    const items = schema.items as TSchema | undefined
    return items ? value.map((v) => unwrapAvroUnions(items, v)) : value
  }
  if (type !== 'object') return value
  const props = (schema.properties ?? {}) as Record<string, TSchema>
  const rest =
    typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as TSchema) : undefined
  const patterns = schema.patternProperties as Record<string, TSchema> | undefined
  const valueSchema = rest ?? (patterns ? Object.values(patterns)[0] : undefined)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const member = props[k] ?? valueSchema
    out[k] = member ? unwrapAvroUnions(member, v) : v
  }
  return out
}
