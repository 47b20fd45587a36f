import {
  type AspectSpec,
  type EntitySpec,
  InvalidInputError,
  NotFoundError,
  type Registry,
  type RelationshipField,
  type SearchableField,
} from '@catalog/core'

/** DataHub's `FieldSpecDto`, with what our registry knows of a field: its path and annotation. */
interface FieldSpecDto {
  readonly pathComponents: string[]
  readonly fieldType: string
  readonly annotations: Record<string, Record<string, unknown>>
}

/** DataHub's `AspectSpecDto` (empty field maps left out, as DataHub's `NON_EMPTY` does). */
export interface AspectSpecDto {
  readonly aspectAnnotation: { name: string; timeseries: boolean; autoRender: boolean }
  readonly searchableFieldSpec?: Record<string, FieldSpecDto>
  readonly relationshipFieldSpec?: Record<string, FieldSpecDto>
}

/** DataHub's `EntitySpecDto`, as far as our registry describes an entity. */
export interface EntitySpecDto {
  readonly name: string
  readonly entityAnnotation: { name: string; keyAspect: string }
  readonly keyAspectName: string
  readonly keyAspectSpec: AspectSpecDto
  readonly aspectSpecs: AspectSpecDto[]
  readonly aspectSpecMap: Record<string, AspectSpecDto>
}

/** DataHub's `PaginatedResponse`: a page of the items sorted by name. */
export interface SpecPage<T> {
  readonly elements: T[]
  readonly start: number
  readonly count: number
  readonly total: number
}

const components = (path: string) => path.split('/').filter((p) => p !== '')

function searchableSpec(field: SearchableField): FieldSpecDto {
  const { path, ...annotation } = field
  return {
    pathComponents: components(path),
    fieldType: 'SearchableFieldSpec',
    annotations: { searchableAnnotation: { ...annotation, fieldType: field.type } },
  }
}

function relationshipSpec(field: RelationshipField): FieldSpecDto {
  const { path, ...annotation } = field
  return {
    pathComponents: components(path),
    fieldType: 'RelationshipFieldSpec',
    annotations: { relationshipAnnotation: annotation },
  }
}

function byPath<F extends { readonly path: string }>(
  fields: readonly F[] | undefined,
  toDto: (f: F) => FieldSpecDto,
): Record<string, FieldSpecDto> | undefined {
  if (!fields || fields.length === 0) return undefined
  return Object.fromEntries(fields.map((f) => [f.path, toDto(f)]))
}

function aspectDto(spec: AspectSpec): AspectSpecDto {
  const searchable = byPath(spec.searchable, searchableSpec)
  const relationships = byPath(spec.relationships, relationshipSpec)
  return {
    // The model carries no render annotation: every aspect is listed as DataHub lists one without it.
    aspectAnnotation: { name: spec.name, timeseries: spec.timeseries === true, autoRender: false },
    ...(searchable ? { searchableFieldSpec: searchable } : {}),
    ...(relationships ? { relationshipFieldSpec: relationships } : {}),
  }
}

/**
 * The entity registry as DataHub's `/openapi/v1/registry/models` controller describes it:
 * entity specs (name, key aspect, aspect specs) and aspect specs, paged by name. The Python
 * SDK reads it to learn which aspects each entity type supports.
 */
export class RegistrySpecs {
  constructor(private readonly registry: Registry) {}

  entities(start: number, count: number): SpecPage<EntitySpecDto> {
    const all = [...this.registry.allEntities()].sort((a, b) => compare(a.name, b.name))
    return page(all, start, count, (e) => this.entityDto(e))
  }

  entity(name: string): EntitySpecDto {
    return this.entityDto(this.entitySpec(name))
  }

  entityAspects(name: string): Record<string, AspectSpecDto> {
    return this.entityDto(this.entitySpec(name)).aspectSpecMap
  }

  aspects(start: number, count: number): SpecPage<AspectSpecDto> {
    const byName = new Map(this.registry.allAspects().map((a) => [a.name, a]))
    const all = [...byName.values()].sort((a, b) => compare(a.name, b.name))
    return page(all, start, count, aspectDto)
  }

  aspect(name: string): AspectSpecDto {
    const spec = this.registry.allAspects().find((a) => a.name === name)
    if (!spec) throw new NotFoundError(`Failed to find aspect with name ${name}`)
    return aspectDto(spec)
  }

  private entitySpec(name: string): EntitySpec {
    const entity = this.registry.findEntityAnyCase(name)
    if (!entity) throw new NotFoundError(`Failed to find entity with name ${name}`)
    return entity
  }

  private entityDto(entity: EntitySpec): EntitySpecDto {
    const key = aspectDto(this.registry.keyAspect(entity))
    const aspects = [key, ...entity.aspects.map((a) => aspectDto(this.registry.aspect(entity, a)))]
    return {
      name: entity.name,
      entityAnnotation: { name: entity.name, keyAspect: entity.keyAspect },
      keyAspectName: entity.keyAspect,
      keyAspectSpec: key,
      aspectSpecs: aspects,
      aspectSpecMap: Object.fromEntries(aspects.map((a) => [a.aspectAnnotation.name, a])),
    }
  }
}

/** Java's `String.compareTo` order (UTF-16 code units), as DataHub sorts the map keys. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function page<S, T>(items: readonly S[], start: number, count: number, toDto: (s: S) => T): SpecPage<T> {
  if (items.length === 0) return { elements: [], start: 0, count: 0, total: 0 }
  if (start > items.length - 1) {
    throw new InvalidInputError(`Start offset ${start} exceeds total ${items.length - 1}`)
  }
  const elements = items.slice(start, start + count).map(toDto)
  return { elements, start, count: elements.length, total: items.length }
}
