import { type ChangeCategory, type ChangeEvent, changeEvent, type DiffContext } from './types.js'

/** `Urn.getId()`: what follows `urn:li:<type>:`. */
export function urnId(urn: string): string {
  return urn.split(':').slice(3).join(':')
}

/** A field path without its v2 `[...]` tokens (DataHub's `getFieldPathV1`). */
export function fieldPathV1(fieldPath: string): string {
  return fieldPath
    .split('.')
    .filter((t) => !(t.startsWith('[') || t.endsWith(']')))
    .join('.')
}

/** `urn:li:schemaField:(<dataset>,<path>)`. */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  return `urn:li:schemaField:(${datasetUrn},${fieldPath})`
}

export function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object')
    : []
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** How an association list (tags, terms) is read and described. */
interface AssociationKind {
  readonly category: ChangeCategory
  readonly key: string
  readonly parameter: string
  readonly added: (id: string, entity: string) => string
  readonly removed: (id: string, entity: string) => string
}

export const TAGS: AssociationKind = {
  category: 'TAG',
  key: 'tag',
  parameter: 'tagUrn',
  added: (id, e) => `Tag '${id}' added to entity '${e}'.`,
  removed: (id, e) => `Tag '${id}' removed from entity '${e}'.`,
}

export const TERMS: AssociationKind = {
  category: 'GLOSSARY_TERM',
  key: 'urn',
  parameter: 'termUrn',
  added: (id, e) => `Term '${id}' added to entity '${e}'.`,
  removed: (id, e) => `Term '${id}' removed from entity '${e}'.`,
}

/**
 * DataHub's sorted merge of two association lists: one REMOVE per association only in
 * `base`, one ADD per association only in `target`, MINOR each, in URN order.
 */
export function diffAssociations(
  kind: AssociationKind,
  base: unknown,
  target: unknown,
  entityUrn: string,
  auditStamp: DiffContext['auditStamp'],
): ChangeEvent[] {
  const urns = (v: unknown) =>
    list(v)
      .map((a) => str(a[kind.key]))
      .filter((u): u is string => u !== undefined)
      .sort()
  const from = urns(base)
  const to = new Set(urns(target))
  const fromSet = new Set(from)
  const event = (urn: string, added: boolean) =>
    changeEvent({
      modifier: urn,
      entityUrn,
      category: kind.category,
      operation: added ? 'ADD' : 'REMOVE',
      semVerChange: 'MINOR',
      description: (added ? kind.added : kind.removed)(urnId(urn), entityUrn),
      parameters: { [kind.parameter]: urn },
      auditStamp,
    })
  const all = [...new Set([...from, ...to])].sort()
  return all.filter((u) => fromSet.has(u) !== to.has(u)).map((u) => event(u, to.has(u)))
}

/** Rebinds entity tag/term events to a schema field (DataHub's SchemaField*ChangeEvent). */
export function onField(events: ChangeEvent[], fieldPath: string, parentUrn: string): ChangeEvent[] {
  return events.map((e) => ({ ...e, parameters: { ...e.parameters, fieldPath, parentUrn } }))
}
