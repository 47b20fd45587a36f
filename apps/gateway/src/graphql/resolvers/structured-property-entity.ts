import { InvalidInputError } from '@catalog/core'
import { type GraphQLEnumType, type GraphQLResolveInfo, isEnumType } from 'graphql'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { EntityLoader } from '../entity-loader.js'
import { type EntitySource, type Mapped, num, ref, str } from '../mappers/common.js'
import { DEFINITION, valueTypeId } from '../mutations/structured-property-values.js'
import { entityRelationships } from './entity-fields/relationships.js'
import { entitySymbol } from './search-input.js'

/**
 * `StructuredPropertyEntity` and the `DataTypeEntity` / `EntityTypeEntity` objects of its
 * definition, as DataHub's StructuredPropertyMapper, DataTypeEntityMapper and
 * EntityTypeEntityMapper give them. These types are not in the entity mappings (they are not
 * searched, browsed or served by `entity(urn:)` here); their aspects load in batches per request.
 */

const SETTINGS = 'structuredPropertySettings'
const ASPECTS: Readonly<Record<string, readonly string[]>> = {
  structuredProperty: [DEFINITION, SETTINGS, 'status'],
  dataType: ['dataTypeInfo'],
  entityType: ['entityTypeInfo'],
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

const loaders = new WeakMap<CatalogContext, EntityLoader>()
function loaderOf(ctx: CatalogContext): EntityLoader {
  let loader = loaders.get(ctx)
  if (!loader) {
    loader = new EntityLoader(ctx.client, ctx.registry, (type) => ASPECTS[type] ?? [])
    loaders.set(ctx, loader)
  }
  return loader
}

/** Forgets the definitions read by this request (after a write of one). */
export function forgetDefinitions(ctx: CatalogContext): void {
  loaders.get(ctx)?.clear()
}

const aspectsOf = async (ctx: CatalogContext, urn: string) => (await loaderOf(ctx).load(urn)).aspects

/** The id of a `urn:li:<type>:<id>` URN. */
const idOf = (urn: string) => urn.split(':').slice(3).join(':')

/** `DataTypeEntity`: `info` from `dataTypeInfo`, or DataHub's bootstrapped name (the URN id). */
function dataType(urn: string): Mapped {
  return {
    urn,
    type: 'DATA_TYPE',
    info: async (_: unknown, ctx: CatalogContext) => {
      const info = (await aspectsOf(ctx, urn)).dataTypeInfo
      const qualifiedName = str(info?.qualifiedName) ?? idOf(urn)
      const id = valueTypeId(`urn:li:dataType:${qualifiedName}`).toUpperCase()
      const known = ['STRING', 'NUMBER', 'URN', 'RICH_TEXT', 'DATE'].includes(id)
      return {
        type: known ? id : 'OTHER',
        qualifiedName,
        displayName: str(info?.displayName),
        description: str(info?.description),
      }
    },
  }
}

/** The `EntityType` symbol of an entity name, OTHER when DataHub's enum has none. */
function entityTypeSymbol(name: string, info: GraphQLResolveInfo): string {
  const type = info.schema.getType('EntityType')
  const values = isEnumType(type) ? (type as GraphQLEnumType).getValues().map((v) => v.name) : []
  const served = entitySymbol(name)
  if (values.includes(served)) return served
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
  return values.includes(snake) ? snake : 'OTHER'
}

/** `EntityTypeEntity`: `info` from `entityTypeInfo`, or DataHub's bootstrapped name (the URN id). */
function entityType(urn: string): Mapped {
  return {
    urn,
    type: 'ENTITY_TYPE',
    info: async (_: unknown, ctx: CatalogContext, info: GraphQLResolveInfo) => {
      const stored = (await aspectsOf(ctx, urn)).entityTypeInfo
      const qualifiedName = str(stored?.qualifiedName) ?? idOf(urn)
      const name = qualifiedName.startsWith('datahub.')
        ? qualifiedName.slice('datahub.'.length)
        : qualifiedName
      return {
        type: entityTypeSymbol(name, info),
        qualifiedName,
        displayName: str(stored?.displayName),
        description: str(stored?.description),
      }
    },
  }
}

function stamp(v: unknown): Mapped | null {
  const s = obj(v)
  return s ? { time: num(s.time) ?? 0, actor: ref(s.actor, ['corpuser']) ?? null } : null
}

/** A stored `PropertyValue` union member as `StringValue` or `NumberValue`. */
function propertyValue(v: unknown): Mapped | null {
  const p = obj(v)
  if (typeof p?.string === 'string') return { __typename: 'StringValue', stringValue: p.string }
  if (typeof p?.double === 'number') return { __typename: 'NumberValue', numberValue: p.double }
  return null
}

/** DataHub's default definition, served while a deleted property's references remain. */
const DEFAULT_DEFINITION: AspectValue = {
  qualifiedName: '',
  cardinality: 'SINGLE',
  immutable: true,
  valueType: 'urn:li:dataType:datahub.string',
  entityTypes: ['urn:li:entityType:datahub.dataset'],
}

/** `StructuredPropertyDefinition` from `propertyDefinition` (DataHub's default when absent). */
function definition(stored: AspectValue | undefined): Mapped {
  const d = stored ?? DEFAULT_DEFINITION
  const qualifier = obj(d.typeQualifier)
  return {
    qualifiedName: str(d.qualifiedName) ?? '',
    displayName: str(d.displayName),
    description: str(d.description),
    cardinality: d.cardinality === 'MULTIPLE' ? 'MULTIPLE' : 'SINGLE',
    immutable: d.immutable === true,
    valueType: dataType(str(d.valueType) ?? 'urn:li:dataType:datahub.string'),
    allowedValues: Array.isArray(d.allowedValues)
      ? d.allowedValues.map((a) => ({
          value: propertyValue(obj(a)?.value),
          description: str(obj(a)?.description),
        }))
      : null,
    typeQualifier: qualifier
      ? {
          allowedTypes: Array.isArray(qualifier.allowedTypes)
            ? qualifier.allowedTypes.map((t) => entityType(String(t)))
            : null,
        }
      : null,
    entityTypes: list(d.entityTypes).map((t) => entityType(String(t))),
    allowedPlatforms: Array.isArray(d.allowedPlatforms)
      ? d.allowedPlatforms.map((p) => ({ urn: String(p) }))
      : null,
    created: stamp(d.created),
    lastModified: stamp(d.lastModified),
  }
}

/** `StructuredPropertySettings` from `structuredPropertySettings`; null when absent. */
function settings(stored: AspectValue | undefined): Mapped | null {
  if (!stored) return null
  const flag = (name: string) => stored[name] === true
  return {
    isHidden: flag('isHidden'),
    showInSearchFilters: flag('showInSearchFilters'),
    showInAssetSummary: flag('showInAssetSummary'),
    hideInAssetSummaryWhenEmpty: flag('hideInAssetSummaryWhenEmpty'),
    showAsAssetBadge: flag('showAsAssetBadge'),
    showInColumnsTable: flag('showInColumnsTable'),
  }
}

/** Field resolvers of `StructuredPropertyEntity`. */
export const structuredPropertyEntityResolvers = {
  type: () => 'STRUCTURED_PROPERTY',
  exists: (source: EntitySource, _: unknown, ctx: CatalogContext) => ctx.client.exists(source.urn),
  definition: async (source: EntitySource, _: unknown, ctx: CatalogContext) =>
    definition((await aspectsOf(ctx, source.urn))[DEFINITION]),
  settings: async (source: EntitySource, _: unknown, ctx: CatalogContext) =>
    settings((await aspectsOf(ctx, source.urn))[SETTINGS]),
  relationships: entityRelationships,
}

/** `structuredProperty(urn:)`: the object of a structured property URN (built even when absent). */
export const structuredPropertyQueries = {
  structuredProperty: (_: unknown, { urn }: { urn: string }, ctx: CatalogContext): EntitySource => {
    const type = ctx.registry.resolveUrn(urn).entity.name
    if (type !== 'structuredProperty') {
      throw new InvalidInputError(`Invalid urn ${urn}: expected a structuredProperty urn`)
    }
    return { urn }
  },
}
