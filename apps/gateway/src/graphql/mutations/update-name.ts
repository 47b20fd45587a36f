import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { currentAspect, resolveInput, stampOf, write } from './support.js'

/** Where each entity type keeps the name `updateName` edits (DataHub's UpdateNameResolver). */
interface NameTarget {
  readonly aspect: string
  readonly field: string
  /** DataHub refuses an entity without the aspect: "<label> does not exist". */
  readonly label?: string
}

const TARGETS: Readonly<Record<string, NameTarget>> = {
  glossaryTerm: { aspect: 'glossaryTermInfo', field: 'name', label: 'Glossary Term' },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'name', label: 'Glossary Node' },
  domain: { aspect: 'domainProperties', field: 'name', label: 'Domain' },
  corpGroup: { aspect: 'corpGroupInfo', field: 'displayName', label: 'Group' },
  dataProduct: { aspect: 'dataProductProperties', field: 'name', label: 'Data Product' },
  dataset: { aspect: 'editableDatasetProperties', field: 'name' },
}

/**
 * DataHub's UpdateNameResolver: the entity must exist, and (but for a dataset, whose editable
 * name is written whatever it had) have the aspect holding its name. One PATCH of that member,
 * so a concurrent edit of another member (a description) is kept.
 */
async function updateName(
  _: unknown,
  { input }: { input: { name: string; urn: string } },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = resolveInput(ctx, input.urn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update ${ref.urn}. ${ref.urn} does not exist.`)
  }
  const target = TARGETS[ref.entity.name]
  if (!target) {
    throw new InvalidInputError(`Failed to update name. Unsupported resource type ${ref.urn} provided.`)
  }
  if (target.label && !(await currentAspect(ctx, ref.urn, target.aspect))) {
    throw new InvalidInputError(`${target.label} does not exist`)
  }
  const ops: PatchOp[] = [{ op: 'add', path: pointer(target.field), value: input.name }]
  if (ref.entity.name === 'dataset')
    ops.push({ op: 'add', path: pointer('lastModified'), value: stampOf(ctx) })
  await write(ctx, [patch(ref, target.aspect, ops)])
  return true
}

export const nameMutations = { updateName }
