import { type TSchema, Type } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { InvalidInputError, ValidationError } from '../errors.js'
import { formatUrn, parseUrn, type Urn } from '../urn.js'
import { ASPECTS } from './aspects/index.js'
import { ENTITIES } from './entities.js'
import { canonicalRecordName, normalizeAspectJson, unwrapAvroUnions } from './normalize.js'
import { entriesAt } from './paths.js'
import { UrnString } from './schema-kit.js'
import type { AspectSpec, EntitySpec, RelationshipField, SearchableField } from './types.js'

/** A URN checked against the registry, with its key members by name. */
export interface EntityRef {
  readonly urn: string
  readonly entity: EntitySpec
  readonly key: Readonly<Record<string, string>>
}

/** An edge an aspect value produces: `source -[type]-> destination`. */
export interface DerivedEdge {
  readonly type: string
  readonly destination: string
  readonly isLineage: boolean
  readonly isUpstream: boolean
}

/** A searchable field and the aspect it reads. */
export interface SearchableBinding {
  readonly aspect: string
  readonly field: SearchableField
}

const MAX_REPORTED_ERRORS = 5

/**
 * The entity registry: one declarative source for URN shapes, key aspects, aspect schemas,
 * record names, searchable and relationship annotations. Validation, default aspects,
 * edges and search documents all derive from it.
 */
export class Registry {
  private readonly entities = new Map<string, EntitySpec>()
  private readonly aspects = new Map<string, AspectSpec>()
  private readonly keyAspects = new Map<string, AspectSpec>()
  private readonly byRecord = new Map<string, AspectSpec>()
  private readonly bySnapshot = new Map<string, EntitySpec>()
  private readonly checks = new Map<string, TypeCheck<TSchema>>()

  constructor(entities: readonly EntitySpec[] = ENTITIES, aspects: readonly AspectSpec[] = ASPECTS) {
    for (const spec of aspects) {
      this.aspects.set(spec.name, spec)
      this.byRecord.set(spec.record, spec)
    }
    for (const entity of entities) {
      this.entities.set(entity.name, entity)
      if (entity.snapshot) this.bySnapshot.set(entity.snapshot, entity)
      const key = keyAspectSpec(entity)
      this.keyAspects.set(entity.name, key)
      this.byRecord.set(key.record, key)
      for (const name of entity.aspects) {
        if (!this.aspects.has(name))
          throw new Error(`registry: entity ${entity.name} lists unknown aspect ${name}`)
      }
    }
  }

  /** Every entity type. */
  allEntities(): EntitySpec[] {
    return [...this.entities.values()]
  }

  /** The entity type named `name`, or undefined. */
  findEntity(name: string): EntitySpec | undefined {
    return this.entities.get(name)
  }

  /** The entity type named `name`; a {@link ValidationError} when there is none. */
  entity(name: string): EntitySpec {
    const spec = this.entities.get(name)
    if (!spec)
      throw new ValidationError(
        `Unknown entity: ${name}. Failed to find entity with name ${name} in EntityRegistry`,
      )
    return spec
  }

  /** The entity type whose snapshot record is `recordName` (pegasus2avro accepted). */
  entityBySnapshot(recordName: string): EntitySpec | undefined {
    return this.bySnapshot.get(canonicalRecordName(recordName))
  }

  /** The key aspect spec of an entity type. */
  keyAspect(entity: EntitySpec): AspectSpec {
    return this.keyAspects.get(entity.name) as AspectSpec
  }

  /** True when `aspectName` is the key aspect or one of the entity's aspects. */
  hasAspect(entity: EntitySpec, aspectName: string): boolean {
    return aspectName === entity.keyAspect || entity.aspects.includes(aspectName)
  }

  /** The aspect `aspectName` of `entity`, key aspect included, or undefined. */
  findAspect(entity: EntitySpec, aspectName: string): AspectSpec | undefined {
    if (aspectName === entity.keyAspect) return this.keyAspect(entity)
    return entity.aspects.includes(aspectName) ? this.aspects.get(aspectName) : undefined
  }

