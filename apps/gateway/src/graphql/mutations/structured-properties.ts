import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { structuredProperties } from '../mappers/associations.js'
import type { Mapped } from '../mappers/common.js'
import { type PatchOp, patch, pointer } from './patch.js'
import {
  assignmentError,
  DEFINITION,
  type Primitive,
  type PropertyDefinition,
  type PropertyValueInput,
  toPrimitive,
} from './structured-property-values.js'
import { currentAspect, resolveInput, stampOf, write } from './support.js'

const ASPECT = 'structuredProperties'

interface UpsertInput {
  readonly assetUrn: string
  readonly structuredPropertyInputParams: ReadonlyArray<{
    readonly structuredPropertyUrn: string
    readonly values: readonly PropertyValueInput[]
  }>
}

interface RemoveInput {
  readonly assetUrn: string
  readonly structuredPropertyUrns: readonly string[]
}

type Assignment = { propertyUrn?: unknown; values?: unknown }

/** The asset of the input: it must exist (a schema field need not, as in DataHub's upsert). */
async function existingAsset(ctx: CatalogContext, urn: string, fieldsToo: boolean): Promise<EntityRef> {
  const asset = resolveInput(ctx, urn)
  if (!(fieldsToo && asset.entity.name === 'schemaField') && !(await ctx.client.exists(asset.urn))) {
    throw new InvalidInputError(`Asset with provided urn ${asset.urn} does not exist`)
  }
  return asset
}

/** The stored assignments of the asset, by property URN. */
async function assignmentsOf(ctx: CatalogContext, asset: EntityRef): Promise<Map<string, Assignment>> {
  const stored = await currentAspect(ctx, asset.urn, ASPECT)
  const list = Array.isArray(stored?.properties) ? (stored.properties as Assignment[]) : []
  return new Map(list.map((p) => [String(p.propertyUrn), p]))
}

/**
 * DataHub's `StructuredPropertiesValidator` over the proposed assignments: each property URN is a
 * structured property, not soft-deleted, with a definition its values meet; an immutable
 * property's existing assignment cannot change. Throws DataHub's message of the first failure.
 */
async function validate(
  ctx: CatalogContext,
  updates: ReadonlyMap<string, Primitive[]>,
  current: ReadonlyMap<string, Assignment>,
): Promise<void> {
  for (const urn of updates.keys()) {
    const type = resolveInput(ctx, urn).entity.name
    if (type !== 'structuredProperty') {
      throw new InvalidInputError(`Unexpected entity type. Expected: structuredProperty Found: ${type}`)
    }
  }
  const loaded = await ctx.client.getEntities([...updates.keys()], [DEFINITION, 'status'])
  for (const [urn, values] of updates) {
    const aspects = loaded.get(urn)?.aspects ?? {}
    if (aspects.status?.removed === true) {
      throw new InvalidInputError('Cannot apply a soft deleted Structured Property value')
    }
    const definition = aspects[DEFINITION] as PropertyDefinition | undefined
    if (!definition) throw new InvalidInputError('Unexpected null value found.')
    const error = assignmentError(urn, definition, values)
    if (error) throw new InvalidInputError(error)
    // The new assignment carries a new lastModified, so it always differs from a stored one.
    if (definition.immutable === true && current.has(urn)) {
      throw new InvalidInputError(`Cannot mutate an immutable property: ${urn}`)
    }
  }
}

/** DataHub's `StructuredPropertiesMapper` of the asset's aspect as stored now. */
async function mappedNow(ctx: CatalogContext, asset: EntityRef): Promise<Mapped> {
  const stored = await currentAspect(ctx, asset.urn, ASPECT)
  if (!stored) throw new InvalidInputError(`Failed to fetch structured properties from entity ${asset.urn}`)
  return structuredProperties(stored as AspectValue, asset.urn) as Mapped
}

/**
 * DataHub's UpsertStructuredPropertiesResolver: each given property's values replace its
 * assignment (its `created` kept, `lastModified` now); properties not named are kept. One PATCH
 * of `structuredProperties` keyed by property URN, so concurrent upserts of different properties
 * on one asset all land.
 */
async function upsertStructuredProperties(
  _: unknown,
  { input }: { input: UpsertInput },
  ctx: CatalogContext,
): Promise<Mapped> {
  const asset = await existingAsset(ctx, input.assetUrn, true)
  const updates = new Map<string, Primitive[]>()
  for (const param of input.structuredPropertyInputParams) {
    updates.set(resolveInput(ctx, param.structuredPropertyUrn).urn, param.values.map(toPrimitive))
  }
  await write(ctx, [await propertyValuesPatch(ctx, asset, updates)])
  return mappedNow(ctx, asset)
}

/**
 * The PATCH of `structuredProperties` giving each property of `updates` its values (validated as
 * DataHub's validator does; `created` kept, `lastModified` now), keyed by property URN, so
 * concurrent writes of other properties on the asset all land.
 */
export async function propertyValuesPatch(
  ctx: CatalogContext,
  asset: EntityRef,
  updates: ReadonlyMap<string, Primitive[]>,
): Promise<MetadataProposal> {
  const current = await assignmentsOf(ctx, asset)
  await validate(ctx, updates, current)
  const stamp = stampOf(ctx)
  const ops: PatchOp[] = []
  for (const [urn, values] of updates) {
    const at = (member: string) => pointer('properties', urn, member)
    ops.push({ op: 'add', path: at('propertyUrn'), value: urn })
    ops.push({ op: 'add', path: at('values'), value: values })
    if (!current.has(urn)) ops.push({ op: 'add', path: at('created'), value: stamp })
    ops.push({ op: 'add', path: at('lastModified'), value: stamp })
  }
  return patch(asset, ASPECT, ops)
}

/** DataHub's RemoveStructuredPropertiesResolver: one PATCH removing each named assignment. */
async function removeStructuredProperties(
  _: unknown,
  { input }: { input: RemoveInput },
  ctx: CatalogContext,
): Promise<Mapped> {
  const asset = await existingAsset(ctx, input.assetUrn, false)
  const ops: PatchOp[] = input.structuredPropertyUrns.map((u) => ({
    op: 'remove',
    path: pointer('properties', resolveInput(ctx, u).urn),
  }))
  await write(ctx, [patch(asset, ASPECT, ops)])
  return mappedNow(ctx, asset)
}

/** Structured property values on assets. */
export const structuredPropertyValueMutations = { upsertStructuredProperties, removeStructuredProperties }
