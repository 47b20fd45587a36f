import type { ChangeLogEntry } from '@catalog/core'
import type { DocumentFields } from '@catalog/search'
import type { ContractFixture } from '@catalog/search/contract-fixtures'

/** Each entity's whole document (contributions by aspect) as `catalog import` derives it, for the bulk tests. */
export function bulkDocuments(fx: ContractFixture, entries: readonly ChangeLogEntry[]) {
  const docs = new Map<string, { type: string; parts: Record<string, DocumentFields> }>()
  for (const c of fx.deriver.changes(entries)) {
    if (c.kind !== 'upsert') continue
    const doc = docs.get(c.urn) ?? { type: c.entityType, parts: {} }
    doc.parts[c.aspect] = c.fields
    docs.set(c.urn, doc)
  }
  return docs
}