  /** The aspect `aspectName` of `entity`; a {@link ValidationError} when the entity has no such aspect. */
  aspect(entity: EntitySpec, aspectName: string): AspectSpec {
    const spec = this.findAspect(entity, aspectName)
    if (!spec) throw new ValidationError(`Unknown aspect ${aspectName} for entity ${entity.name}`)
    return spec
  }

  /** The aspect whose Pegasus record is `recordName` (pegasus2avro accepted). */
  aspectByRecord(recordName: string): AspectSpec | undefined {
    return this.byRecord.get(canonicalRecordName(recordName))
  }

  /** Every aspect spec that is not a key aspect. */
  allAspects(): AspectSpec[] {
    return [...this.aspects.values()]
  }

  /**
   * Parses `raw` and checks it against the registry: the entity type exists (422 otherwise),
   * the URN has the key's shape and its members are valid (400 otherwise).
   */
  resolveUrn(raw: string): EntityRef {
    const urn = parseUrn(raw)
    const entity = this.entity(urn.entityType)
    return { urn: raw, entity, key: keyOf(entity, urn) }
  }

  /** The key aspect value of a resolved URN. */
  keyValue(ref: EntityRef): Record<string, string> {
    return { ...ref.key }
  }

  /**
   * Validates an aspect value against its schema the way DataHub >= 1.0 does: Avro-style
   * JSON is normalized, unknown members are dropped, then types and required members are
   * checked, as are the entity types of relationship URNs. Returns the value to store;
   * throws a {@link ValidationError} naming each bad path.
   */
  validateAspect(spec: AspectSpec, raw: unknown): Record<string, unknown> {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new ValidationError(
        `Failed to validate record with class ${spec.record}: ERROR :: / :: expected a JSON object`,
      )
    }
    const value = Value.Clean(spec.schema, unwrapAvroUnions(spec.schema, normalizeAspectJson(raw))) as Record<
      string,
      unknown
    >
    const check = this.compiled(spec)
    if (!check.Check(value)) {
      const problems = [...check.Errors(value)]
        .slice(0, MAX_REPORTED_ERRORS)
        .map((e) => `ERROR :: ${e.path || '/'} :: ${e.message}`)
      throw new ValidationError(`Failed to validate record with class ${spec.record}: ${problems.join('\n')}`)
    }
    for (const rel of spec.relationships ?? []) checkRelationshipTargets(spec, rel, value)
    spec.check?.(value, this)
    return value
  }

  /** Default aspects DataHub writes with the first aspect of a new entity: key, browsePaths, dataPlatformInstance. */
  defaultAspects(ref: EntityRef): Array<{ aspect: string; value: Record<string, unknown> }> {
    const out: Array<{ aspect: string; value: Record<string, unknown> }> = [
      { aspect: ref.entity.keyAspect, value: this.keyValue(ref) },
    ]
    const browsePath = ref.entity.defaultBrowsePath?.(ref.key)
    if (browsePath && ref.entity.aspects.includes('browsePaths')) {
      out.push({ aspect: 'browsePaths', value: { paths: [browsePath] } })
    }
    const platform = defaultPlatform(ref)
    if (platform && ref.entity.aspects.includes('dataPlatformInstance')) {
      out.push({ aspect: 'dataPlatformInstance', value: { platform } })
    }
    return out
  }

  /** Edges an aspect value produces, from the relationship annotations (key aspect included). */
  edges(entity: EntitySpec, aspectName: string, value: unknown): DerivedEdge[] {
    const rels =
      aspectName === entity.keyAspect
        ? (entity.keyRelationships ?? [])
        : (this.aspects.get(aspectName)?.relationships ?? [])
    const out: DerivedEdge[] = []
    const seen = new Set<string>()
    for (const rel of rels) {
      for (const { value: destination } of entriesAt(value, rel.path)) {
        if (typeof destination !== 'string' || !destination.startsWith('urn:li:')) continue
        const id = `${rel.name}\u0000${destination}`
        if (seen.has(id)) continue
        seen.add(id)
        out.push({
          type: rel.name,
          destination,
          isLineage: rel.isLineage === true,
          isUpstream: rel.isUpstream !== false,
        })
      }
    }
    return out
  }

  /** Every relationship annotation in the registry, key aspects included. */
  allRelationships(): RelationshipField[] {
    const out: RelationshipField[] = []
    for (const a of this.aspects.values()) out.push(...(a.relationships ?? []))
    for (const e of this.entities.values()) out.push(...(e.keyRelationships ?? []))
    return out
  }

  /** The searchable fields of an entity type, by the aspect each reads. */
  searchable(entity: EntitySpec): SearchableBinding[] {
    const out: SearchableBinding[] = (entity.keySearchable ?? []).map((field) => ({
      aspect: entity.keyAspect,
      field,
    }))
    for (const name of entity.aspects) {
      for (const field of this.aspects.get(name)?.searchable ?? []) out.push({ aspect: name, field })
    }
    return out
  }

  private compiled(spec: AspectSpec): TypeCheck<TSchema> {
    let check = this.checks.get(spec.name)
    if (!check) {
      check = TypeCompiler.Compile(spec.schema)
      this.checks.set(spec.name, check)
    }
    return check
  }
}

