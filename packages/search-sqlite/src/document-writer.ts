import {
  type DocumentFields,
  type FieldValue,
  type IndexChange,
  mergeContributions,
  orderContributions,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import { ftsColumn } from './ddl.js'
import type { FacetCache } from './facet-cache.js'
import { RowBuffer } from './row-buffer.js'
import { ValueAnalysis } from './value-analysis.js'
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
  readonly oldType: string
}

export interface WriterOptions {
  /** Analysed fields, in FTS column order. */
  readonly ftsFields: readonly string[]
  readonly fieldIds: Map<string, number>
  readonly vocabulary: Vocabulary
  readonly keyAspectOf: (entityType: string) => string | undefined
  /** False for free-text fields, whose exact values are not kept. */
  readonly isExact: (field: string) => boolean
  readonly facets: FacetCache
  /** The entity type's best fields (highest boost), whose words are counted for ranking. */
  readonly bestFields: (entityType: string) => ReadonlySet<string>
}

/**
 * Writes documents. A document row keeps each aspect's contribution (`parts`; the document
 * is their union); a batch loads each touched document once, applies its changes in memory,
 * then rewrites the document's row, FTS row, exact values, URN keys and browse counts once,
 * and only when a contribution changed. Runs inside the caller's transaction.
 */
export class DocumentWriter {
  /** Browse-count changes of the batch being applied, by entity type and node: [docs, below]. */
  private browse = new Map<string, [number, number]>()
  private readonly analysis = new ValueAnalysis()
  private readonly exact: RowBuffer
  private readonly keys: RowBuffer
  private readonly s: Record<
    | 'load'
    | 'insertDoc'
    | 'updateDoc'
    | 'deleteDoc'
    | 'deleteFts'
    | 'deleteExact'
    | 'deleteKey'
    | 'insertField'
    | 'insertFts'
    | 'browseDelta',
    Statement
  >

