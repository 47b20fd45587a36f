import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { type PatchOp, patch, pointer } from './patch.js'
import {
  creatorOwnership,
  currentAspect,
  deleteEntity,
  resolveInput,
  stampOf,
  upsert,
  write,
} from './support.js'

const PROPERTIES = 'dataProductProperties'
/** The edge from a data product to each of its assets (`dataProductProperties.assets`). */
const CONTAINS = 'DataProductContains'
/** DataHub's page of a resource's data products in `unsetDataProduct` ("never more than 1"). */
const OWNERS_PAGE = 10

interface CreateDataProductInput {
  readonly properties: { readonly name: string; readonly description?: string | null }
  readonly domainUrn: string
  readonly id?: string | null
}

interface UpdateDataProductInput {
  readonly name?: string | null
  readonly description?: string | null
}

interface BatchSetDataProductInput {
  readonly dataProductUrn?: string | null
  readonly resourceUrns: readonly string[]
}

/**
 * One batchSetDataProduct at a time in this gateway: finding an asset's current data products
 * and moving it is a read then a write, so two calls moving one asset to different products
 * must not interleave (an asset belongs to at most one data product).
 */
let moving: Promise<unknown> = Promise.resolve()
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = moving.then(work, work)
  moving = run.catch(() => undefined)
  return run
}

/** The existing data product `urn`, with DataHub's message (sic) when there is none. */
async function existingProduct(ctx: CatalogContext, urn: string): Promise<EntityRef> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'dataProduct' || !(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError('The Data Product provided dos not exist')
  }
  return ref
}

/**
 * DataHub's CreateDataProductResolver and `DataProductService.createDataProduct`: the domain
 * must exist; the id is the given one or a UUID, refused when taken; writes the properties, the
 * domain and the creator as technical owner, all at once.
 */
