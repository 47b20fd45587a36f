import { InvalidInputError } from '../errors.js'
import { parseUrn } from '../urn.js'
import type { ModelTypeDecl, ModelTypeExpr, ModelUnionMember } from './model/model-file.js'
import { AVRO_WRAPPERS, canonicalRecordName } from './normalize.js'

/** One reason a value breaks its type, at a JSON pointer (`/owners/0/type`). */
export interface ValidationProblem {
  readonly pointer: string
  readonly message: string
}

/** The outcome of {@link ModelValidator.validate}: the value to store, or the problems found. */
export type ValidationOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly problems: readonly ValidationProblem[] }
const MAX_PROBLEMS = 5
const SKIP = Symbol('skip')

/**
 * Checks aspect values against DataHub's model the way DataHub >= 1.0 does, in one pass that
 * also produces the value to store:
 * - `null` members are dropped (Pegasus has no nulls; an absent optional field is missing);
 * - members a record does not declare are dropped;
 * - required members (not optional and without a default) must be present; defaults are not
 *   written into the value, as DataHub stores what it was sent;
 * - primitives, enums (symbols checked), arrays, maps and unions (`{"<member>": value}`, one
 *   member, `pegasus2avro` names accepted) are checked;
 * - URN typerefs must hold a URN, and typed URNs (`DatasetUrn`) one of their entity type;
 * - Avro-JSON wrappers (`{"string": "x"}`, `{"array": [...]}`) are unwrapped where the plain
 *   value is expected, as DataHub's file source reads Avro-style example files.
 * No length or pattern limits are applied: DataHub does not enforce PDL validators on ingest.
 */
export class ModelValidator {
  constructor(private readonly types: Readonly<Record<string, ModelTypeDecl>>) {}

  /** Validates `raw` against the named record type. */
  validate(recordType: string, raw: unknown): ValidationOutcome {
    const problems: ValidationProblem[] = []
    const value = this.check(recordType, raw, '', problems)
    if (problems.length > 0 || value === SKIP) {
      return {
        ok: false,
        problems: problems.length > 0 ? problems : [{ pointer: '/', message: 'invalid value' }],
      }
    }
    return { ok: true, value: value as Record<string, unknown> }
  }

  /** The named type's declaration, or undefined. */
  decl(name: string): ModelTypeDecl | undefined {
    return this.types[name]
  }

  private check(
    expr: ModelTypeExpr,
    value: unknown,
    pointer: string,
    problems: ValidationProblem[],
  ): unknown {
    if (problems.length >= MAX_PROBLEMS) return SKIP
    if (typeof expr !== 'string') {
      if ('array' in expr) return this.array(expr.array, value, pointer, problems)
      if ('map' in expr) return this.map(expr.map, value, pointer, problems)
      return this.union(expr.union, value, pointer, problems)
    }
    switch (expr) {
      case 'string':
      case 'bytes':
        return this.primitive(value, pointer, problems, expr, (v) => typeof v === 'string')
      case 'int':
      case 'long':
        return this.primitive(value, pointer, problems, expr, (v) => Number.isSafeInteger(v))
      case 'float':
      case 'double':
        return this.primitive(
          value,
          pointer,
          problems,
          expr,
          (v) => typeof v === 'number' && Number.isFinite(v),
        )
      case 'boolean':
        return this.primitive(value, pointer, problems, expr, (v) => typeof v === 'boolean')
      case 'null':
        return value === null ? null : fail(problems, pointer, `${show(value)} is not null`)
    }
    const decl = this.types[expr]
    if (!decl) return fail(problems, pointer, `unknown type ${expr}`)
    switch (decl.kind) {
      case 'record':
        return this.record(expr, decl.fields, value, pointer, problems)
      case 'enum':
        if (typeof value === 'string' && decl.symbols.includes(value)) return value
        return fail(problems, pointer, `${show(value)} is not an enum symbol of ${expr}`)
      case 'fixed':
        return this.primitive(value, pointer, problems, expr, (v) => typeof v === 'string')
      case 'typeref': {
        const checked = this.check(decl.ref, value, pointer, problems)
        if (decl.urn && typeof checked === 'string')
          return this.urn(checked, decl.entityType, pointer, problems)
        return checked
      }
    }
  }

  private primitive(
    value: unknown,
    pointer: string,
    problems: ValidationProblem[],
    type: string,
    ok: (v: unknown) => boolean,
  ): unknown {
    const v = unwrapAvro(value)
    return ok(v) ? v : fail(problems, pointer, `${show(value)} is not a valid ${type}`)
  }

