import type { Requirement } from './authorizer.js'

/**
 * How DataHub's GraphQL resolvers authorize edits of one entity: "all privileges" on the entity
 * (`EDIT_ENTITY`, its `ALL_PRIVILEGES_GROUP`) or the specific privilege of the edit
 * (`LabelUtils`, `OwnerUtils`, `LinkUtils`, `DescriptionUtils`, `DomainUtils`, `DeprecationUtils`).
 */

type Row = Record<string, unknown>
export const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v)
export const rowOf = (v: unknown): Row => (isRow(v) ? v : {})
export const strOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
export const rowsOf = (v: unknown): Row[] => (Array.isArray(v) ? v.filter(isRow) : [])

const EDIT_ENTITY = 'EDIT_ENTITY'

/**
 * `EDIT_ENTITY` or `privilege` on `urn`. A missing URN asks the privilege of every resource
 * (no policy with a resource filter grants it): malformed input fails closed, and the
 * resolver answers its own 400 only to callers who could have edited anything.
 */
export function editOf(urn: unknown, privilege: string): Requirement {
  const resource = strOf(urn)
  return { anyOf: [privilege, EDIT_ENTITY], ...(resource !== undefined ? { resource } : {}) }
}

/** Whether the input targets a schema field (`subResource` set and not empty). */
const targetsField = (input: Row): boolean => {
  const sub = strOf(input.subResource)
  return sub !== undefined && sub.length > 0
}

/** An edit of a label (tags, terms) or description: the column privilege for a field sub-resource. */
export function labelEdit(input: Row, entityPrivilege: string, fieldPrivilege: string): Requirement {
  return editOf(input.resourceUrn, targetsField(input) ? fieldPrivilege : entityPrivilege)
}

/** The same label edit on each of `input.resources` (`batchAddTags`, `batchRemoveTerms`, ...). */
export function batchLabelEdit(input: Row, entityPrivilege: string, fieldPrivilege: string): Requirement[] {
  const resources = rowsOf(input.resources)
  if (resources.length === 0) return [editOf(undefined, entityPrivilege)]
  return resources.map((r) => labelEdit(r, entityPrivilege, fieldPrivilege))
}

/** One privilege on each of `input.resources` (`resourceUrn` each). */
export function batchEdit(resources: unknown, privilege: string): Requirement[] {
  const rows = rowsOf(resources)
  if (rows.length === 0) return [editOf(undefined, privilege)]
  return rows.map((r) => editOf(r.resourceUrn, privilege))
}

/** One privilege on each URN of a list (`batchUpdateSoftDeleted`'s `urns`). */
export function eachUrn(urns: unknown, privilege: string): Requirement[] {
  const list = Array.isArray(urns) ? urns : []
  if (list.length === 0) return [editOf(undefined, privilege)]
  return list.map((u) => editOf(u, privilege))
}

/**
 * The privileges of an `update<Entity>` input (DataHub's `DatasetType.isAuthorizedToUpdate` and
 * its siblings): `EDIT_ENTITY`, or every privilege of the aspects the input edits. Written as
 * one requirement per aspect privilege, each also met by `EDIT_ENTITY`.
 */
export function entityUpdate(urn: unknown, input: Row): Requirement[] {
  const privileges = new Set<string>()
  if (input.ownership !== undefined) privileges.add('EDIT_ENTITY_OWNERS')
  if (input.deprecation !== undefined) privileges.add('EDIT_ENTITY_STATUS')
  if (input.editableProperties !== undefined) privileges.add('EDIT_ENTITY_DOCS')
  if (input.institutionalMemory !== undefined) privileges.add('EDIT_ENTITY_DOC_LINKS')
  if (input.globalTags !== undefined || input.tags !== undefined) privileges.add('EDIT_ENTITY_TAGS')
  if (input.editableSchemaMetadata !== undefined) {
    privileges.add('EDIT_DATASET_COL_TAGS')
    privileges.add('EDIT_DATASET_COL_DESCRIPTION')
  }
  // Nothing known is edited: only "all privileges" on the entity grants the call.
  if (privileges.size === 0) return [editOf(urn, EDIT_ENTITY)]
  return [...privileges].map((p) => editOf(urn, p))
}
