import { InvalidInputError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { resolveInput, stampOf, write } from './support.js'
import { type ResourceRef, validateLabel, validateResource } from './validate.js'

/** Where a kind of label lives: DataHub's `GlobalTags` and `GlossaryTerms`. */
interface LabelKind {
  /** The label's entity type, for `validateLabel`. */
  readonly entityType: string
  /** The aspect on a top-level resource, and on a schema field's `editableSchemaFieldInfo` entry. */
  readonly aspect: string
  /** The member of `editableSchemaFieldInfo` holding the same record. */
  readonly fieldMember: string
  /** The array of associations, and the association's URN field (its key). */
  readonly array: string
  readonly key: string
  /** DataHub stamps `auditStamp` of the record on each change (glossary terms). */
  readonly stamped: boolean
}

export const TAG: LabelKind = {
  entityType: 'tag',
  aspect: 'globalTags',
  fieldMember: 'globalTags',
  array: 'tags',
  key: 'tag',
  stamped: false,
}

export const TERM: LabelKind = {
  entityType: 'glossaryTerm',
  aspect: 'glossaryTerms',
  fieldMember: 'glossaryTerms',
  array: 'terms',
  key: 'urn',
  stamped: true,
}

/**
 * The PATCH of one resource. Adding writes only the association's key member (`/tags/<urn>/tag`),
 * so an existing association keeps its context and attribution, and a missing one is created:
 * DataHub's "add only missing labels". A schema field goes through `editableSchemaMetadata`'s
 * template (`/editableSchemaFieldInfo/<fieldPath>/globalTags/tags/<urn>`), creating the entry.
 */
function labelPatch(
  ctx: CatalogContext,
  kind: LabelKind,
  resource: ResourceRef,
  add: readonly string[],
  remove: readonly string[],
): MetadataProposal {
  const ref = resolveInput(ctx, resource.resourceUrn)
  const stamp = stampOf(ctx)
  const field = resource.subResource ?? ''
  const base = field ? ['editableSchemaFieldInfo', field, kind.fieldMember] : []
  const ops: PatchOp[] = []
  for (const urn of remove) ops.push({ op: 'remove', path: pointer(...base, kind.array, urn) })
  for (const urn of add)
    ops.push({ op: 'add', path: pointer(...base, kind.array, urn, kind.key), value: urn })
  if (kind.stamped && (add.length > 0 || !field)) {
    ops.push({ op: 'add', path: pointer(...base, 'auditStamp'), value: stamp })
  }
  if (field) {
    ops.push({ op: 'add', path: pointer('lastModified'), value: stamp })
    return patch(ref, 'editableSchemaMetadata', ops)
  }
  if (ref.entity.name === 'businessAttribute') return attributeLabelPatch(ref, kind, ops, stamp)
  return patch(ref, kind.aspect, ops, { [kind.array]: [kind.key] })
}

/**
 * A business attribute keeps its tags and terms inside `businessAttributeInfo` (DataHub's
 * LabelUtils writes them there): the same operations under its `globalTags` or `glossaryTerms`,
 * the record made when missing, and `lastModified` stamped.
 */
function attributeLabelPatch(
  ref: ReturnType<typeof resolveInput>,
  kind: LabelKind,
  ops: readonly PatchOp[],
  stamp: { time: number; actor: string },
): MetadataProposal {
  const record = pointer(kind.fieldMember)
  const nested = ops.map((op) => ({ ...op, path: `${record}${op.path}` }))
  return patch(ref, 'businessAttributeInfo', [
    { op: 'add', path: pointer('lastModified'), value: stamp },
    ...nested,
  ])
}

/**
 * DataHub's LabelUtils flow shared by the tag and term resolvers, single and batch: when adding,
 * every label must be an existing URN of the kind; every resource (and sub-resource) is validated
 * first; then one PATCH per resource, all applied together or not at all.
 */
export async function changeLabels(
  ctx: CatalogContext,
  kind: LabelKind,
  resources: ReadonlyArray<ResourceRef | null>,
  add: readonly string[],
  remove: readonly string[],
): Promise<boolean> {
  const adding = [...new Set(add)]
  for (const urn of adding) await validateLabel(ctx, urn, kind.entityType)
  const removing = [...new Set(remove)].map((urn) => resolveInput(ctx, urn).urn)
  const valid: ResourceRef[] = []
  for (const [i, resource] of resources.entries()) {
    if (!resource) throw new InvalidInputError(`Failed to update resources: resources[${i}] is null`)
    await validateResource(ctx, resource)
    valid.push(resource)
  }
  await write(
    ctx,
    valid.map((r) => labelPatch(ctx, kind, r, adding, removing)),
  )
  return true
}