function keyAspectSpec(entity: EntitySpec): AspectSpec {
  const props: Record<string, TSchema> = {}
  for (const f of entity.keyFields) props[f.name] = f.urnOf ? UrnString() : Type.String()
  const pascal = entity.keyAspect.replace(/^ml/, 'ML').replace(/^./, (c) => c.toUpperCase())
  return { name: entity.keyAspect, record: `com.linkedin.metadata.key.${pascal}`, schema: Type.Object(props) }
}

function keyOf(entity: EntitySpec, urn: Urn): Record<string, string> {
  const fields = entity.keyFields
  // A one-member key takes the whole id, parentheses and commas included.
  const parts = fields.length === 1 ? [urn.raw.slice(`urn:li:${urn.entityType}:`.length)] : urn.parts
  if (parts.length !== fields.length) {
    throw new InvalidInputError(
      `Invalid urn '${urn.raw}': a ${entity.name} urn has ${fields.length} members (${fields.map((f) => f.name).join(', ')}), got ${parts.length}`,
    )
  }
  const key: Record<string, string> = {}
  fields.forEach((field, i) => {
    const part = parts[i] as string
    if (field.urnOf) {
      let innerType: string | undefined
      try {
        innerType = parseUrn(part).entityType
      } catch {
        innerType = undefined
      }
      if (innerType !== field.urnOf) {
        throw new InvalidInputError(
          `Invalid urn '${urn.raw}': ${field.name} must be a ${field.urnOf} urn, got '${part}'`,
        )
      }
    }
    if (field.enum && !field.enum.includes(part)) {
      throw new InvalidInputError(
        `Invalid urn '${urn.raw}': ${field.name} '${part}' is not one of ${field.enum.join(', ')}`,
      )
    }
    key[field.name] = part
  })
  return key
}

function checkRelationshipTargets(spec: AspectSpec, rel: RelationshipField, value: unknown): void {
  for (const { pointer, value: target } of entriesAt(value, rel.path)) {
    if (typeof target !== 'string') continue
    let type: string
    try {
      type = parseUrn(target).entityType
    } catch (err) {
      throw new ValidationError(
        `Failed to validate record with class ${spec.record}: ERROR :: ${pointer} :: ${(err as Error).message}`,
      )
    }
    if (!rel.entityTypes.includes(type)) {
      throw new ValidationError(
        `Failed to validate record with class ${spec.record}: ERROR :: ${pointer} :: urn type '${type}' is not allowed here, expected ${rel.entityTypes.join(' or ')}`,
      )
    }
  }
}

/** DataHub's `buildDataPlatformUrn`: the platform of datasets, charts, dashboards, flows and jobs. */
function defaultPlatform(ref: EntityRef): string | undefined {
  const k = ref.key
  switch (ref.entity.name) {
    case 'dataset':
      return k.platform
    case 'chart':
    case 'dashboard':
      return formatUrn('dataPlatform', [k.dashboardTool ?? ''])
    case 'dataFlow':
      return formatUrn('dataPlatform', [k.orchestrator ?? ''])
    case 'dataJob': {
      const flow = parseUrn(k.flow ?? '')
      return formatUrn('dataPlatform', [flow.parts[0] ?? ''])
    }
    default:
      return undefined
  }
}
