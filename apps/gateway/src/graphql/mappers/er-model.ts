import type { LoadedEntity } from '../entity-loader.js'
import {
  enumValue,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  list,
  type Mapped,
  num,
  obj,
  ownership,
  ref,
  status,
  str,
} from './common.js'
import type { EntityMapping } from './types.js'

export const ER_PROPERTIES = 'erModelRelationshipProperties'
export const ER_EDITABLE = 'editableERModelRelationshipProperties'
export const CARDINALITIES = ['ONE_ONE', 'ONE_N', 'N_ONE', 'N_N'] as const

/**
 * `ERModelRelationship` (a join between two datasets) as DataHub's ERModelRelationMapper: its
 * name, datasets, field mappings and cardinality (the model's default, N_N, when unset), when
 * and by whom it was created, its editable name and description, and the usual aspects.
 */
function mapErModel(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a[ER_PROPERTIES]
  const editable = a[ER_EDITABLE]
  const created = obj(props?.created)
  const time = num(created?.time) ?? 0
  const source = ref(props?.source, ['dataset'])
  const destination = ref(props?.destination, ['dataset'])
  return {
    urn: e.urn,
    id: e.key.id,
    // Both ends are non-null datasets: a relationship stored otherwise has no properties.
    properties:
      props && source && destination
        ? {
            name: str(props.name) ?? '',
            source,
            destination,
            relationshipFieldMappings: Array.isArray(props.relationshipFieldMappings)
              ? list(props.relationshipFieldMappings).flatMap((m) => {
                  const mapping = obj(m)
                  const source = str(mapping?.sourceField)
                  const destination = str(mapping?.destinationField)
                  return source !== null && destination !== null
                    ? [{ sourceField: source, destinationField: destination }]
                    : []
                })
              : null,
            cardinality: enumValue(props.cardinality, CARDINALITIES) ?? 'N_N',
            createdTime: Math.max(time, 0),
            createdActor: ref(created?.actor) ?? null,
          }
        : null,
    editableProperties: editable
      ? { name: str(editable.name), description: str(editable.description) }
      : null,
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    tags: globalTags(a.globalTags, e.urn),
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
  }
}

export const ER_MODEL_MAPPING: EntityMapping = {
  typeName: 'ERModelRelationship',
  entityType: 'ER_MODEL_RELATIONSHIP',
  aspects: [
    ER_PROPERTIES,
    ER_EDITABLE,
    'institutionalMemory',
    'ownership',
    'status',
    'globalTags',
    'glossaryTerms',
  ],
  map: mapErModel,
}
