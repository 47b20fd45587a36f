import type { LoadedEntity } from '../entity-loader.js'
import { enumValue, list, type Mapped, obj, ownership, ref, refs, str } from './common.js'
import type { EntityMapping } from './types.js'

export const FORM_INFO = 'formInfo'

/** One `FormPrompt` of a form's info. */
function prompt(v: unknown, formUrn: string): Mapped | undefined {
  const p = obj(v)
  if (typeof p?.id !== 'string') return undefined
  const property = ref(obj(p.structuredPropertyParams)?.urn, ['structuredProperty'])
  return {
    id: p.id,
    title: str(p.title) ?? '',
    formUrn,
    description: str(p.description),
    type: enumValue(p.type, ['STRUCTURED_PROPERTY', 'FIELDS_STRUCTURED_PROPERTY']) ?? 'STRUCTURED_PROPERTY',
    required: p.required === true,
    structuredPropertyParams: property ? { structuredProperty: property } : null,
  }
}

/**
 * `Form` as DataHub's FormMapper: its info (type COMPLETION and owners assigned unless stored
 * otherwise, as the model's defaults say), prompts and assigned actors, and its owners.
 * `actors.isAssignedToMe` has its own resolver (it depends on the caller). `stored` says whether
 * the form has its info: a form without it is none.
 */
function mapForm(e: LoadedEntity): Mapped {
  const info = e.aspects[FORM_INFO]
  const actors = obj(info?.actors)
  return {
    urn: e.urn,
    stored: info !== undefined,
    info: info
      ? {
          name: str(info.name) ?? '',
          description: str(info.description),
          type: enumValue(info.type, ['COMPLETION', 'VERIFICATION']) ?? 'COMPLETION',
          prompts: list(info.prompts).flatMap((p) => prompt(p, e.urn) ?? []),
          actors: {
            owners: actors?.owners !== false,
            users: refs(actors?.users, ['corpuser']),
            groups: refs(actors?.groups, ['corpGroup']),
          },
        }
      : null,
    ownership: ownership(e.aspects.ownership, e.urn),
  }
}

export const FORM_MAPPING: EntityMapping = {
  typeName: 'Form',
  entityType: 'FORM',
  aspects: [FORM_INFO, 'ownership'],
  map: mapForm,
}
