import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  customProperties,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  list,
  type Mapped,
  ownership,
  ref,
  str,
} from './common.js'
import type { EntityMapping } from './types.js'

export const APPLICATION_PROPERTIES = 'applicationProperties'

/**
 * `Application` as DataHub's ApplicationMapper: its properties (the name is the id when none is
 * stored), owners, links, terms and tags; domain and structured properties are shared.
 */
function mapApplication(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a[APPLICATION_PROPERTIES]
  return {
    urn: e.urn,
    properties: props
      ? {
          name: str(props.name) ?? e.key.id,
          description: str(props.description),
          externalUrl: str(props.externalUrl),
          numAssets: null,
          customProperties: customProperties(props.customProperties, e.urn),
        }
      : null,
    ownership: ownership(a.ownership, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    tags: globalTags(a.globalTags, e.urn),
  }
}

export const APPLICATION_MAPPING: EntityMapping = {
  typeName: 'Application',
  entityType: 'APPLICATION',
  aspects: [APPLICATION_PROPERTIES, 'ownership', 'institutionalMemory', 'glossaryTerms', 'globalTags'],
  map: mapApplication,
}

/** An asset's `applications` (`[ApplicationAssociation]`) from its `applications` aspect; null when absent. */
export function applicationAssociations(v: AspectValue | undefined, associatedUrn: string): Mapped[] | null {
  if (!v) return null
  return list(v.applications).flatMap((u) => {
    const application = ref(u, ['application'])
    return application ? [{ application, associatedUrn }] : []
  })
}
