import { InvalidInputError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { resolveInput, stampOf, upsert, write } from './support.js'
import { type GlobalTagsUpdate, type OwnerUpdate, ownerValue, tagsValue } from './update-dataset.js'

/** The sections of DataHub's Chart/Dashboard/DataFlow/DataJob/Notebook `UpdateInput`. */
interface EntityUpdateInput {
  readonly ownership?: { readonly owners: readonly OwnerUpdate[] } | null
  readonly globalTags?: GlobalTagsUpdate | null
  readonly tags?: GlobalTagsUpdate | null
  readonly editableProperties?: { readonly description: string } | null
}

/**
 * DataHub's `update<Entity>` of one entity type (ChartType.update and its siblings, through their
 * `*UpdateInputMapper`): ownership, tags (`globalTags` winning over the deprecated `tags`) and the
 * editable description each replace one whole aspect. Like DataHub it does not require the
 * entity to exist. Returns the entity, re-read.
 */
function entityUpdate(entityName: string, editableAspect: string) {
  return async (
    _: unknown,
    { urn, input }: { urn: string; input: EntityUpdateInput },
    ctx: CatalogContext,
  ): Promise<EntitySource> => {
    const ref = resolveInput(ctx, urn)
    if (ref.entity.name !== entityName) {
      throw new InvalidInputError(`Invalid urn ${urn}: expected a ${entityName} urn`)
    }
    const stamp = stampOf(ctx)
    const proposals: MetadataProposal[] = []
    if (input.ownership) {
      proposals.push(
        upsert(ref, 'ownership', { owners: input.ownership.owners.map(ownerValue), lastModified: stamp }),
      )
    }
    const tags = input.globalTags ?? input.tags
    if (tags) proposals.push(upsert(ref, 'globalTags', tagsValue(tags)))
    if (input.editableProperties) {
      proposals.push(
        upsert(ref, editableAspect, {
          description: input.editableProperties.description,
          created: stamp,
          lastModified: stamp,
        }),
      )
    }
    await write(ctx, proposals)
    return { urn: ref.urn }
  }
}

/** `updateChart`, `updateDashboard`, `updateDataFlow`, `updateDataJob`, `updateNotebook`. */
export const entityUpdateMutations = {
  updateChart: entityUpdate('chart', 'editableChartProperties'),
  updateDashboard: entityUpdate('dashboard', 'editableDashboardProperties'),
  updateDataFlow: entityUpdate('dataFlow', 'editableDataFlowProperties'),
  updateDataJob: entityUpdate('dataJob', 'editableDataJobProperties'),
  updateNotebook: entityUpdate('notebook', 'editableNotebookProperties'),
}