  constructor(
    db: Database.Database,
    private readonly o: WriterOptions,
  ) {
    const p = (sql: string) => db.prepare(sql)
    this.exact = new RowBuffer(
      db,
      'INSERT OR IGNORE INTO exact (doc_id, field, value, num) VALUES (?, ?, ?, ?)',
      4,
    )
    this.keys = new RowBuffer(db, 'INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (?, ?, ?)', 3)
    this.s = {
      load: p('SELECT id, entity_type, parts FROM docs WHERE urn = ?'),
      insertDoc: p('INSERT INTO docs (urn, entity_type, removed, parts) VALUES (?, ?, ?, ?)'),
      updateDoc: p('UPDATE docs SET removed = ?, parts = ? WHERE id = ?'),
      deleteDoc: p('DELETE FROM docs WHERE id = ?'),
      deleteFts: p('DELETE FROM fts WHERE rowid = ?'),
      deleteExact: p('DELETE FROM exact WHERE doc_id = ?'),
      deleteKey: p('DELETE FROM urn_keys WHERE field = ? AND key = ? AND doc_id = ?'),
      insertField: p(
        'INSERT INTO fields (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING id',
      ),
      browseDelta: p(
        `INSERT INTO browse_nodes (entity_type, path, parent, docs, below) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (entity_type, path) DO UPDATE SET docs = docs + excluded.docs, below = below + excluded.below`,
      ),
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
    try {
      for (const p of pending.values()) if (this.write(p)) changed++
      this.flush()
    } catch (err) {
      // The caller's transaction rolls back: what is buffered for it must not reach the next one.
      this.exact.clear()
      this.keys.clear()
      this.browse = new Map()
      throw err
    }
    return changed
  }

  /** Writes the buffered rows and the browse-count changes gathered since the last flush. */
  flush(): void {
    this.exact.flush()
    this.keys.flush()
    for (const [key, [docs, below]] of this.browse) {
      if (docs === 0 && below === 0) continue
      const [entityType, node] = key.split('\u0000') as [string, string]
      const parent = node === '' ? '' : node.slice(0, node.lastIndexOf('/'))
      this.s.browseDelta.run(entityType, node, parent, docs, below)
    }
    this.browse = new Map()
  }

  /** Writes the FTS row, exact values, URN keys and browse counts of a merged document. */
  index(id: number, entityType: string, fields: DocumentFields): void {
    if (!fields.removed?.includes(true)) this.browseCounts(entityType, fields.browsePaths, 1)
    const texts: Array<string | null> = []
    let any = false
    let bestSize = 0
    const best = this.o.bestFields(entityType)
    for (const f of this.o.ftsFields) {
      const values = fields[f]
      if (!values || values.length === 0) {
        texts.push(null)
        continue
      }
      const words = values.flatMap((v) => this.analysis.words(String(v)))
      this.o.vocabulary.add(words, ftsColumn(f))
      texts.push(words.join(' '))
      if (best.has(f)) bestSize += words.length
      any = true
    }
    this.o.facets.set(id, entityType, fields, bestSize)
    if (any) this.s.insertFts.run(id, ...texts)
    for (const [field, values] of Object.entries(fields)) {
      if (!this.o.isExact(field)) continue
      const fid = this.fieldId(field)
      for (const v of values) {
        this.exact.add(id, fid, String(v), typeof v === 'number' ? v : null)
        if (typeof v === 'string') for (const k of this.analysis.keys(v)) this.keys.add(fid, k, id)
      }
    }
  }

  private load(urn: string, entityType: string): Pending {
    const row = this.s.load.get(urn) as { id: number; entity_type: string; parts: string } | undefined
    if (!row) return { id: undefined, urn, entityType, parts: {}, oldParts: '', oldType: entityType }
    return {
      id: row.id,
      urn,
      entityType: row.entity_type,
      parts: JSON.parse(row.parts) as Parts,
      oldParts: row.parts,
      oldType: row.entity_type,
    }
  }

  private write(p: Pending): boolean {
    if (Object.keys(p.parts).length === 0) {
      if (p.id === undefined) return false
      this.unindex(p.id, p.oldType, p.oldParts)
      this.s.deleteDoc.run(p.id)
      return true
    }
    const ordered = orderContributions(p.parts, this.o.keyAspectOf(p.entityType))
    const parts = JSON.stringify(ordered)
    if (p.id !== undefined && parts === p.oldParts) return false
    const merged = mergeContributions(ordered)
    const removed = merged.removed?.includes(true) ? 1 : 0
    if (p.id === undefined)
      p.id = Number(this.s.insertDoc.run(p.urn, p.entityType, removed, parts).lastInsertRowid)
    else {
      this.unindex(p.id, p.oldType, p.oldParts)
      this.s.updateDoc.run(removed, parts, p.id)
    }
    this.index(p.id, p.entityType, merged)
    return true
  }

  private fieldId(name: string): number {
    let id = this.o.fieldIds.get(name)
    if (id === undefined) {
      // Another connection may have added it since the ids were read: RETURNING gives it either way.
      id = (this.s.insertField.get(name) as { id: number }).id
      this.o.fieldIds.set(name, id)
    }
    return id
  }

  /** Deletes a document's derived rows; its URN keys are derived again from its old contributions. */
  private unindex(id: number, entityType: string, oldParts: string): void {
    this.s.deleteFts.run(id)
    this.s.deleteExact.run(id)
    this.o.facets.delete(id)
    const old = mergeContributions(JSON.parse(oldParts) as Record<string, DocumentFields>)
    for (const [field, values] of Object.entries(old)) {
      if (!this.o.isExact(field)) continue
      let fid: number | undefined
      for (const v of values) {
        if (typeof v !== 'string') continue
        for (const k of this.analysis.keys(v)) {
          fid ??= this.fieldId(field)
          this.s.deleteKey.run(fid, k, id)
        }
      }
    }
    if (!old.removed?.includes(true)) this.browseCounts(entityType, old.browsePaths, -1)
  }

  /**
   * Adds (`sign` 1) or takes away (-1) a visible document's browse paths from the browse
   * counts: every prefix of a path counts it as at-or-under, every proper prefix (the root
   * `''` included) as strictly under.
   */
  private browseCounts(entityType: string, paths: readonly FieldValue[] | undefined, sign: 1 | -1): void {
    if (!paths || paths.length === 0) return
    const at = new Set<string>()
    const below = new Set<string>()
    for (const raw of paths) {
      const segments = String(raw)
        .split('/')
        .filter((x) => x !== '')
      let node = ''
      for (const segment of segments) {
        below.add(node)
        node = `${node}/${segment}`
        at.add(node)
      }
    }
    for (const node of new Set([...at, ...below])) {
      const key = `${entityType}\u0000${node}`
      const delta = this.browse.get(key) ?? [0, 0]
      if (at.has(node)) delta[0] += sign
      if (below.has(node)) delta[1] += sign
      this.browse.set(key, delta)
    }
  }
}