async function createDataProduct(
  _: unknown,
  { input }: { input: CreateDataProductInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const domain = resolveInput(ctx, input.domainUrn)
  if (domain.entity.name !== 'domain' || !(await ctx.client.exists(domain.urn))) {
    throw new InvalidInputError('The Domain provided dos not exist')
  }
  const id = input.id?.trim() ? input.id : randomUUID()
  const product = resolveInput(ctx, `urn:li:dataProduct:${id}`)
  if (await ctx.client.exists(product.urn)) throw new InvalidInputError('This Data product already exists!')
  const properties: AspectValue = { name: input.properties.name }
  if (input.properties.description != null) properties.description = input.properties.description
  await write(ctx, [
    upsert(product, PROPERTIES, properties),
    upsert(product, 'domains', { domains: [domain.urn] }),
    upsert(product, 'ownership', creatorOwnership(ctx)),
  ])
  return { urn: product.urn }
}

/**
 * DataHub's UpdateDataProductResolver: a given name or description replaces the stored one, the
 * rest (assets included) is kept; one PATCH, so a concurrent batchSetDataProduct is not lost.
 */
async function updateDataProduct(
  _: unknown,
  { urn, input }: { urn: string; input: UpdateDataProductInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const product = await existingProduct(ctx, urn)
  if (!(await currentAspect(ctx, product.urn, PROPERTIES))) {
    throw new InvalidInputError(
      `Failed to update DataProduct. DataProduct with urn ${product.urn} does not exist.`,
    )
  }
  const ops: PatchOp[] = []
  if (input.name != null) ops.push({ op: 'add', path: '/name', value: input.name })
  if (input.description != null) ops.push({ op: 'add', path: '/description', value: input.description })
  await write(ctx, ops.length > 0 ? [patch(product, PROPERTIES, ops)] : [])
  return { urn: product.urn }
}

/** DataHub's DeleteDataProductResolver: a hard delete of an existing data product. */
async function deleteDataProduct(
  _: unknown,
  { urn }: { urn: string },
  ctx: CatalogContext,
): Promise<boolean> {
  const product = await existingProduct(ctx, urn)
  await write(ctx, [deleteEntity(product)])
  return true
}

/** The data products holding `resource` now (the incoming `DataProductContains` edges). */
async function productsOf(ctx: CatalogContext, resource: string, count = OWNERS_PAGE): Promise<string[]> {
  const page = await ctx.client.relationships({
    urn: resource,
    direction: 'INCOMING',
    types: [CONTAINS],
    count,
  })
  return page.relationships.map((r) => r.entity)
}

/**
 * The PATCH proposals moving `resources` into `target` (out of every data product when null):
 * each resource leaves the products holding it; the target gains the ones it lacks, stamped now
 * (DataHub's `batchSetDataProduct` / `unsetDataProduct`). One proposal per data product.
 */
async function moves(
  ctx: CatalogContext,
  resources: readonly EntityRef[],
  target: EntityRef | null,
): Promise<MetadataProposal[]> {
  const ops = new Map<string, PatchOp[]>()
  const opsOf = (urn: string) => ops.get(urn) ?? (ops.set(urn, []).get(urn) as PatchOp[])
  for (const resource of resources) {
    for (const product of await productsOf(ctx, resource.urn)) {
      if (product === target?.urn) continue
      opsOf(product).push({ op: 'remove', path: pointer('assets', resource.urn) })
    }
  }
  if (target) {
    const assets = (await currentAspect(ctx, target.urn, PROPERTIES))?.assets
    const held = new Set(
      (Array.isArray(assets) ? assets : []).map((a) => (a as { destinationUrn?: unknown }).destinationUrn),
    )
    const stamp = stampOf(ctx)
    for (const resource of resources) {
      if (held.has(resource.urn)) continue
      opsOf(target.urn).push({
        op: 'add',
        path: pointer('assets', resource.urn),
        value: { destinationUrn: resource.urn, created: stamp, lastModified: stamp },
      })
    }
  }
  return [...ops].map(([urn, list]) => patch(resolveInput(ctx, urn), PROPERTIES, list))
}

/**
 * DataHub's BatchSetDataProductResolver: every resource must exist, then the data product (when
 * given); each resource leaves its current data product and joins the given one (none when
 * null). All the edits are one atomic write of PATCH proposals.
 */
async function batchSetDataProduct(
  _: unknown,
  { input }: { input: BatchSetDataProductInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const resources: EntityRef[] = []
  for (const urn of input.resourceUrns) {
    const ref = resolveInput(ctx, urn)
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to batch set Data Product, ${urn} in resources does not exist`)
    }
    if (!resources.some((r) => r.urn === ref.urn)) resources.push(ref)
  }
  let target: EntityRef | null = null
  if (input.dataProductUrn != null) {
    const ref = resolveInput(ctx, input.dataProductUrn)
    if (ref.entity.name !== 'dataProduct' || !(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(
        `Failed to batch set Data Product, Data Product urn ${input.dataProductUrn} does not exist`,
      )
    }
    if (!(await currentAspect(ctx, ref.urn, PROPERTIES))) {
      throw new InvalidInputError('Failed to batch set data product as data product does not exist')
    }
    target = ref
  }
  await oneAtATime(async () => write(ctx, await moves(ctx, resources, target)))
  return true
}

interface BatchSetDataProductsInput {
  readonly dataProductUrns: readonly string[]
  readonly resourceUrns: readonly string[]
}

/**
 * DataHub's `DataProductResolverUtils.verifyResources` then `verifyDataProducts`: every resource,
 * then every data product, must exist (a data product URN of another type does not count).
 */
async function verified(
  ctx: CatalogContext,
  input: BatchSetDataProductsInput,
): Promise<{ resources: EntityRef[]; products: EntityRef[] }> {
  const resources: EntityRef[] = []
  for (const urn of input.resourceUrns) {
    const ref = resolveInput(ctx, urn)
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to update data products, resource ${urn} does not exist`)
    }
    if (!resources.some((r) => r.urn === ref.urn)) resources.push(ref)
  }
  const products: EntityRef[] = []
  for (const urn of input.dataProductUrns) {
    const ref = resolveInput(ctx, urn)
    if (ref.entity.name !== 'dataProduct' || !(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to update data products, data product ${urn} does not exist`)
    }
    if (!products.some((p) => p.urn === ref.urn)) products.push(ref)
  }
  return { resources, products }
}

/** The asset URNs a data product holds now, read fresh. */
async function heldAssets(ctx: CatalogContext, product: string): Promise<Set<unknown>> {
  const assets = (await currentAspect(ctx, product, PROPERTIES))?.assets
  return new Set(
    (Array.isArray(assets) ? assets : []).map((a) => (a as { destinationUrn?: unknown }).destinationUrn),
  )
}

/**
 * DataHub's BatchAddToDataProductsResolver (multiple data products per asset): each resource
 * joins each data product, keeping the products it is in already; assets already held keep their
 * stamps. One atomic write of PATCH proposals.
 */
async function batchAddToDataProducts(
  _: unknown,
  { input }: { input: BatchSetDataProductsInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const { resources, products } = await verified(ctx, input)
  const stamp = stampOf(ctx)
  const proposals: MetadataProposal[] = []
  for (const product of products) {
    const held = await heldAssets(ctx, product.urn)
    const ops: PatchOp[] = resources
      .filter((r) => !held.has(r.urn))
      .map((r) => ({
        op: 'add',
        path: pointer('assets', r.urn),
        value: { destinationUrn: r.urn, created: stamp, lastModified: stamp },
      }))
    if (ops.length > 0) proposals.push(patch(product, PROPERTIES, ops))
  }
  await write(ctx, proposals)
  return true
}

/**
 * DataHub's BatchRemoveFromDataProductsResolver: each resource leaves each data product (a
 * resource not in it is no error). Each removal is an add-then-remove of the asset's key, so it
 * holds even when a concurrent call removed that asset first.
 */
async function batchRemoveFromDataProducts(
  _: unknown,
  { input }: { input: BatchSetDataProductsInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const { resources, products } = await verified(ctx, input)
  const proposals: MetadataProposal[] = []
  for (const product of products) {
    const held = await heldAssets(ctx, product.urn)
    const leaving = resources.filter((r) => held.has(r.urn))
    const ops: PatchOp[] = leaving.flatMap((r): PatchOp[] => {
      const path = pointer('assets', r.urn)
      return [
        { op: 'add', path, value: { destinationUrn: r.urn } },
        { op: 'remove', path },
      ]
    })
    if (ops.length > 0) proposals.push(patch(product, PROPERTIES, ops))
  }
  await write(ctx, proposals)
  return true
}

/** Data product mutations (DataHub's `dataproduct` resolvers). */
export const dataProductMutations = {
  createDataProduct,
  updateDataProduct,
  deleteDataProduct,
  batchSetDataProduct,
  batchAddToDataProducts,
  batchRemoveFromDataProducts,
}

/** Entities `bulkEntityDataProducts` takes at most, as DataHub's resolver. */
const MAX_BULK_URNS = 100
/** Data products read per entity by `bulkEntityDataProducts` (DataHub scrolls 1,000 edges a page). */
const BULK_PRODUCTS_PAGE = 1_000

/**
 * DataHub's BulkEntityDataProductsResolver (for the data product lineage view): for each entity,
 * the data products containing it or one of its siblings, and whether it (or a sibling) is one
 * of their output ports. At most 100 entities a call.
 */
async function bulkEntityDataProducts(
  _: unknown,
  args: { input: { urns: readonly string[] } },
  ctx: CatalogContext,
) {
  const { urns } = args.input
  if (urns.length > MAX_BULK_URNS) {
    throw new InvalidInputError(`Cannot fetch data products for more than ${MAX_BULK_URNS} entities at once`)
  }
  const entities = urns.map((u) => resolveInput(ctx, u).urn)
  const stored = entities.length > 0 ? await ctx.client.getEntities(entities, ['siblings']) : new Map()
  const groups = entities.map((urn) => {
    const siblings = stored.get(urn)?.aspects.siblings?.siblings
    return [
      urn,
      ...(Array.isArray(siblings) ? siblings.filter((s): s is string => typeof s === 'string') : []),
    ]
  })
  const productsByMember = new Map<string, string[]>()
  for (const member of new Set(groups.flat())) {
    productsByMember.set(member, await productsOf(ctx, member, BULK_PRODUCTS_PAGE))
  }
  const products = [...new Set([...productsByMember.values()].flat())]
  const properties = products.length > 0 ? await ctx.client.getEntities(products, [PROPERTIES]) : new Map()
  const outputPorts = new Map(
    products.map((p) => {
      const assets = properties.get(p)?.aspects[PROPERTIES]?.assets
      const ports = (Array.isArray(assets) ? assets : [])
        .filter((a) => (a as { outputPort?: unknown }).outputPort === true)
        .map((a) => (a as { destinationUrn?: unknown }).destinationUrn)
      return [p, new Set(ports)]
    }),
  )
  return {
    entities: entities.map((urn, i) => {
      const group = groups[i] ?? [urn]
      const held = [...new Set(group.flatMap((m) => productsByMember.get(m) ?? []))]
      return {
        urn,
        dataProductAssociations: held.map((product) => ({
          dataProduct: { urn: product },
          isOutputPort: group.some((m) => outputPorts.get(product)?.has(m) === true),
        })),
      }
    }),
  }
}

export const dataProductQueries = { bulkEntityDataProducts }
