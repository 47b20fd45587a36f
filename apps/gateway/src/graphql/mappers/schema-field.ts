import type { LoadedEntity } from '../entity-loader.js'
import { businessAttributes } from './business-attribute.js'
import { deprecation, globalTags, glossaryTerms, type Mapped, obj, ref, status } from './common.js'
import type { EntityMapping } from './types.js'

/**
 * `SchemaFieldEntity`, a column as an entity of its own (`urn:li:schemaField:(<dataset>,<path>)`):
 * its path and parent from the key, the business attribute attached to it, its status,
 * deprecation, tags, terms and logical parent (structured properties and forms are shared with every entity).
 */
function mapSchemaField(e: LoadedEntity): Mapped {
  const a = e.aspects
  return {
    urn: e.urn,
    fieldPath: e.key.fieldPath,
    parent: { urn: e.key.parent },
    businessAttributes: businessAttributes(a.businessAttributes, e.urn),
    status: status(a.status),
    deprecation: deprecation(a.deprecation),
    tags: globalTags(a.globalTags, e.urn),
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    logicalParent: ref(obj(a.logicalParent?.parent)?.destinationUrn) ?? null,
  }
}

export const SCHEMA_FIELD_MAPPING: EntityMapping = {
  typeName: 'SchemaFieldEntity',
  entityType: 'SCHEMA_FIELD',
  aspects: ['businessAttributes', 'status', 'deprecation', 'globalTags', 'glossaryTerms', 'logicalParent'],
  map: mapSchemaField,
}
