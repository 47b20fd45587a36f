import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  auditStamp,
  customProperties,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  type Mapped,
  obj,
  optionalStamp,
  ownership,
  ref,
  status,
  str,
} from './common.js'
import { fieldType } from './dataset.js'
import type { EntityMapping } from './types.js'

export const BUSINESS_ATTRIBUTE_INFO = 'businessAttributeInfo'

/**
 * `BusinessAttribute` as DataHub's BusinessAttributeMapper: its info (the name is the stored
 * `fieldPath`, which is written equal to `name`; tags and terms are kept inside the info), owners
 * and links.
 */
function mapBusinessAttribute(e: LoadedEntity): Mapped {
  const info = e.aspects[BUSINESS_ATTRIBUTE_INFO]
  return {
    urn: e.urn,
    properties: info
      ? {
          name: str(info.fieldPath) ?? str(info.name) ?? '',
          description: str(info.description),
          tags: globalTags(obj(info.globalTags) as AspectValue | undefined, e.urn),
          glossaryTerms: glossaryTerms(obj(info.glossaryTerms) as AspectValue | undefined, e.urn),
          type: info.type === undefined ? null : fieldType(info.type),
          customProperties: customProperties(info.customProperties, e.urn),
          created: auditStamp(info.created),
          lastModified: auditStamp(info.lastModified),
          deleted: optionalStamp(info.deleted),
        }
      : null,
    ownership: ownership(e.aspects.ownership, e.urn),
    institutionalMemory: institutionalMemory(e.aspects.institutionalMemory, e.urn),
    status: status(e.aspects.status),
  }
}

export const BUSINESS_ATTRIBUTE_MAPPING: EntityMapping = {
  typeName: 'BusinessAttribute',
  entityType: 'BUSINESS_ATTRIBUTE',
  aspects: [BUSINESS_ATTRIBUTE_INFO, 'ownership', 'institutionalMemory', 'status'],
  map: mapBusinessAttribute,
}

/** `BusinessAttributes` of a schema field: the attribute attached to it, if any. */
export function businessAttributes(v: AspectValue | undefined, fieldUrn: string): Mapped | null {
  if (!v) return null
  const attribute = ref(obj(v.businessAttribute)?.businessAttributeUrn, ['businessAttribute'])
  return {
    businessAttribute: attribute ? { businessAttribute: attribute, associatedUrn: fieldUrn } : null,
  }
}
