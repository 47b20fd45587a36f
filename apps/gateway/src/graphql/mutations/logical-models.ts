import { type EntityRef, InvalidInputError, parseUrn } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { list, obj, schemaFieldUrn, str } from '../mappers/common.js'
import { searchOf } from '../resolvers/search.js'
import { resolveInput, stampOf, typedRef, upsert, write } from './support.js'

/**
 * Logical models (DataHub 1.7): a dataset on a logical platform, and the physical datasets (and
 * their columns) that are its instances, linked by the `logicalParent` aspect of each child
 * (`PhysicalInstanceOf` edges).
 */

const LOGICAL_PARENT = 'logicalParent'
const LINK = 'PhysicalInstanceOf'
const DEFAULT_PLATFORM = 'urn:li:dataPlatform:logical'
/** DataHub's longest name of a platform a logical model makes. */
const MAX_PLATFORM_NAME = 15
/** Most columns of a model whose links one schema update follows (one relationships page each). */
const MAX_COLUMNS = 1_000
const PAGE = 1_000

interface Column {
  readonly fieldPath: string
  readonly type: string
}

/** GraphQL `SchemaFieldDataType` -> the model's `SchemaFieldDataType` member. */
const FIELD_TYPES: Readonly<Record<string, string>> = {
  BOOLEAN: 'BooleanType',
  FIXED: 'FixedType',
  STRING: 'StringType',
  BYTES: 'BytesType',
  NUMBER: 'NumberType',
  DATE: 'DateType',
  TIME: 'TimeType',
  ENUM: 'EnumType',
  NULL: 'NullType',
  MAP: 'MapType',
  ARRAY: 'ArrayType',
  UNION: 'UnionType',
  STRUCT: 'RecordType',
}

/** The columns of a model, checked as DataHub checks them. */
function checkedColumns(columns: readonly Column[]): Column[] {
  if (columns.length === 0) throw new InvalidInputError('A logical model must have at least one column.')
  const seen = new Set<string>()
  for (const c of columns) {
    if (c.fieldPath.trim() === '')
      throw new InvalidInputError('A column needs a field path that is not blank')
    if (seen.has(c.fieldPath)) throw new InvalidInputError(`Duplicate column field path: ${c.fieldPath}`)
    seen.add(c.fieldPath)
  }
  return [...columns]
}

/** A model's `schemaMetadata`: schemaless, its columns typed as given (the type's name as the native type). */
function schemaOf(name: string, platform: string, columns: readonly Column[]): AspectValue {
  return {
    schemaName: name,
    platform,
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.Schemaless': {} },
    fields: columns.map((c) => ({
      fieldPath: c.fieldPath,
      nativeDataType: c.type,
      type: { type: { [`com.linkedin.schema.${FIELD_TYPES[c.type] ?? 'NullType'}`]: {} } },
    })),
  }
}

/** The field paths of a dataset's schema (none without one). */
async function fieldPaths(ctx: CatalogContext, dataset: string): Promise<Map<string, string>> {
  const schema = (await ctx.client.getEntities([dataset], ['schemaMetadata'])).get(dataset)?.aspects
    .schemaMetadata
  const out = new Map<string, string>()
  for (const f of list(schema?.fields)) {
    const path = str(obj(f)?.fieldPath)
    if (path !== null) out.set(path, JSON.stringify(obj(f)?.type ?? null))
  }
  return out
}

/** A `logicalParent` pointing at `parent`, stamped by the caller; none (`{}`) without a parent. */
function parentLink(ctx: CatalogContext, child: EntityRef, parent: string | undefined): MetadataProposal {
  const stamp = stampOf(ctx)
  return upsert(
    child,
    LOGICAL_PARENT,
    parent ? { parent: { destinationUrn: parent, created: stamp, lastModified: stamp } } : {},
  )
}

/** A dataset or column URN from input (a 400 for any other). */
function endRef(ctx: CatalogContext, urn: string): EntityRef {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'dataset' && ref.entity.name !== 'schemaField')
    throw new InvalidInputError(`${urn} is not a dataset or schemaField urn`)
  return ref
}