  private urn(value: string, entityType: string | undefined, pointer: string, problems: ValidationProblem[]) {
    let type: string
    try {
      type = parseUrn(value).entityType
    } catch (err) {
      return fail(
        problems,
        pointer,
        err instanceof InvalidInputError ? err.message : `invalid urn ${show(value)}`,
      )
    }
    if (entityType && type !== entityType) {
      return fail(problems, pointer, `urn type '${type}' is not allowed here, expected ${entityType}`)
    }
    return value
  }

  private record(
    name: string,
    fields: ReadonlyArray<{ name: string; type: ModelTypeExpr; optional?: true }>,
    raw: unknown,
    pointer: string,
    problems: ValidationProblem[],
  ): unknown {
    let value = raw
    if (isObject(value)) {
      // `{"com.linkedin.pegasus2avro.x.Record": {...}}`: an Avro union wrapper around the record itself.
      const keys = Object.keys(value)
      if (keys.length === 1 && canonicalRecordName(keys[0] as string) === name)
        value = value[keys[0] as string]
    }
    if (!isObject(value)) return fail(problems, pointer, `${show(raw)} is not a record of ${name}`)
    const out: Record<string, unknown> = {}
    for (const field of fields) {
      const member = value[field.name]
      const at = `${pointer}/${field.name}`
      if (member === undefined || member === null) {
        if (!field.optional) fail(problems, at, 'field is required but not found and has no default value')
        continue
      }
      const checked = this.check(field.type, member, at, problems)
      if (checked !== SKIP) out[field.name] = checked
    }
    return out
  }

  private array(items: ModelTypeExpr, raw: unknown, pointer: string, problems: ValidationProblem[]): unknown {
    const value = isObject(raw) && Array.isArray(raw.array) && Object.keys(raw).length === 1 ? raw.array : raw
    if (!Array.isArray(value)) return fail(problems, pointer, `${show(raw)} is not an array`)
    const out: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) out[i] = this.check(items, value[i], `${pointer}/${i}`, problems)
    return out
  }

  private map(values: ModelTypeExpr, raw: unknown, pointer: string, problems: ValidationProblem[]): unknown {
    const value = isObject(raw) && isObject(raw.map) && Object.keys(raw).length === 1 ? raw.map : raw
    if (!isObject(value)) return fail(problems, pointer, `${show(raw)} is not a map`)
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue
      const checked = this.check(values, v, `${pointer}/${escapePointer(k)}`, problems)
      if (checked !== SKIP) out[k] = checked
    }
    return out
  }

  private union(
    members: readonly ModelUnionMember[],
    raw: unknown,
    pointer: string,
    problems: ValidationProblem[],
  ): unknown {
    if (raw === null && members.some((m) => m.key === 'null')) return null
    if (!isObject(raw))
      return fail(problems, pointer, `${show(raw)} is not a union: expected {"<member>": value}`)
    // Avro-JSON of an aliased union names its member in `fieldDiscriminator` too (Python SDK).
    const discriminator = raw.fieldDiscriminator
    const keys = Object.keys(raw).filter(
      (k) => raw[k] !== null && !(k === 'fieldDiscriminator' && typeof discriminator === 'string'),
    )
    if (keys.length !== 1) {
      return fail(problems, pointer, `a union holds exactly one member, got ${keys.length}`)
    }
    const given = keys[0] as string
    if (typeof discriminator === 'string' && discriminator !== given) {
      return fail(
        problems,
        pointer,
        `fieldDiscriminator "${discriminator}" does not name the member "${given}"`,
      )
    }
    const key = canonicalRecordName(given)
    const member = members.find((m) => m.key === key)
    if (!member) {
      return fail(
        problems,
        pointer,
        `"${given}" is not a member of the union (${members.map((m) => m.key).join(', ')})`,
      )
    }
    const checked = this.check(member.type, raw[given], `${pointer}/${escapePointer(key)}`, problems)
    return checked === SKIP ? SKIP : { [key]: checked }
  }
}

function fail(problems: ValidationProblem[], pointer: string, message: string): typeof SKIP {
  if (problems.length < MAX_PROBLEMS) problems.push({ pointer: pointer || '/', message })
  return SKIP
}

function unwrapAvro(value: unknown): unknown {
  if (!isObject(value)) return value
  const keys = Object.keys(value)
  return keys.length === 1 && AVRO_WRAPPERS.has(keys[0] as string) ? value[keys[0] as string] : value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
