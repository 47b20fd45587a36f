import {
  type DocumentFields,
  type FieldValue,
  type IndexChange,
  indexWords,
  isUrn,
  urnKeys,
  valueText,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import { ftsColumn } from './ddl.js'
import type { Vocabulary } from './vocabulary.js'

type Statement = Database.Statement
type Parts = Record<string, DocumentFields>

/** A document being changed by one batch. */
interface Pending {
  id: number | undefined
  readonly urn: string
  entityType: string
  parts: Parts
  readonly oldParts: string
  readonly oldDoc: string
}

export interface WriterOptions {
  /** Analysed fields, in FTS column order. */
  readonly ftsFields: readonly string[]
  readonly fieldIds: Map<string, number>
  readonly vocabulary: Vocabulary
  readonly keyAspectOf: (entityType: string) => string | undefined
  /** False for free-text fields, whose exact values are not kept. */
  readonly isExact: (field: string) => boolean
}

/**
 * Writes documents. A document row keeps each aspect's contribution (`parts`) and their
 * union (`doc`); a batch loads each touched document once, applies its changes in memory,
 * then rewrites the document's row, FTS row, exact values and URN keys once, and only when
 * the merged document changed. Runs inside the caller's transaction.
 */
export class DocumentWriter {
  private readonly s: Record<
    | 'load'
    | 'insertDoc'
    | 'updateDoc'
    | 'updateParts'
    | 'deleteDoc'
    | 'deleteFts'
    | 'deleteExact'
    | 'deleteKeys'
    | 'insertExact'
    | 'insertKey'
    | 'insertField'
    | 'insertFts',
    Statement
  >

  constructor(
    db: Database.Database,
    private readonly o: WriterOptions,
  ) {
    const p = (sql: string) => db.prepare(sql)
    this.s = {
      load: p('SELECT id, entity_type, parts, doc FROM docs WHERE urn = ?'),
      insertDoc: p('INSERT INTO docs (urn, entity_type, removed, parts, doc) VALUES (?, ?, ?, ?, ?)'),
      updateDoc: p('UPDATE docs SET removed = ?, parts = ?, doc = ? WHERE id = ?'),
      updateParts: p('UPDATE docs SET parts = ? WHERE id = ?'),
      deleteDoc: p('DELETE FROM docs WHERE id = ?'),
      deleteFts: p('DELETE FROM fts WHERE rowid = ?'),
      deleteExact: p('DELETE FROM exact WHERE doc_id = ?'),
      deleteKeys: p('DELETE FROM urn_keys WHERE doc_id = ?'),
      insertExact: p('INSERT OR IGNORE INTO exact (doc_id, field, value, num) VALUES (?, ?, ?, ?)'),
      insertKey: p('INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (?, ?, ?)'),
      insertField: p('INSERT INTO fields (name) VALUES (?)'),
      insertFts: p(
        `INSERT INTO fts (rowid, ${o.ftsFields.map(ftsColumn).join(', ')}) VALUES (?, ${o.ftsFields.map(() => '?').join(', ')})`,
      ),
    }
  }

  /** Applies changes in order; returns how many documents were rewritten or removed. */
  apply(changes: readonly IndexChange[]): number {
    const pending = new Map<string, Pending>()
    for (const c of changes) {
      let p = pending.get(c.urn)
      if (!p) {
        p = this.load(c.urn, c.kind === 'upsert' ? c.entityType : '')
        pending.set(c.urn, p)
      }
      if (c.kind === 'upsert') {
        p.entityType = c.entityType
        p.parts[c.aspect] = c.fields
      } else if (c.kind === 'removeAspect') delete p.parts[c.aspect]
      else p.parts = {}
    }
    let changed = 0
    for (const p of pending.values()) if (this.write(p)) changed++
    return changed
  }

  /** Writes the FTS row, exact values and URN keys of a merged document. */
  index(id: number, fields: DocumentFields): void {
    const texts: Array<string | null> = []
    let any = false
    for (const f of this.o.ftsFields) {
      const values = fields[f]
      if (!values || values.length === 0) {
        texts.push(null)
        continue
      }
      const words = values.flatMap((v) => indexWords(valueText(String(v))))
      this.o.vocabulary.add(words)
      texts.push(words.join(' '))
      any = true
    }
    if (any) this.s.insertFts.run(id, ...texts)
    for (const [field, values] of Object.entries(fields)) {
      if (!this.o.isExact(field)) continue
      const fid = this.fieldId(field)
      for (const v of values) {
        this.s.insertExact.run(id, fid, String(v), typeof v === 'number' ? v : null)
        if (typeof v === 'string' && isUrn(v)) for (const k of urnKeys(v)) this.s.insertKey.run(fid, k, id)
      }
    }
  }

  private load(urn: string, entityType: string): Pending {
    const row = this.s.load.get(urn) as
      | { id: number; entity_type: string; parts: string; doc: string }
      | undefined
    if (!row) return { id: undefined, urn, entityType, parts: {}, oldParts: '', oldDoc: '' }
    return {
      id: row.id,
      urn,
      entityType: row.entity_type,
      parts: JSON.parse(row.parts) as Parts,
      oldParts: row.parts,
      oldDoc: row.doc,
    }
  }

  private write(p: Pending): boolean {
    const aspects = Object.keys(p.parts)
    if (aspects.length === 0) {
      if (p.id === undefined) return false
      this.unindex(p.id)
      this.s.deleteDoc.run(p.id)
      return true
    }
    const key = this.o.keyAspectOf(p.entityType)
    aspects.sort((a, b) => (a === key ? -1 : b === key ? 1 : a < b ? -1 : a > b ? 1 : 0))
    const merged: Record<string, FieldValue[]> = {}
    const sortedParts: Parts = {}
    for (const aspect of aspects) {
      const part = p.parts[aspect] as DocumentFields
      sortedParts[aspect] = part
      for (const [field, values] of Object.entries(part)) {
        const list = merged[field]
        if (!list) merged[field] = [...values]
        else for (const v of values) if (!list.includes(v)) list.push(v)
      }
    }
    const parts = JSON.stringify(sortedParts)
    const doc = JSON.stringify(merged)
    const removed = merged.removed?.includes(true) ? 1 : 0
    if (p.id !== undefined && doc === p.oldDoc) {
      if (parts !== p.oldParts) this.s.updateParts.run(parts, p.id)
      return false
    }
    if (p.id === undefined) p.id = Number(this.s.insertDoc.run(p.urn, p.entityType, removed, parts, doc).lastInsertRowid)
    else {
      this.unindex(p.id)
      this.s.updateDoc.run(removed, parts, doc, p.id)
    }
    this.index(p.id, merged)
    return true
  }

  private fieldId(name: string): number {
    let id = this.o.fieldIds.get(name)
    if (id === undefined) {
      id = Number(this.s.insertField.run(name).lastInsertRowid)
      this.o.fieldIds.set(name, id)
    }
    return id
  }

  private unindex(id: number): void {
    this.s.deleteFts.run(id)
    this.s.deleteExact.run(id)
    this.s.deleteKeys.run(id)
  }
}