/** A dataset, or a column of one, that must exist; its reference. */
async function existingEnd(ctx: CatalogContext, urn: string, role: string): Promise<EntityRef> {
  const ref = endRef(ctx, urn)
  if (ref.entity.name === 'schemaField') {
    const dataset = ref.key.parent as string
    const path = ref.key.fieldPath as string
    if (!(await ctx.client.schemaField(dataset, path)).hasField) {
      throw new InvalidInputError(`Field path '${path}' not found on ${role} dataset ${dataset}`)
    }
    return ref
  }
  if (!(await ctx.client.exists(ref.urn))) throw new InvalidInputError(`Entity ${ref.urn} does not exist`)
  return ref
}

/**
 * DataHub's SetLogicalParentResolver: the resource's `logicalParent` points at the parent, or at
 * nothing without one. Both must exist (a column, in its dataset's schema); a dataset's parent is
 * a dataset, a column's a column.
 */
async function setLogicalParent(
  _: unknown,
  { input }: { input: { resourceUrn: string; parentUrn?: string | null } },
  ctx: CatalogContext,
) {
  // Unsetting needs no check of the child: a column dropped from its schema may still hold a link.
  const child =
    input.parentUrn == null
      ? endRef(ctx, input.resourceUrn)
      : await existingEnd(ctx, input.resourceUrn, 'child')
  let parent: string | undefined
  if (input.parentUrn != null) {
    const ref = await existingEnd(ctx, input.parentUrn, 'parent')
    if (ref.entity.name !== child.entity.name) {
      throw new InvalidInputError(
        `The logical parent of a ${child.entity.name} must be a ${child.entity.name}`,
      )
    }
    await refuseCycle(ctx, child.urn, ref.urn)
    parent = ref.urn
  }
  await write(ctx, [parentLink(ctx, child, parent)])
  return true
}

/** Most links walked up from a new parent looking for the child (a cycle). */
const MAX_CHAIN = 100

/** Refuses `parent` as the logical parent of `child` when it is the child or one of its instances. */
async function refuseCycle(ctx: CatalogContext, child: string, parent: string): Promise<void> {
  const seen = new Set<string>()
  for (let at: string | null = parent; at && !seen.has(at) && seen.size < MAX_CHAIN; ) {
    if (at === child) throw new InvalidInputError(`${child} cannot be a logical instance of itself`)
    seen.add(at)
    const link = (await ctx.client.getEntities([at], [LOGICAL_PARENT])).get(at)?.aspects[LOGICAL_PARENT]
    at = str(obj(link?.parent)?.destinationUrn)
  }
}

/** A platform a logical model may be on: its info written first when it is new (DataHub makes it logical). */
async function logicalPlatform(ctx: CatalogContext, urn: string): Promise<MetadataProposal[]> {
  const platform = typedRef(ctx, urn, 'dataPlatform')
  const notLogical = () =>
    new InvalidInputError(
      `Cannot create a logical model on platform ${platform.urn}: it is not a logical platform.`,
    )
  const info = (await ctx.client.getEntities([platform.urn], ['dataPlatformInfo'])).get(platform.urn)?.aspects
    .dataPlatformInfo
  if (info) {
    if (info.logical !== true) throw notLogical()
    return []
  }
  // DataHub knows every real platform's info; here a platform may have datasets and no info: it is
  // a physical one, never made logical.
  if (platform.urn !== DEFAULT_PLATFORM && (await datasetsOn(ctx, platform.urn)) > 0) throw notLogical()
  const name = platform.key.platformName as string
  if (name.length > MAX_PLATFORM_NAME) {
    throw new InvalidInputError(
      `Platform name '${name}' exceeds the maximum length of ${MAX_PLATFORM_NAME} characters.`,
    )
  }
  return [
    upsert(platform, 'dataPlatformInfo', {
      name,
      displayName: name,
      type: 'OTHERS',
      datasetNameDelimiter: '.',
      logical: true,
    }),
  ]
}

/** How many datasets the search index holds on `platform`. */
async function datasetsOn(ctx: CatalogContext, platform: string): Promise<number> {
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: '*',
    entities: ['dataset'],
    start: 0,
    count: 0,
    filter: {
      or: [{ and: [{ field: 'platform', values: [platform], condition: 'EQUAL', negated: false }] }],
    },
    searchFlags: { skipAggregates: true, skipHighlighting: true },
  })
  return answer.numEntities
}

