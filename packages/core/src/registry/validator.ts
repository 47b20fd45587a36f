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
  /**
   * The segments of the JSON pointer being checked (field names, indexes, map keys): the pointer
   * text is made only for a problem, not for every member of every valid value.
   */
  private readonly path: Array<string | number> = []

  constructor(private readonly types: Readonly<Record<string, ModelTypeDecl>>) {}

  /** Validates `raw` against the named record type. */
  validate(recordType: string, raw: unknown): ValidationOutcome {
    const problems: ValidationProblem[] = []
    this.path.length = 0
    const value = this.check(recordType, raw, problems)
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

  private check(expr: ModelTypeExpr, value: unknown, problems: ValidationProblem[]): unknown {
    if (problems.length >= MAX_PROBLEMS) return SKIP
    if (typeof expr !== 'string') {
      if ('array' in expr) return this.array(expr.array, value, problems)
      if ('map' in expr) return this.map(expr.map, value, problems)
      return this.union(expr.union, value, problems)
    }
    switch (expr) {
      case 'string':
      case 'bytes':
        return this.primitive(value, problems, expr, isString)
      case 'int':
      case 'long':
        return this.primitive(value, problems, expr, Number.isSafeInteger)
      case 'float':
      case 'double':
        return this.primitive(value, problems, expr, Number.isFinite)
      case 'boolean':
        return this.primitive(value, problems, expr, isBoolean)
      case 'null':
        return value === null ? null : this.fail(problems, `${show(value)} is not null`)
    }
    const decl = this.types[expr]
    if (!decl) return this.fail(problems, `unknown type ${expr}`)
    switch (decl.kind) {
      case 'record':
        return this.record(expr, decl.fields, value, problems)
      case 'enum':
        if (typeof value === 'string' && decl.symbols.includes(value)) return value
        return this.fail(problems, `${show(value)} is not an enum symbol of ${expr}`)
      case 'fixed':
        return this.primitive(value, problems, expr, isString)
      case 'typeref': {
        const checked = this.check(decl.ref, value, problems)
        if (decl.urn && typeof checked === 'string') return this.urn(checked, decl.entityType, problems)
        return checked
      }
    }
  }

  private primitive(
    value: unknown,
    problems: ValidationProblem[],
    type: string,
    ok: (v: unknown) => boolean,
  ): unknown {
    const v = unwrapAvro(value)
    return ok(v) ? v : this.fail(problems, `${show(value)} is not a valid ${type}`)
  }

  private urn(value: string, entityType: string | undefined, problems: ValidationProblem[]) {
    let type: string
    try {
      type = parseUrn(value).entityType
    } catch (err) {
      return this.fail(
        problems,
        err instanceof InvalidInputError ? err.message : `invalid urn ${show(value)}`,
      )
    }
    if (entityType && type !== entityType) {
      return this.fail(problems, `urn type '${type}' is not allowed here, expected ${entityType}`)
    }
    return value
  }

  private record(
    name: string,
    fields: ReadonlyArray<{ name: string; type: ModelTypeExpr; optional?: true }>,
    raw: unknown,
    problems: ValidationProblem[],
  ): unknown {
    let value = raw
    if (isObject(value)) {
      // `{"com.linkedin.pegasus2avro.x.Record": {...}}`: an Avro union wrapper around the record itself.
      const keys = Object.keys(value)
      if (keys.length === 1 && canonicalRecordName(keys[0] as string) === name)
        value = value[keys[0] as string]
    }
    if (!isObject(value)) return this.fail(problems, `${show(raw)} is not a record of ${name}`)
    const out: Record<string, unknown> = {}
    const path = this.path
    for (const field of fields) {
      const member = value[field.name]
      path.push(field.name)
      if (member === undefined || member === null) {
        if (!field.optional) this.fail(problems, 'field is required but not found and has no default value')
      } else {
        const checked = this.check(field.type, member, problems)
        if (checked !== SKIP) out[field.name] = checked
      }
      path.pop()
    }
    return out
  }

  private array(items: ModelTypeExpr, raw: unknown, problems: ValidationProblem[]): unknown {
    const value = isObject(raw) && Array.isArray(raw.array) && Object.keys(raw).length === 1 ? raw.array : raw
    if (!Array.isArray(value)) return this.fail(problems, `${show(raw)} is not an array`)
    const out: unknown[] = new Array(value.length)
    const path = this.path
    for (let i = 0; i < value.length; i++) {
      path.push(i)
      out[i] = this.check(items, value[i], problems)
      path.pop()
    }
    return out
  }

  private map(values: ModelTypeExpr, raw: unknown, problems: ValidationProblem[]): unknown {
    const value = isObject(raw) && isObject(raw.map) && Object.keys(raw).length === 1 ? raw.map : raw
    if (!isObject(value)) return this.fail(problems, `${show(raw)} is not a map`)
    const out: Record<string, unknown> = {}
    const path = this.path
    for (const k of Object.keys(value)) {
      const v = value[k]
      if (v === null) continue
      path.push(k)
      const checked = this.check(values, v, problems)
      path.pop()
      if (checked !== SKIP) out[k] = checked
    }
    return out
  }

  private union(members: readonly ModelUnionMember[], raw: unknown, problems: ValidationProblem[]): unknown {
    if (raw === null && members.some((m) => m.key === 'null')) return null
    if (!isObject(raw))
      return this.fail(problems, `${show(raw)} is not a union: expected {"<member>": value}`)
    // Avro-JSON of an aliased union names its member in `fieldDiscriminator` too (Python SDK).
    const discriminator = raw.fieldDiscriminator
    const keys = Object.keys(raw).filter(
      (k) => raw[k] !== null && !(k === 'fieldDiscriminator' && typeof discriminator === 'string'),
    )
    if (keys.length !== 1) {
      return this.fail(problems, `a union holds exactly one member, got ${keys.length}`)
    }
    const given = keys[0] as string
    if (typeof discriminator === 'string' && discriminator !== given) {
      return this.fail(problems, `fieldDiscriminator "${discriminator}" does not name the member "${given}"`)
    }
    const key = canonicalRecordName(given)
    const member = members.find((m) => m.key === key)
    if (!member) {
      return this.fail(
        problems,
        `"${given}" is not a member of the union (${members.map((m) => m.key).join(', ')})`,
      )
    }
    this.path.push(key)
    const checked = this.check(member.type, raw[given], problems)
    this.path.pop()
    return checked === SKIP ? SKIP : { [key]: checked }
  }

  /** Notes a problem at the current path (up to {@link MAX_PROBLEMS}); returns {@link SKIP}. */
  private fail(problems: ValidationProblem[], message: string): typeof SKIP {
    if (problems.length >= MAX_PROBLEMS) return SKIP
    let pointer = ''
    for (const segment of this.path)
      pointer += `/${typeof segment === 'number' ? segment : escapePointer(segment)}`
    problems.push({ pointer: pointer || '/', message })
    return SKIP
  }
}

const isString = (v: unknown): boolean => typeof v === 'string'
const isBoolean = (v: unknown): boolean => typeof v === 'boolean'

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
