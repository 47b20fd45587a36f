import type { AuditStamp, ChangeLogEntry } from '@catalog/core'
import type { DocumentDeriver, DocumentFields } from '@catalog/search'

/** An entity whose whole search document is built from its stored latest aspects (`catalog import`). */
export interface BulkEntity {
  readonly urn: string
  readonly entityType: string
  /** Its latest aspects, each value as stored JSON text. */
  readonly aspects: ReadonlyArray<{ readonly aspect: string; readonly valueJson: string }>
}

/** The deriver reads no audit stamp: the entries it is given here carry none of their own. */
const NO_STAMP: AuditStamp = { time: 0, actor: '' }

/**
 * The entity's whole document: its entity type and every aspect's contribution, derived as the
 * change log's entries of its aspects at `seq` would derive them (none: no document).
 */
export function wholeDocument(
  deriver: DocumentDeriver,
  entity: BulkEntity,
  seq: number,
): { entityType: string; contributions: Record<string, DocumentFields> } {
  const entries: ChangeLogEntry[] = entity.aspects.map((a) => ({
    seq,
    urn: entity.urn,
    entityType: entity.entityType,
    aspect: a.aspect,
    change: 'UPSERT',
    value: JSON.parse(a.valueJson) as Record<string, unknown>,
    created: NO_STAMP,
  }))
  let contributions: Record<string, DocumentFields> = {}
  let entityType = entity.entityType
  for (const c of deriver.changes(entries)) {
    if (c.kind === 'upsert') {
      contributions[c.aspect] = c.fields
      entityType = c.entityType
    } else if (c.kind === 'removeAspect') delete contributions[c.aspect]
    else contributions = {}
  }
  return { entityType, contributions }
}
