import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { ENTITIES } from '../entities.js'
import { unwrapAvroUnions } from '../normalize.js'
import { entriesAt } from '../paths.js'
import { ASPECTS } from './index.js'

/** DataHub's example files: `shared/` beside the repository (override with DATAHUB_EXAMPLES). */
const EXAMPLES =
  process.env.DATAHUB_EXAMPLES ?? resolve(import.meta.dirname, '../../../../../../shared/datahub-examples')

const KEY_ASPECTS = new Set(ENTITIES.map((e) => e.keyAspect))
const byName = new Map(ASPECTS.map((a) => [a.name, a]))
const byRecord = new Map(ASPECTS.map((a) => [a.record, a]))

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Rewrites `com.linkedin.pegasus2avro.` to `com.linkedin.` in every key and drops null members. */
const normalize = (value: Json): Json => {
  if (Array.isArray(value)) return value.map(normalize)
  if (value === null || typeof value !== 'object') return value
  const out: { [key: string]: Json } = {}
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue
    out[k.replace('com.linkedin.pegasus2avro.', 'com.linkedin.')] = normalize(v)
  }
  return out
}

const errorsOf = (schema: TSchema, value: unknown) =>
  [...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`).slice(0, 10)

t.test('every entity aspect has exactly one spec', async (t) => {
  const names = new Set(ENTITIES.flatMap((e) => e.aspects))
  for (const name of names) {
    if (KEY_ASPECTS.has(name)) continue
    t.equal(ASPECTS.filter((a) => a.name === name).length, 1, `one spec for ${name}`)
  }
  for (const spec of ASPECTS) {
    t.ok(names.has(spec.name), `${spec.name} is listed by an entity`)
    t.ok(spec.record.startsWith('com.linkedin.'), `${spec.name} record ${spec.record}`)
    t.notOk(KEY_ASPECTS.has(spec.name), `${spec.name} is not a key aspect`)
  }
  t.equal(byRecord.size, ASPECTS.length, 'record names are unique')
})

/** Follows `path` (`a/*\/b`) through a TypeBox schema; undefined when a segment names no member. */
const walk = (schema: TSchema | undefined, segments: string[]): boolean => {
  if (!schema || segments.length === 0) return true
  const [head, ...rest] = segments as [string, ...string[]]
  if (schema.anyOf) return (schema.anyOf as TSchema[]).some((s) => walk(s, segments))
  if (schema.type === 'array') return head === '*' && walk(schema.items as TSchema, rest)
  if (schema.type !== 'object') return false
  if (head === '*' && schema.patternProperties) {
    return Object.values(schema.patternProperties as Record<string, TSchema>).every((s) => walk(s, rest))
  }
  const member = (schema.properties as Record<string, TSchema> | undefined)?.[head]
  if (member) return walk(member, rest)
  return (
    (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
    schema.patternProperties !== undefined
  )
}

t.test('annotation paths name schema members', async (t) => {
  for (const spec of ASPECTS) {
    for (const f of [...(spec.searchable ?? []), ...(spec.relationships ?? [])]) {
      t.ok(walk(spec.schema, f.path.split('/')), `${spec.name}: ${f.path}`)
    }
  }
})

t.test('time-series aspects carry timestampMillis', async (t) => {
  const series = ASPECTS.filter((a) => a.timeseries).map((a) => a.name)
  for (const name of ['datasetProfile', 'datasetUsageStatistics', 'operation', 'assertionRunEvent']) {
    t.ok(series.includes(name), `${name} is time-series`)
  }
  for (const name of series) {
    const props = (byName.get(name)?.schema.properties ?? {}) as Record<string, unknown>
    t.ok('timestampMillis' in props, `${name} has timestampMillis`)
  }
})

t.test('every aspect of the DataHub example files validates', { skip: !existsSync(EXAMPLES) }, async (t) => {
  let checked = 0
  for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) {
    const parsed = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Json
    const records = (Array.isArray(parsed) ? parsed : [parsed]) as { [key: string]: Json }[]
    records.forEach((raw, i) => {
      const record = normalize(raw) as { [key: string]: Json }
      const found: { label: string; spec: ReturnType<typeof byName.get>; value: Json; key: boolean }[] = []
      const snapshot = record.proposedSnapshot as
        | { [key: string]: { aspects: { [key: string]: Json }[] } }
        | undefined
      if (snapshot) {
        for (const body of Object.values(snapshot)) {
          for (const aspect of body.aspects) {
            for (const [recordName, value] of Object.entries(aspect)) {
              const key = recordName.startsWith('com.linkedin.metadata.key.')
              found.push({ label: recordName, spec: byRecord.get(recordName), value, key })
            }
          }
        }
      } else {
        const name = record.aspectName as string
        const aspect = record.aspect as { json?: Json; value?: string }
        const value = aspect.json ?? normalize(JSON.parse(aspect.value ?? 'null') as Json)
        found.push({ label: name, spec: byName.get(name), value, key: KEY_ASPECTS.has(name) })
      }
      for (const { label, spec, value: given, key } of found) {
        if (key) continue
        const where = `${file}#${i} ${label}`
        if (!spec) {
          t.fail(`${where}: no spec`)
          continue
        }
        // Ingest unwraps Avro-JSON optional unions (`{"string": ...}`) where a plain value is expected.
        const value = unwrapAvroUnions(spec.schema, given)
        const ok = Value.Check(spec.schema, value)
        t.ok(ok, where, ok ? {} : { errors: errorsOf(spec.schema, value) })
        // Members a closed record does not list are dropped on ingest: real data must lose none.
        t.same(Value.Clean(spec.schema, structuredClone(value)), value, `${where}: no member dropped`)
        for (const rel of spec.relationships ?? []) {
          for (const { pointer, value: urn } of entriesAt(value, rel.path)) {
            const type = typeof urn === 'string' ? /^urn:li:([^:]+):/.exec(urn)?.[1] : undefined
            if (type && !rel.entityTypes.includes(type)) t.fail(`${where}${pointer}: ${rel.name} to ${type}`)
          }
        }
        checked++
      }
    })
  }
  t.ok(checked > 300, `checked ${checked} aspects`)
})
