import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { type Mapped, obj, ref, resolvedStamp, str } from './common.js'
import type { EntityMapping } from './types.js'

/** DataHub's `VersionTagMapper`: the tag only. */
const versionTag = (v: unknown): Mapped => ({ versionTag: str(obj(v)?.versionTag) })

/**
 * `versionProperties` of a dataset or ML model, as DataHub's VersionPropertiesMapper: its set,
 * version and aliases (tags only), comment, whether it is the latest, and when it was made here
 * and in its source; null when the entity is not a version.
 */
export function versionProperties(v: AspectValue | undefined): Mapped | null {
  if (!v || typeof v.versionSet !== 'string') return null
  return {
    versionSet: { urn: v.versionSet },
    version: versionTag(v.version),
    aliases: (Array.isArray(v.aliases) ? v.aliases : []).map(versionTag),
    comment: str(v.comment),
    isLatest: v.isLatest === true,
    created: resolvedStamp(v.metadataCreatedTimestamp),
    createdInSource: resolvedStamp(v.sourceCreatedTimestamp),
  }
}

/** `VersionSet` as DataHub's VersionSetMapper: its latest version (its versions have a resolver). */
function mapVersionSet(e: LoadedEntity): Mapped {
  return { urn: e.urn, latestVersion: ref(e.aspects.versionSetProperties?.latest) ?? null }
}

export const VERSION_SET_MAPPING: EntityMapping = {
  typeName: 'VersionSet',
  entityType: 'VERSION_SET',
  aspects: ['versionSetProperties'],
  map: mapVersionSet,
}