/** A logical model: a dataset on a logical platform (DataHub's own `logical`, or one whose info says so). */
async function logicalModel(ctx: CatalogContext, urn: string): Promise<EntityRef> {
  const model = typedRef(ctx, urn, 'dataset')
  const platform = model.key.platform as string
  if (platform === DEFAULT_PLATFORM) return model
  const info = (await ctx.client.getEntities([platform], ['dataPlatformInfo'])).get(platform)?.aspects
    .dataPlatformInfo
  if (info?.logical !== true) throw new InvalidInputError(`${model.urn} is not a logical model`)
  return model
}

/**
 * DataHub's CreateLogicalModelResolver (CREATE_LOGICAL_MODELS): a dataset on a logical platform
 * (`logical` by default; a new platform is made logical) with its name and columns, refused when
 * it exists. Answers its URN.
 */
async function createLogicalModel(
  _: unknown,
  {
    input,
  }: {
    input: {
      name: string
      displayName?: string | null
      env?: string | null
      platform?: string | null
      columns: Column[]
    }
  },
  ctx: CatalogContext,
) {
  if (input.name.trim() === '') throw new InvalidInputError('Logical model name must not be empty.')
  const columns = checkedColumns(input.columns)
  const platformUrn = input.platform?.trim() ? input.platform : DEFAULT_PLATFORM
  const platformWrites = await logicalPlatform(ctx, platformUrn)
  const dataset = typedRef(
    ctx,
    `urn:li:dataset:(${platformUrn},${input.name},${input.env ?? 'PROD'})`,
    'dataset',
  )
  if (await ctx.client.exists(dataset.urn)) {
    throw new InvalidInputError(`A logical model already exists at ${dataset.urn}.`)
  }
  await write(ctx, [
    ...platformWrites,
    // CREATE: a model made meanwhile by another call is not overwritten.
    {
      ...upsert(dataset, 'datasetProperties', {
        name: input.displayName ?? input.name,
        customProperties: {},
      }),
      changeType: 'CREATE',
    },
    upsert(dataset, 'schemaMetadata', schemaOf(input.name, platformUrn, columns)),
  ])
  return dataset.urn
}

/**
 * DataHub's LinkPhysicalChildResolver: the child dataset an instance of the model, and each mapped
 * child column an instance of its model column (both columns must exist; the last mapping of a
 * model column wins), in one write.
 */
async function linkPhysicalChild(
  _: unknown,
  {
    input,
  }: {
    input: {
      logicalParentUrn: string
      childUrn: string
      columnMappings?: readonly { parentFieldPath: string; childFieldPath: string }[] | null
    }
  },
  ctx: CatalogContext,
) {
  const parent = typedRef(ctx, input.logicalParentUrn, 'dataset')
  const child = typedRef(ctx, input.childUrn, 'dataset')
  for (const ref of [parent, child]) {
    if (!(await ctx.client.exists(ref.urn))) throw new InvalidInputError(`Entity ${ref.urn} does not exist`)
  }
  await refuseCycle(ctx, child.urn, parent.urn)
  const mappings = new Map((input.columnMappings ?? []).map((m) => [m.parentFieldPath, m.childFieldPath]))
  const [parentPaths, childPaths] = await Promise.all([
    fieldPaths(ctx, parent.urn),
    fieldPaths(ctx, child.urn),
  ])
  for (const [parentPath, childPath] of mappings) {
    if (!parentPaths.has(parentPath))
      throw new InvalidInputError(`Field path '${parentPath}' not found on parent dataset ${parent.urn}`)
    if (!childPaths.has(childPath))
      throw new InvalidInputError(`Field path '${childPath}' not found on child dataset ${child.urn}`)
  }
  await write(ctx, [
    parentLink(ctx, child, parent.urn),
    ...[...mappings].map(([parentPath, childPath]) =>
      parentLink(
        ctx,
        resolveInput(ctx, schemaFieldUrn(child.urn, childPath)),
        schemaFieldUrn(parent.urn, parentPath),
      ),
    ),
  ])
  return true
}

/** The columns of `dataset` whose `logicalParent` names a parent, with it. */
async function linkedColumns(ctx: CatalogContext, dataset: string): Promise<Map<string, string>> {
  const urns = [...(await fieldPaths(ctx, dataset)).keys()].map((p) => schemaFieldUrn(dataset, p))
  const out = new Map<string, string>()
  if (urns.length === 0) return out
  const found = await ctx.client.getEntities(urns, [LOGICAL_PARENT])
  for (const urn of urns) {
    const parent = str(obj(found.get(urn)?.aspects[LOGICAL_PARENT]?.parent)?.destinationUrn)
    if (parent) out.set(urn, parent)
  }
  return out
}

