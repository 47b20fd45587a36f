import type { ModelTypeExpr, Registry } from '@catalog/core'

/** A JSON Schema (2020-12, as OpenAPI 3.1 embeds it). */
export type JsonSchema = Record<string, unknown>

const REF = '#/components/schemas/'

const PRIMITIVES: Readonly<Record<string, JsonSchema>> = {
  string: { type: 'string' },
  bytes: { type: 'string', description: 'Bytes as a string' },
  int: { type: 'integer', format: 'int32' },
  long: { type: 'integer', format: 'int64' },
  float: { type: 'number', format: 'float' },
  double: { type: 'number', format: 'double' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
}

/**
 * JSON Schemas of DataHub's model types, for the OpenAPI document: one component per record,
 * enum and fixed type reachable from the requested roots (typerefs are inlined, as DataHub's
 * generator does). A component is named by the record's short name (`DatasetProperties`), or
 * by its full name when two records share a short name. The schemas accept what the ingest
 * validator accepts: unknown members are allowed (they are dropped), required members are the
 * fields without `optional` or a default, unions are `{"<member>": value}` objects.
 */
export class ModelSchemas {
  private readonly names = new Map<string, string>()
  private readonly schemas = new Map<string, JsonSchema>()

  constructor(
    private readonly registry: Registry,
    roots: readonly string[],
  ) {
    const reachable = new Set<string>()
    for (const root of roots) this.collect(root, reachable)
    const shortCount = new Map<string, number>()
    for (const name of reachable) {
      const short = shortName(name)
      shortCount.set(short, (shortCount.get(short) ?? 0) + 1)
    }
    for (const name of reachable) {
      this.names.set(name, (shortCount.get(shortName(name)) ?? 0) > 1 ? name : shortName(name))
    }
    for (const name of reachable) this.schemas.set(this.componentName(name), this.declSchema(name))
  }

  /** The component name of a model type (a record's short name, unless it is ambiguous). */
  componentName(typeName: string): string {
    const name = this.names.get(typeName)
    if (name === undefined) throw new Error(`model type ${typeName} is not among the document's roots`)
    return name
  }

  /** A `$ref` to a model type's component. */
  ref(typeName: string): JsonSchema {
    return { $ref: `${REF}${this.componentName(typeName)}` }
  }

  /** Every component: name to schema. */
  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.schemas].sort(([a], [b]) => a.localeCompare(b)))
  }

  private collect(expr: ModelTypeExpr, seen: Set<string>): void {
    if (typeof expr !== 'string') {
      if ('array' in expr) this.collect(expr.array, seen)
      else if ('map' in expr) this.collect(expr.map, seen)
      else for (const member of expr.union) this.collect(member.type, seen)
      return
    }
    if (expr in PRIMITIVES) return
    const decl = this.registry.typeDecl(expr)
    if (!decl) throw new Error(`model type ${expr} is not declared`)
    if (decl.kind === 'typeref') {
      this.collect(decl.ref, seen)
      return
    }
    if (seen.has(expr)) return
    seen.add(expr)
    if (decl.kind === 'record') for (const field of decl.fields) this.collect(field.type, seen)
  }

  private declSchema(name: string): JsonSchema {
    const decl = this.registry.typeDecl(name)
    if (decl?.kind === 'enum') return { type: 'string', enum: [...decl.symbols], title: name }
    if (decl?.kind === 'fixed') return { type: 'string', description: `${decl.size} bytes`, title: name }
    if (decl?.kind !== 'record') throw new Error(`model type ${name} is not a record, enum or fixed`)
    const properties: Record<string, JsonSchema> = {}
    const required: string[] = []
    for (const field of decl.fields) {
      const schema = this.exprSchema(field.type)
      properties[field.name] = field.default === undefined ? schema : { ...schema, default: field.default }
      if (!field.optional) required.push(field.name)
    }
    return {
      type: 'object',
      title: name,
      properties,
      ...(required.length > 0 ? { required } : {}),
    }
  }

  private exprSchema(expr: ModelTypeExpr): JsonSchema {
    if (typeof expr !== 'string') {
      if ('array' in expr) return { type: 'array', items: this.exprSchema(expr.array) }
      if ('map' in expr) return { type: 'object', additionalProperties: this.exprSchema(expr.map) }
      return {
        oneOf: expr.union.map((member) =>
          member.type === 'null'
            ? { type: 'null' }
            : {
                type: 'object',
                properties: { [member.key]: this.exprSchema(member.type) },
                required: [member.key],
                additionalProperties: false,
              },
        ),
      }
    }
    const primitive = PRIMITIVES[expr]
    if (primitive) return { ...primitive }
    const decl = this.registry.typeDecl(expr)
    if (decl?.kind === 'typeref') {
      const inner = this.exprSchema(decl.ref)
      return decl.urn ? { ...inner, format: 'urn', description: `${shortName(expr)} (a URN)` } : inner
    }
    return this.ref(expr)
  }
}

function shortName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1)
}
