import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { MAPPINGS } from '../mappers/index.js'
import { typedRef } from '../mutations/support.js'

/** The aspects DataHub's `VersionedDatasetType` reads. */
const ASPECTS = [
  'datasetProperties',
  'editableDatasetProperties',
  'datasetDeprecation',
  'deprecation',
  'editableSchemaMetadata',
  'viewProperties',
  'ownership',
  'institutionalMemory',
  'globalTags',
  'glossaryTerms',
  'status',
  'container',
  'domains',
  'schemaMetadata',
  'subTypes',
]

/**
 * A version stamp (DataHub's `VersionedUrnUtils.convertVersionStamp`): `aspect:version;...`, each
 * aspect at that version; undefined for none (every aspect at its latest).
 */
export function versionsOf(stamp: string | null | undefined): Map<string, number> | undefined {
  if (!stamp?.trim()) return undefined
  const versions = new Map<string, number>()
  for (const pair of stamp.split(';')) {
    const parts = pair.split(':')
    if (parts.length !== 2 || !parts[0])
      throw new InvalidInputError(`Invalid version stamp cannot be parsed: ${stamp}`)
    const version = Number(parts[1])
    if (!/^\d+$/.test(parts[1] ?? '') || !Number.isSafeInteger(version)) {
      throw new InvalidInputError(`Invalid value for aspect version: ${parts[1]}`)
    }
    versions.set(parts[0], version)
  }
  return versions
}

/**
 * DataHub's `versionedDataset(urn, versionStamp)`: a dataset as it was at the stamp's aspect
 * versions (only those aspects, as DataHub reads them; without a stamp, the latest of each). The
 * name, platform and origin come from the URN. Null when the dataset does not exist;
 * `relationships` is always null, as in DataHub.
 */
async function versionedDataset(
  _: unknown,
  { urn, versionStamp }: { urn: string; versionStamp?: string | null },
  ctx: CatalogContext,
) {
  const ref = typedRef(ctx, urn, 'dataset')
  const versions = versionsOf(versionStamp)
  if (!(await ctx.client.exists(ref.urn))) return null
  const aspects: Record<string, AspectValue> = {}
  if (versions) {
    const read = await Promise.all(
      [...versions].map(async ([aspect, version]) => {
        if (!ctx.registry.hasAspect(ref.entity, aspect)) return [aspect, undefined] as const
        return [aspect, await ctx.client.getAspectVersion(ref.urn, aspect, version)] as const
      }),
    )
    for (const [aspect, value] of read) if (value) aspects[aspect] = value
  } else {
    Object.assign(aspects, (await ctx.client.getEntities([ref.urn], ASPECTS)).get(ref.urn)?.aspects ?? {})
  }
  const mapping = MAPPINGS.get('dataset')
  if (!mapping) return null
  const mapped = mapping.map({ urn: ref.urn, entityType: 'dataset', aspects, key: ref.key, exists: true })
  return {
    ...mapped,
    type: 'DATASET',
    schema: mapped.schemaMetadata,
    health: null,
    relationships: null,
  }
}

export const versionedDatasetQueries = { versionedDataset }
