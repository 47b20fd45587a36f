import type { EntitySummary, TagRef } from '../api/types.js'

/** The name to show for an entity: its display name, else the last part of its URN. */
export function displayName(e: EntitySummary): string {
  return e.properties?.name ?? e.name ?? e.username ?? shortUrn(e.urn)
}

/** `urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)` → `db.table`; `urn:li:tag:pii` → `pii`. */
export function shortUrn(urn: string): string {
  if (urn.endsWith(')')) return urn.slice(0, -1).split(',').at(-2) ?? urn
  return urn.split(':').at(-1) ?? urn
}

export function descriptionOf(e: EntitySummary): string | null {
  return e.editableProperties?.description ?? e.properties?.description ?? e.description ?? null
}

export function platformName(e: EntitySummary): string | null {
  return e.platform?.properties?.displayName ?? e.platform?.name ?? null
}

export function tagName(t: TagRef): string {
  return t.tag.properties?.name ?? t.tag.name ?? t.tag.urn.replace('urn:li:tag:', '')
}

/** `DATASET` → `Dataset`, `ML_MODEL` → `Ml Model`. */
export function typeLabel(type: string): string {
  return type
    .split('_')
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join(' ')
}
