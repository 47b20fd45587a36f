/**
 * Derives `packages/core/src/registry/model/datahub-model.json` from DataHub's model facts
 * (`datahub-model/model.json`: entity registry, PDL types and annotations).
 *
 *   npm run derive-model -- path/to/model.json
 *
 * What it does beyond copying:
 * - included records' fields are flattened into each record;
 * - union members get their wire key (alias, member name, or the type behind a typeref);
 * - `@Searchable`, `@Relationship`, `@UrnValidation` and `@TimeseriesField(Collection)` are
 *   resolved into flat per-aspect lists of paths from the aspect root, with DataHub's
 *   defaults applied (`SearchableAnnotation`: fieldName = schema field name, fieldType from
 *   the schema type, boost 1);
 * - key members get their URN kind, enum symbols, and the entity type DataHub's typed URN fixes.
 * Run it again after replacing model.json; the diff of a model upgrade is then this file's output.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type {
  ModelAspect,
  ModelEntity,
  ModelField,
  ModelFile,
  ModelKeyField,
  ModelRelationship,
  ModelSearchable,
  ModelTimeseriesField,
  ModelTypeDecl,
  ModelTypeExpr,
  ModelUrnValidation,
} from '../src/registry/model/model-file.js'
import type { SearchFieldType } from '../src/registry/types.js'

type Ann = Record<string, unknown>
type InExpr =
  | string
  | { array: InExpr }
  | { map: InExpr }
  | { union: Array<InExpr | { alias: string; type: InExpr }> }
interface InField {
  name: string
  type: InExpr
  optional?: boolean
  default?: unknown
  annotations?: Ann
}
interface InType {
  kind: 'record' | 'enum' | 'typeref' | 'fixed'
  includes?: string[]
  fields?: InField[]
  symbols?: string[]
  deprecatedSymbols?: string[]
  ref?: InExpr
  wire?: {
    urn?: boolean
    entityType?: string
    urnFields?: Array<{ name: string; type: string }>
    javaClass?: string
  }
  size?: number
  annotations?: Ann
}
interface InModel {
  source: { repo: string; commit: string; date: string; license: string }
  entities: Array<{
    name: string
    category?: string
    searchGroup?: string
    keyAspect: string
    aspects: string[]
    keyFields: Array<{ name: string; type: string }>
  }>
  aspects: Record<string, { record: string; kind: 'versioned' | 'timeseries'; type: string }>
  types: Record<string, InType>
}

const PRIMITIVES = new Set(['string', 'int', 'long', 'float', 'double', 'boolean', 'bytes', 'null'])
const here = dirname(fileURLToPath(import.meta.url))
const given = process.argv[2]
if (!given) {
  process.stderr.write("usage: npm run derive-model -- path/to/model.json (DataHub's model facts)\n")
  process.exit(2)
}
const input = resolve(given)
const output = join(here, '../src/registry/model/datahub-model.json')
const model = JSON.parse(readFileSync(input, 'utf8')) as InModel

function decl(name: string): InType {
  const t = model.types[name]
  if (!t) throw new Error(`unresolved type ${name}`)
  return t
}

/** The record's fields, included records' first (PDL `includes`). */
function allFields(name: string): InField[] {
  const t = decl(name)
  return [...(t.includes ?? []).flatMap(allFields), ...(t.fields ?? [])]
}

/** The type behind typerefs: a primitive name, a named non-typeref type, or a collection. */
function deref(expr: InExpr): InExpr {
  let e = expr
  while (typeof e === 'string' && !PRIMITIVES.has(e) && decl(e).kind === 'typeref') e = decl(e).ref as InExpr
  return e
}

function unionKey(member: InExpr): string {
  const behind = deref(member)
  if (typeof behind === 'string') return behind
  if ('array' in behind) return 'array'
  if ('map' in behind) return 'map'
  throw new Error('a union cannot be a union member')
}

function convertExpr(expr: InExpr): ModelTypeExpr {
  if (typeof expr === 'string') return expr
  if ('array' in expr) return { array: convertExpr(expr.array) }
  if ('map' in expr) return { map: convertExpr(expr.map) }
  return {
    union: expr.union.map((m) =>
      typeof m === 'object' && 'alias' in m
        ? { key: m.alias, type: convertExpr(m.type) }
        : { key: unionKey(m), type: convertExpr(m) },
    ),
  }
}

