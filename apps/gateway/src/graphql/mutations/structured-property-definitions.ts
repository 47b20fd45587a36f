import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { forgetDefinitions } from '../resolvers/structured-property-entity.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { DEFINITION, toPrimitive } from './structured-property-values.js'
import { deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

const SETTINGS = 'structuredPropertySettings'
/** The display settings, each false unless set (DataHub's `StructuredPropertySettings`). */
const SETTING_NAMES = [
  'isHidden',
  'showInSearchFilters',
  'showInAssetSummary',
  'hideInAssetSummaryWhenEmpty',
  'showAsAssetBadge',
  'showInColumnsTable',
] as const
type SettingsInput = Partial<Record<(typeof SETTING_NAMES)[number], boolean | null>>

interface AllowedValueInput {
  readonly stringValue?: string | null
  readonly numberValue?: number | null
  readonly description?: string | null
}

interface CreateInput {
  readonly id?: string | null
  readonly qualifiedName?: string | null
  readonly displayName?: string | null
  readonly description?: string | null
  readonly immutable?: boolean | null
  readonly valueType: string
  readonly typeQualifier?: { readonly allowedTypes?: readonly string[] | null } | null
  readonly allowedValues?: readonly AllowedValueInput[] | null
  readonly cardinality?: 'SINGLE' | 'MULTIPLE' | null
  readonly entityTypes: readonly string[]
  readonly allowedPlatforms?: readonly string[] | null
  readonly settings?: SettingsInput | null
}

interface UpdateInput {
  readonly urn: string
  readonly displayName?: string | null
  readonly description?: string | null
  readonly immutable?: boolean | null
  readonly typeQualifier?: { readonly newAllowedTypes?: readonly string[] | null } | null
  readonly newAllowedValues?: readonly AllowedValueInput[] | null
  readonly setCardinalityAsMultiple?: boolean | null
  readonly newEntityTypes?: readonly string[] | null
  readonly newAllowedPlatforms?: readonly string[] | null
  readonly settings?: SettingsInput | null
}

/** A `PropertyValue`: the primitive and its description. */
function allowedValue(input: AllowedValueInput): AspectValue {
  const value: AspectValue = { value: toPrimitive(input) }
  if (input.description != null) value.description = input.description
  return value
}

/** The settings `base` with the given inputs applied; DataHub's `validatePropertySettings` on the result. */
function settingsWith(base: AspectValue, input: SettingsInput): { value: AspectValue; changed: boolean } {
  const value: AspectValue = { ...base }
  let changed = false
  for (const name of SETTING_NAMES) {
    const given = input[name]
    if (given == null) continue
    if ((base[name] ?? false) !== given) changed = true
    value[name] = given
  }
  const on = (name: (typeof SETTING_NAMES)[number]) => value[name] === true
  if (
    on('isHidden') &&
    (on('showInSearchFilters') ||
      on('showInAssetSummary') ||
      on('showAsAssetBadge') ||
      on('showInColumnsTable'))
  ) {
    throw new InvalidInputError(
      'Cannot have property isHidden = true while other display location settings are also true.',
    )
  }
  return { value, changed }
}

/**
 * DataHub's CreateStructuredPropertyResolver: the id is the qualified name (or the id, or a
 * UUID; both given must match), refused when taken; writes the definition, stamped, and the
 * settings when given.
 */
async function createStructuredProperty(
  _: unknown,
  { input }: { input: CreateInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  if (input.id != null && input.qualifiedName != null && input.id !== input.qualifiedName) {
    throw new InvalidInputError('Qualified name and the ID of a structured property must match')
  }
  const id = input.qualifiedName ?? input.id ?? randomUUID()
  const property = resolveInput(ctx, `urn:li:structuredProperty:${id}`)
  if (await ctx.client.exists(property.urn)) {
    throw new InvalidInputError('A structured property already exists with this urn')
  }
  const stamp = stampOf(ctx)
  const definition: AspectValue = {
    qualifiedName: id,
    valueType: input.valueType,
    entityTypes: [...new Set(input.entityTypes)],
  }
  if (input.displayName != null) definition.displayName = input.displayName
  if (input.description != null) definition.description = input.description
  if (input.immutable != null) definition.immutable = input.immutable
  if (input.typeQualifier?.allowedTypes != null) {
    definition.typeQualifier = { allowedTypes: [...input.typeQualifier.allowedTypes] }
  }
  if (input.allowedValues != null) definition.allowedValues = input.allowedValues.map(allowedValue)
  if (input.cardinality != null) definition.cardinality = input.cardinality
  if (input.allowedPlatforms != null) definition.allowedPlatforms = [...new Set(input.allowedPlatforms)]
  definition.created = stamp
  definition.lastModified = stamp
  const proposals: MetadataProposal[] = [upsert(property, DEFINITION, definition)]
  if (input.settings) {
    const { value } = settingsWith({}, input.settings)
    proposals.push(upsert(property, SETTINGS, { ...value, lastModified: stamp }))
  }
  await write(ctx, proposals)
  forgetDefinitions(ctx)
  return { urn: property.urn }
}

/** The property's definition, settings and status; DataHub's messages when it cannot be updated. */
async function updatable(ctx: CatalogContext, urn: string) {
  const property = resolveInput(ctx, urn)
  const aspects =
    property.entity.name === 'structuredProperty'
      ? ((await ctx.client.getEntities([property.urn], [DEFINITION, SETTINGS, 'status'])).get(property.urn)
          ?.aspects ?? {})
      : {}
  const definition = aspects[DEFINITION]
  if (!definition) {
    throw new InvalidInputError('Attempting to update a structured property with no definition aspect.')
  }
  if (aspects.status?.removed === true) {
    throw new InvalidInputError('Cannot mutate a soft deleted Structured Property Definition')
  }
  return { property, definition, settings: aspects[SETTINGS] ?? {} }
}

/** The PATCH of the definition an update asks for (none when it asks nothing of it). */
function definitionPatch(
  property: EntityRef,
  definition: AspectValue,
  input: UpdateInput,
  stamp: AspectValue,
): MetadataProposal | undefined {
  const ops: PatchOp[] = []
  const set = (member: string, value: unknown) => ops.push({ op: 'add', path: pointer(member), value })
  if (input.displayName != null) set('displayName', input.displayName)
  if (input.description != null) set('description', input.description)
  if (input.immutable != null) set('immutable', input.immutable)
  if (input.typeQualifier?.newAllowedTypes != null) {
    const existing = (definition.typeQualifier as { allowedTypes?: string[] } | undefined)?.allowedTypes ?? []
    ops.push({
      op: 'add',
      path: pointer('typeQualifier', 'allowedTypes'),
      value: [...existing, ...input.typeQualifier.newAllowedTypes],
    })
  }
  if (input.newAllowedValues != null) {
    // DataHub's PropertyDefinitionValidator: adding allowed values to a free property restricts it.
    if (!Array.isArray(definition.allowedValues)) {
      throw new InvalidInputError('Cannot restrict values that were previously allowed')
    }
    for (const v of input.newAllowedValues) {
      const value = allowedValue(v)
      const key = String(Object.values(value.value as object)[0] ?? '')
      ops.push({ op: 'add', path: pointer('allowedValues', key), value })
    }
  }
  if (input.setCardinalityAsMultiple === true) set('cardinality', 'MULTIPLE')
  for (const type of input.newEntityTypes ?? []) {
    ops.push({ op: 'add', path: pointer('entityTypes', type), value: type })
  }
  for (const platform of input.newAllowedPlatforms ?? []) {
    ops.push({ op: 'add', path: pointer('allowedPlatforms', platform), value: platform })
  }
  if (ops.length === 0) return undefined
  set('lastModified', stamp)
  return patch(property, DEFINITION, ops)
}

/**
 * DataHub's UpdateStructuredPropertyResolver: display name, description and immutability
 * replaced; allowed types, allowed values, entity types and platforms only added; cardinality
 * only widened to MULTIPLE (a PATCH of the definition); settings merged (stamped when changed).
 */
async function updateStructuredProperty(
  _: unknown,
  { input }: { input: UpdateInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const { property, definition, settings } = await updatable(ctx, input.urn)
  const stamp = stampOf(ctx)
  const proposals: MetadataProposal[] = []
  const definitionChange = definitionPatch(property, definition, input, stamp)
  if (definitionChange) proposals.push(definitionChange)
  if (input.settings) {
    const { value, changed } = settingsWith(settings, input.settings)
    proposals.push(upsert(property, SETTINGS, changed ? { ...value, lastModified: stamp } : value))
  }
  await write(ctx, proposals)
  forgetDefinitions(ctx)
  return { urn: property.urn }
}

/**
 * DataHub's DeleteStructuredPropertyResolver: a hard delete of the property (true also when there
 * was none). Only structured property URNs are taken, so no other entity can be deleted here.
 */
async function deleteStructuredProperty(
  _: unknown,
  { input }: { input: { urn: string } },
  ctx: CatalogContext,
): Promise<boolean> {
  const property = resolveInput(ctx, input.urn)
  if (property.entity.name !== 'structuredProperty') {
    throw new InvalidInputError(`${property.urn} is not a structured property urn`)
  }
  if (await ctx.client.exists(property.urn)) await write(ctx, [deleteEntity(property)])
  forgetDefinitions(ctx)
  return true
}

/** Structured property definitions. */
export const structuredPropertyDefinitionMutations = {
  createStructuredProperty,
  updateStructuredProperty,
  deleteStructuredProperty,
}