/**
 * DataHub's UnlinkPhysicalChildResolver: the child dataset and every linked column of it no longer
 * instances of anything, in one write.
 */
async function unlinkPhysicalChild(
  _: unknown,
  { input }: { input: { childUrn: string } },
  ctx: CatalogContext,
) {
  const child = typedRef(ctx, input.childUrn, 'dataset')
  if (!(await ctx.client.exists(child.urn))) throw new InvalidInputError(`Entity ${child.urn} does not exist`)
  const columns = await linkedColumns(ctx, child.urn)
  await write(ctx, [
    parentLink(ctx, child, undefined),
    ...[...columns.keys()].map((urn) => parentLink(ctx, resolveInput(ctx, urn), undefined)),
  ])
  return true
}

/** The entities whose `logicalParent` names `urn`. */
async function instancesOf(ctx: CatalogContext, urn: string): Promise<string[]> {
  const out: string[] = []
  for (let start = 0; ; start += PAGE) {
    const page = await ctx.client.relationships({
      urn,
      direction: 'INCOMING',
      types: [LINK],
      start,
      count: PAGE,
    })
    out.push(...page.relationships.map((r) => r.entity))
    if (page.relationships.length < PAGE || start + PAGE >= page.total) return out
  }
}

/**
 * DataHub's UpdateLogicalModelSchemaResolver (CREATE_LOGICAL_MODELS): the model's columns replaced.
 * A column removed or retyped is a breaking change: the child columns mapped to it are unlinked,
 * and a child whose every column link went is unlinked too, all in the same write.
 */
async function updateLogicalModelSchema(
  _: unknown,
  { input }: { input: { urn: string; columns: Column[] } },
  ctx: CatalogContext,
) {
  const model = await logicalModel(ctx, input.urn)
  const columns = checkedColumns(input.columns)
  const stored = (await ctx.client.getEntities([model.urn], ['schemaMetadata'])).get(model.urn)?.aspects
    .schemaMetadata
  if (!stored) throw new InvalidInputError(`Logical model ${model.urn} has no schema to update.`)
  const next = schemaOf(
    str(stored.schemaName) ?? model.key.name ?? '',
    str(stored.platform) ?? model.key.platform ?? '',
    columns,
  )
  const before = await fieldPaths(ctx, model.urn)
  const after = new Map(
    list(next.fields).map((f) => [str(obj(f)?.fieldPath) ?? '', JSON.stringify(obj(f)?.type ?? null)]),
  )
  const broken = [...before].filter(([path, type]) => after.get(path) !== type).map(([path]) => path)
  if (before.size > MAX_COLUMNS) {
    throw new InvalidInputError(`A logical model of more than ${MAX_COLUMNS} columns cannot be updated here`)
  }
  const teardown: MetadataProposal[] = []
  if (broken.length > 0) {
    const unlinked = new Set<string>()
    for (const path of broken) {
      for (const column of await instancesOf(ctx, schemaFieldUrn(model.urn, path))) {
        unlinked.add(column)
        teardown.push(parentLink(ctx, resolveInput(ctx, column), undefined))
      }
    }
    // A child all of whose column links go is no longer an instance of the model.
    const children = (await instancesOf(ctx, model.urn)).filter((u) => parseUrn(u).entityType === 'dataset')
    for (const child of children) {
      const links = [...(await linkedColumns(ctx, child))]
        .filter(([, parent]) => parent.startsWith(`urn:li:schemaField:(${model.urn},`))
        .map(([column]) => column)
      if (links.length > 0 && links.every((c) => unlinked.has(c))) {
        teardown.push(parentLink(ctx, resolveInput(ctx, child), undefined))
      }
    }
  }
  await write(ctx, [...teardown, upsert(model, 'schemaMetadata', next)])
  return true
}

export const logicalModelMutations = {
  setLogicalParent,
  createLogicalModel,
  linkPhysicalChild,
  unlinkPhysicalChild,
  updateLogicalModelSchema,
}