function convertField(f: InField): ModelField {
  return {
    name: f.name,
    type: convertExpr(f.type),
    ...(f.optional || f.default !== undefined ? { optional: true as const } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
  }
}

function convertType(name: string): ModelTypeDecl {
  const t = decl(name)
  switch (t.kind) {
    case 'record':
      return { kind: 'record', fields: allFields(name).map(convertField) }
    case 'enum':
      return { kind: 'enum', symbols: [...(t.symbols ?? []), ...(t.deprecatedSymbols ?? [])] }
    case 'typeref':
      return {
        kind: 'typeref',
        ref: convertExpr(t.ref as InExpr),
        ...(t.wire?.urn ? { urn: true as const } : {}),
        ...(t.wire?.entityType ? { entityType: t.wire.entityType } : {}),
      }
    case 'fixed':
      return { kind: 'fixed', size: t.size ?? 0 }
  }
}

/** DataHub's `SearchableAnnotation.getDefaultFieldType`, from the schema type of the field. */
function defaultFieldType(expr: InExpr): SearchFieldType {
  const behind = deref(expr)
  if (behind === 'int' || behind === 'float') return 'COUNT'
  if (typeof behind === 'object' && 'map' in behind) return 'KEYWORD'
  return 'TEXT'
}

interface Collected {
  searchable: Map<string, ModelSearchable>
  relationships: Map<string, ModelRelationship>
  urnValidation: Map<string, ModelUrnValidation>
  timeseries: Map<string, ModelTimeseriesField>
}

/** An annotation value keyed by sub-paths (`{"/*\/tag": {...}}`), or one value for the field itself. */
function byPath(value: unknown): Array<[string[], Ann]> {
  const v = value as Ann
  const keys = Object.keys(v)
  if (keys.length > 0 && keys.every((k) => k.startsWith('/')))
    return keys.map((k) => [k.split('/').filter(Boolean), v[k] as Ann])
  return [[[], v]]
}

function collectField(field: InField, path: string[], out: Collected): void {
  const a = field.annotations ?? {}
  const put = <T>(map: Map<string, T>, p: string[], v: T) => {
    const key = p.join('/')
    if (!map.has(key)) map.set(key, v)
  }
  if (a.Searchable) {
    for (const [sub, s] of byPath(a.Searchable)) {
      const p = [...path, ...sub]
      const fieldType = (s.fieldType as SearchFieldType | undefined) ?? defaultFieldType(field.type)
      put(out.searchable, p, {
        path: p.join('/'),
        fieldName: (s.fieldName as string | undefined) ?? field.name,
        fieldType,
        ...(typeof s.queryByDefault === 'boolean' ? { queryByDefault: s.queryByDefault } : {}),
        ...(s.enableAutocomplete === true ? { enableAutocomplete: true as const } : {}),
        ...(s.addToFilters === true ? { addToFilters: true as const } : {}),
        ...(typeof s.filterNameOverride === 'string' ? { filterNameOverride: s.filterNameOverride } : {}),
        ...(typeof s.boostScore === 'number' && s.boostScore !== 1 ? { boostScore: s.boostScore } : {}),
        ...(typeof s.hasValuesFieldName === 'string' ? { hasValuesFieldName: s.hasValuesFieldName } : {}),
        ...(typeof s.numValuesFieldName === 'string' ? { numValuesFieldName: s.numValuesFieldName } : {}),
        ...(Array.isArray(s.fieldNameAliases) ? { fieldNameAliases: s.fieldNameAliases as string[] } : {}),
      })
    }
  }
  if (a.Relationship) {
    for (const [sub, r] of byPath(a.Relationship)) {
      const p = [...path, ...sub]
      put(out.relationships, p, {
        path: p.join('/'),
        name: r.name as string,
        entityTypes: (r.entityTypes as string[] | undefined) ?? [],
        ...(r.isLineage === true ? { isLineage: true as const } : {}),
        ...(r.isUpstream === false ? { isUpstream: false as const } : {}),
      })
    }
  }
  if (a.UrnValidation) {
    for (const [sub, u] of byPath(a.UrnValidation)) {
      const p = [...path, ...sub]
      put(out.urnValidation, p, {
        path: p.join('/'),
        entityTypes: (u.entityTypes as string[] | undefined) ?? [],
        strict: u.strict !== false,
        exist: u.exist === true,
      })
    }
  }
  if (a.TimeseriesField)
    for (const [sub] of byPath(a.TimeseriesField))
      put(out.timeseries, [...path, ...sub], { path: [...path, ...sub].join('/') })
  if (a.TimeseriesFieldCollection) {
    const key = (a.TimeseriesFieldCollection as Ann).key as string
    put(out.timeseries, path, { path: path.join('/'), collectionKey: key })
  }
}

/** Walks a type from the aspect root, collecting annotations; recursive types are walked once per branch. */
function walk(expr: InExpr, path: string[], stack: string[], out: Collected): void {
  if (typeof expr === 'string') {
    if (PRIMITIVES.has(expr) || stack.includes(expr)) return
    const t = decl(expr)
    if (t.kind === 'typeref') {
      walk(t.ref as InExpr, path, stack, out)
      return
    }
    if (t.kind !== 'record') return
    for (const field of allFields(expr)) {
      const p = [...path, field.name]
      collectField(field, p, out)
      walk(field.type, p, [...stack, expr], out)
    }
    return
  }
  if ('array' in expr || 'map' in expr) {
    walk('array' in expr ? expr.array : expr.map, [...path, '*'], stack, out)
    return
  }
  for (const m of expr.union) {
    const member = typeof m === 'object' && 'alias' in m ? m.type : m
    const key = typeof m === 'object' && 'alias' in m ? m.alias : unionKey(m)
    walk(member, [...path, key], stack, out)
  }
}

function convertAspect(name: string): ModelAspect {
  const a = model.aspects[name]
  if (!a) throw new Error(`unknown aspect ${name}`)
  const out: Collected = {
    searchable: new Map(),
    relationships: new Map(),
    urnValidation: new Map(),
    timeseries: new Map(),
  }
  walk(a.record, [], [], out)
  const list = <T>(m: Map<string, T>) => [...m.values()]
  return {
    record: a.record,
    ...(a.kind === 'timeseries' ? { timeseries: true as const } : {}),
    ...(out.searchable.size ? { searchable: list(out.searchable) } : {}),
    ...(out.relationships.size ? { relationships: list(out.relationships) } : {}),
    ...(out.urnValidation.size ? { urnValidation: list(out.urnValidation) } : {}),
    ...(out.timeseries.size ? { timeseriesFields: list(out.timeseries) } : {}),
  }
}

/** The entity type of a typed URN class (`com.linkedin.common.urn.DataPlatformUrn` -> dataPlatform). */
const byJavaClass = new Map<string, string>()
for (const t of Object.values(model.types)) {
  if (t.kind === 'typeref' && t.wire?.javaClass && t.wire.entityType)
    byJavaClass.set(t.wire.javaClass, t.wire.entityType)
}

function convertEntity(e: InModel['entities'][number]): ModelEntity {
  const typedUrn = Object.values(model.types).find(
    (t) => t.kind === 'typeref' && t.wire?.entityType === e.name,
  )
  const keyRecord = model.aspects[e.keyAspect]?.record
  const keyDecl = keyRecord ? allFields(keyRecord) : []
  const keyFields = e.keyFields.map((f, i): ModelKeyField => {
    const behind = deref(f.type)
    if (typeof behind === 'string' && !PRIMITIVES.has(behind) && decl(behind).kind === 'enum') {
      return { name: f.name, kind: 'enum', symbols: [...(decl(behind).symbols ?? [])] }
    }
    const isUrn = f.type !== 'string' && !PRIMITIVES.has(f.type) && decl(f.type).wire?.urn === true
    if (!isUrn) return { name: f.name, kind: 'string' }
    const fromTypedUrn = typedUrn?.wire?.urnFields?.[i]?.type
    const rel = keyDecl.find((k) => k.name === f.name)?.annotations?.Relationship as Ann | undefined
    const relTypes = rel?.entityTypes as string[] | undefined
    const entityType =
      (fromTypedUrn ? byJavaClass.get(fromTypedUrn) : undefined) ??
      (relTypes?.length === 1 ? relTypes[0] : undefined)
    return { name: f.name, kind: 'urn', ...(entityType ? { entityType } : {}) }
  })
  return {
    name: e.name,
    ...(e.category ? { category: e.category } : {}),
    ...(e.searchGroup ? { searchGroup: e.searchGroup } : {}),
    keyAspect: e.keyAspect,
    keyFields,
    aspects: e.aspects.filter((a) => a !== e.keyAspect),
  }
}

const aspects: Record<string, ModelAspect> = {}
for (const name of Object.keys(model.aspects).sort()) aspects[name] = convertAspect(name)
const types: Record<string, ModelTypeDecl> = {}
for (const name of Object.keys(model.types).sort()) types[name] = convertType(name)

const file: ModelFile = {
  source: {
    repo: model.source.repo,
    commit: model.source.commit,
    date: model.source.date,
    license: model.source.license,
    derivedBy: 'packages/core/scripts/derive-model.ts from datahub-model/model.json',
  },
  entities: model.entities.map(convertEntity),
  aspects,
  types,
}

/** One line per entity, aspect and type: a model upgrade diffs line by line. */
function render(f: ModelFile): string {
  const section = (entries: Array<[string, unknown]>) =>
    entries.map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')
  return [
    '{',
    `  "source": ${JSON.stringify(f.source)},`,
    '  "entities": [',
    f.entities.map((e) => `    ${JSON.stringify(e)}`).join(',\n'),
    '  ],',
    '  "aspects": {',
    section(Object.entries(f.aspects)),
    '  },',
    '  "types": {',
    section(Object.entries(f.types)),
    '  }',
    '}',
    '',
  ].join('\n')
}

writeFileSync(output, render(file))
process.stdout.write(
  `wrote ${output}: ${file.entities.length} entities, ${Object.keys(aspects).length} aspects, ${Object.keys(types).length} types (DataHub ${file.source.commit})\n`,
)
