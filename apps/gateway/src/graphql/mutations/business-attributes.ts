import { randomUUID } from 'node:crypto'
import { ConflictError, type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { BUSINESS_ATTRIBUTE_INFO } from '../mappers/business-attribute.js'
import type { EntitySource } from '../mappers/common.js'
import { FIELD_TYPES } from '../mappers/dataset.js'
import { listEntities } from '../resolvers/users-groups.js'
import { compareAndSet, compareAndSetEach, oneAtATime } from './compare-and-set.js'
import { deleteWithReferences } from './entity-references.js'
import { creatorOwnership, nameOf, resolveInput, stampOf, typedRef, upsert, write } from './support.js'

const ATTRIBUTES = 'businessAttributes'
/** Business attributes compared by name at most (DataHub's name search asks for 1,000). */
const MAX_ATTRIBUTES = 10_000
const DEFAULT_COUNT = 20

interface AttributeInput {
  readonly id?: string | null
  readonly name?: string | null
  readonly description?: string | null
  readonly type?: string | null
}

interface AttachInput {
  readonly businessAttributeUrn: string
  readonly resourceUrn: ReadonlyArray<{ readonly resourceUrn: string }>
}

/** The stored `SchemaFieldDataType` of a GraphQL `SchemaFieldDataType` symbol (`STRING` -> StringType). */
function storedType(symbol: string): AspectValue {
  const record = Object.keys(FIELD_TYPES).find((k) => FIELD_TYPES[k] === symbol)
  if (!record) throw new InvalidInputError(`Unknown schema field data type ${symbol}`)
  return { type: { [`com.linkedin.schema.${record}`]: {} } }
}

/**
 * DataHub's name check of a business attribute: 409 when another attribute has the name already.
 * Names are compared exactly, as DataHub's filter on `name` does; the attribute itself is not a
 * conflict (DataHub also refuses a rename to the attribute's own name).
 */
async function checkNameFree(ctx: CatalogContext, name: string, self?: string): Promise<void> {
  const { urns } = await listEntities(ctx, 'businessAttribute', { start: 0, count: MAX_ATTRIBUTES })
  const others = urns.filter((u) => u !== self)
  const infos =
    others.length > 0 ? await ctx.client.getEntities(others, [BUSINESS_ATTRIBUTE_INFO]) : new Map()
  const taken = others.some((u) => {
    const info = infos.get(u)?.aspects[BUSINESS_ATTRIBUTE_INFO]
    return info !== undefined && (info.name === name || info.fieldPath === name)
  })
  if (taken) {
    throw new ConflictError(`"${name}" already exists as Business Attribute. Please pick a unique name.`)
  }
}

/** Creations and renames run one after the other, so two calls cannot both take a free name. */
const naming = <T>(run: () => Promise<T>): Promise<T> => oneAtATime('businessAttribute:names', run)

/**
 * DataHub's CreateBusinessAttributeResolver (CREATE_BUSINESS_ATTRIBUTE or
 * MANAGE_BUSINESS_ATTRIBUTE, checked by `authorizeMutation`): `urn:li:businessAttribute:<id>`
 * (a UUID without one), refused when taken or when another attribute has the name; its info
 * (`fieldPath` and `name` the name) and the creator as technical owner, in one write.
 */
async function createBusinessAttribute(
  _: unknown,
  args: { input: AttributeInput & { name: string } },
  ctx: CatalogContext,
) {
  const { input } = args
  nameOf(input.name, 'A business attribute')
  const id = input.id?.trim() ? input.id : randomUUID()
  const attribute = typedRef(ctx, `urn:li:businessAttribute:${id}`, 'businessAttribute')
  const info: AspectValue = { fieldPath: input.name, name: input.name }
  if (input.description != null) info.description = input.description
  if (input.type != null) info.type = storedType(input.type)
  return naming(async () => {
    if (await ctx.client.exists(attribute.urn))
      throw new InvalidInputError('This Business Attribute already exists!')
    await checkNameFree(ctx, input.name)
    const stamp = stampOf(ctx)
    await write(ctx, [
      {
        ...upsert(attribute, BUSINESS_ATTRIBUTE_INFO, { ...info, created: stamp, lastModified: stamp }),
        changeType: 'CREATE',
      },
      upsert(attribute, 'ownership', creatorOwnership(ctx)),
    ])
    return { urn: attribute.urn } satisfies EntitySource
  })
}

/**
 * DataHub's UpdateBusinessAttributeResolver (as create): the given name (checked free), description
 * and type replace the stored ones, the rest is kept; `lastModified` is now.
 */
async function updateBusinessAttribute(
  _: unknown,
  args: { urn: string; input: AttributeInput },
  ctx: CatalogContext,
) {
  const { input } = args
  const attribute = typedRef(ctx, args.urn, 'businessAttribute')
  const type = input.type != null ? storedType(input.type) : undefined
  if (input.name != null) nameOf(input.name, 'A business attribute')
  const update = async () => {
    if (input.name != null) await checkNameFree(ctx, input.name, attribute.urn)
    let found = false
    await compareAndSet(ctx, attribute, BUSINESS_ATTRIBUTE_INFO, (current) => {
      found = current !== undefined
      if (!current) return undefined
      const next: AspectValue = { ...current, lastModified: stampOf(ctx) }
      if (input.name != null) Object.assign(next, { name: input.name, fieldPath: input.name })
      if (input.description != null) next.description = input.description
      if (type) next.type = type
      return next
    })
    if (!found) {
      throw new InvalidInputError(
        `Failed to update Business Attribute. Business Attribute with urn ${attribute.urn} does not exist.`,
      )
    }
    return { urn: attribute.urn } satisfies EntitySource
  }
  return input.name != null ? naming(update) : update()
}

/**
 * DataHub's DeleteBusinessAttributeResolver (MANAGE_BUSINESS_ATTRIBUTE): a hard delete, with the
 * columns it is attached to let go of it in the same write.
 */
async function deleteBusinessAttribute(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const attribute = typedRef(ctx, args.urn, 'businessAttribute')
  if (!(await ctx.client.exists(attribute.urn))) {
    throw new InvalidInputError(`This urn does not exist: ${attribute.urn}`)
  }
  await deleteWithReferences(ctx, attribute)
  return true
}

/** The schema fields of an attach or detach call: each must be a `schemaField` urn. */
function fieldsOf(ctx: CatalogContext, input: AttachInput): EntityRef[] {
  return input.resourceUrn.map((r) => typedRef(ctx, r.resourceUrn, 'schemaField'))
}

/**
 * DataHub's AddBusinessAttributeResolver (EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE or
 * EDIT_ENTITY on each column's dataset): the attribute, which must exist, attached to each column
 * (replacing the one it had), in one write.
 */
async function addBusinessAttribute(_: unknown, args: { input: AttachInput }, ctx: CatalogContext) {
  const attribute = resolveInput(ctx, args.input.businessAttributeUrn)
  if (attribute.entity.name !== 'businessAttribute' || !(await ctx.client.exists(attribute.urn))) {
    throw new InvalidInputError(`This urn does not exist: ${args.input.businessAttributeUrn}`)
  }
  const fields = fieldsOf(ctx, args.input)
  await write(
    ctx,
    fields.map((f) => upsert(f, ATTRIBUTES, { businessAttribute: { businessAttributeUrn: attribute.urn } })),
  )
  return true
}

/**
 * DataHub's RemoveBusinessAttributeResolver (as add): each column's attribute removed, whichever
 * it is; a column with none is refused, and nothing is written.
 */
async function removeBusinessAttribute(_: unknown, args: { input: AttachInput }, ctx: CatalogContext) {
  typedRef(ctx, args.input.businessAttributeUrn, 'businessAttribute')
  const fields = fieldsOf(ctx, args.input)
  // One write, each column guarded on what was read: an attachment made meanwhile is not wiped.
  await compareAndSetEach(ctx, fields, ATTRIBUTES, (current) => {
    if (!current?.businessAttribute) {
      throw new InvalidInputError('Schema field has not attached with business attribute')
    }
    return {}
  })
  return true
}

/** DataHub's ListBusinessAttributesResolver: a page of attributes matching `query` (all without one). */
async function listBusinessAttributes(
  _: unknown,
  args: { input: { start?: number | null; count?: number | null; query?: string | null } },
  ctx: CatalogContext,
) {
  const { input } = args
  const { urns, ...page } = await listEntities(ctx, 'businessAttribute', {
    start: input.start ?? 0,
    count: input.count ?? DEFAULT_COUNT,
    query: input.query,
  })
  return { ...page, businessAttributes: urns.map((urn): EntitySource => ({ urn })) }
}

export const businessAttributeMutations = {
  createBusinessAttribute,
  updateBusinessAttribute,
  deleteBusinessAttribute,
  addBusinessAttribute,
  removeBusinessAttribute,
}
export const businessAttributeQueries = { listBusinessAttributes }
