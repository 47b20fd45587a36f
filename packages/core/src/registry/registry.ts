import { InvalidInputError, ValidationError } from '../errors.js'
import { checkAspectLimits } from '../limits.js'
import { checkWritableUrn, formatUrn, parseUrn, type Urn } from '../urn.js'
import { defaultBrowsePathsV2 } from './browse-paths-v2.js'
import { type LoadedModel, loadModel } from './model/load-model.js'
import type { ModelFile, ModelTypeDecl } from './model/model-file.js'
import { canonicalRecordName } from './normalize.js'
import { entriesAt } from './paths.js'
import type {
  AspectSpec,
  EntitySpec,
  RelationshipField,
  SearchableField,
  UrnValidationField,
} from './types.js'
import { ModelValidator } from './validator.js'

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

/**
 * The entity registry: DataHub's model (`model/datahub-model.json`, derived from DataHub's
 * PDL and entity registry) as one source for URN shapes, key aspects, aspect types, record
 * names, and the searchable, relationship, URN-validation and time-series annotations.
 * Validation, default aspects, edges and search documents all derive from it.
 */
export class Registry {
  private readonly entities = new Map<string, EntitySpec>()
  private readonly aspects = new Map<string, AspectSpec>()
  private readonly entityAspects = new Map<string, ReadonlySet<string>>()
  private readonly byRecord = new Map<string, AspectSpec>()
  private readonly bySnapshot = new Map<string, EntitySpec>()
  private readonly byLowerName = new Map<string, EntitySpec>()
  private readonly validator: ModelValidator
  /** Where the model comes from: DataHub's repository and commit. */
  readonly source: ModelFile['source']

  constructor(model: LoadedModel = loadModel()) {
    this.validator = new ModelValidator(model.file.types)
    this.source = model.file.source
    for (const spec of model.aspects) {
      this.aspects.set(spec.name, spec)
      this.byRecord.set(spec.record, spec)
    }
    for (const entity of model.entities) {
      this.entities.set(entity.name, entity)
      this.byLowerName.set(entity.name.toLowerCase(), entity)
      this.entityAspects.set(entity.name, new Set([entity.keyAspect, ...entity.aspects]))
      if (entity.snapshot) this.bySnapshot.set(entity.snapshot, entity)
      for (const name of [entity.keyAspect, ...entity.aspects]) {
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

  /**
   * The entity type named `name` in any letter case (`datajob` is `dataJob`), as DataHub's
   * registry looks up the entity names of its OpenAPI paths; undefined when there is none.
   */
  findEntityAnyCase(name: string): EntitySpec | undefined {
    return this.entities.get(name) ?? this.byLowerName.get(name.toLowerCase())
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
    return this.aspects.get(entity.keyAspect) as AspectSpec
  }

  /** True when `aspectName` is the key aspect or one of the entity's aspects. */
  hasAspect(entity: EntitySpec, aspectName: string): boolean {
    return this.entityAspects.get(entity.name)?.has(aspectName) === true
  }

  /** The aspect `aspectName` of `entity`, key aspect included, or undefined. */
  findAspect(entity: EntitySpec, aspectName: string): AspectSpec | undefined {
    return this.hasAspect(entity, aspectName) ? this.aspects.get(aspectName) : undefined
  }

  /** Any aspect of any entity type by name, key aspects included. */
  findAnyAspect(aspectName: string): AspectSpec | undefined {
    return this.aspects.get(aspectName)
  }

  /** A named type of DataHub's model (record, enum, typeref, fixed), or undefined. */
  typeDecl(name: string): ModelTypeDecl | undefined {
    return this.validator.decl(name)
  }

  /** The symbols of one of DataHub's enums (`com.linkedin.chart.ChartType`); empty when unknown. */
  enumSymbols(name: string): readonly string[] {
    const decl = this.validator.decl(name)
    return decl?.kind === 'enum' ? decl.symbols : []
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

  /** Every aspect spec, key aspects included. */
  allAspects(): AspectSpec[] {
    return [...this.aspects.values()]
  }

  /**
   * Parses `raw` and checks it against the registry: the entity type exists (422 otherwise),
   * the URN has the key's shape and its members are valid, and it is one DataHub lets a
   * write name: at most 512 URL-encoded bytes, no edge whitespace (400 otherwise).
   */
  resolveUrn(raw: string): EntityRef {
    const urn = parseUrn(raw)
    checkWritableUrn(urn)
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
    checkAspectLimits(spec.name, raw)
    const outcome = this.validator.validate(spec.record, raw)
    if (!outcome.ok) {
      const problems = outcome.problems.map((p) => `ERROR :: ${p.pointer} :: ${p.message}`)
      throw new ValidationError(`Failed to validate record with class ${spec.record}: ${problems.join('\n')}`)
    }
    for (const rule of spec.urnValidation ?? []) checkUrnTypes(spec, rule, outcome.value)
    spec.check?.(outcome.value, this)
    return outcome.value
  }

  /**
   * Default aspects DataHub writes with the first aspect of a new entity: key, browsePaths,
   * browsePathsV2, dataPlatformInstance. DataHub writes `browsePaths` with browse v2 off and
   * `browsePathsV2` with it on; both are written here, so that both browse APIs find the entity.
   */
  defaultAspects(ref: EntityRef): Array<{ aspect: string; value: Record<string, unknown> }> {
    const out: Array<{ aspect: string; value: Record<string, unknown> }> = [
      { aspect: ref.entity.keyAspect, value: this.keyValue(ref) },
    ]
    const browsePath = ref.entity.defaultBrowsePath?.(ref.key)
    if (browsePath && ref.entity.aspects.includes('browsePaths')) {
      out.push({ aspect: 'browsePaths', value: { paths: [browsePath] } })
    }
    if (ref.entity.aspects.includes('browsePathsV2')) {
      out.push({ aspect: 'browsePathsV2', value: defaultBrowsePathsV2(ref.entity.name, ref.key) })
    }
    const platform = defaultPlatform(ref)
    if (platform && ref.entity.aspects.includes('dataPlatformInstance')) {
      out.push({ aspect: 'dataPlatformInstance', value: { platform } })
    }
    return out
  }

  /** Edges an aspect value produces, from the relationship annotations (key aspect included). */
  edges(entity: EntitySpec, aspectName: string, value: unknown): DerivedEdge[] {
    const rels = this.findAspect(entity, aspectName)?.relationships
    const out: DerivedEdge[] = []
    // Most aspects (and every default aspect but a key's) have no relationship: no set made for them.
    if (rels === undefined || rels.length === 0) return out
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
    if (field.urnOf !== undefined) {
      let innerType: string | undefined
      try {
        innerType = parseUrn(part).entityType
      } catch {
        innerType = undefined
      }
      if (innerType === undefined || (field.urnOf !== '' && innerType !== field.urnOf)) {
        throw new InvalidInputError(
          `Invalid urn '${urn.raw}': ${field.name} must be a ${field.urnOf || 'urn'}${field.urnOf ? ' urn' : ''}, got '${part}'`,
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

/** DataHub's `@UrnValidation`: the URNs at the rule's path must be of one of its entity types. */
function checkUrnTypes(spec: AspectSpec, rule: UrnValidationField, value: unknown): void {
  for (const { pointer, value: target } of entriesAt(value, rule.path)) {
    if (typeof target !== 'string') continue
    const type = parseUrn(target).entityType
    if (!rule.entityTypes.includes(type)) {
      throw new ValidationError(
        `Failed to validate record with class ${spec.record}: ERROR :: ${pointer} :: urn type '${type}' is not allowed here, expected ${rule.entityTypes.join(' or ')}`,
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
