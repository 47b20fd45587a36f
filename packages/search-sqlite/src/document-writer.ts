import {
  type DocumentFields,
  type IndexChange,
  mergeContributions,
  orderContributions,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import { addBrowseCounts, type BrowseDeltas } from './browse-counts.js'
import { browseParent, ftsColumn } from './ddl.js'
import {
  type DocumentRowSink,
  type DocumentRows,
  documentRows,
  eachDocumentRow,
  exactRowKey,
  urnKeyKey,
} from './exact-rows.js'
import type { FacetCache } from './facet-cache.js'
import { FtsInserter } from './fts-inserter.js'
import { ftsRowOf, sameAnalysedValues } from './fts-row.js'
import type { PartsCodec } from './parts-codec.js'
import { RowBuffer } from './row-buffer.js'
import { urnHash } from './urn-hash.js'
import { LIVE_MEMO_ENTRIES, ValueAnalysis } from './value-analysis.js'
import type { Vocabulary } from './vocabulary.js'

type Statement = Database.Statement
type Parts = Record<string, DocumentFields>

/** A document as its derived rows were written. */
interface Indexed {
  readonly entityType: string
  readonly fields: DocumentFields
}

/** A document being changed by one batch. */
interface Pending {
  id: number | undefined
  readonly urn: string
  entityType: string
  parts: Parts
  readonly oldParts: string
  readonly oldType: string
  /** The stored soft-delete flag (0 for a new document). */
  readonly oldRemoved: number
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
  /** Entity types whose URN tuple ids need no URN key (see `ValueAnalysis.keys`). */
  readonly urnTypes: ReadonlySet<string>
  /** How `docs.parts` is written. */
  readonly codec: PartsCodec
}

/**
 * Writes documents. A document row keeps each aspect's contribution (`parts`; the document
 * is their union); a batch loads each touched document once, applies its changes in memory,
 * then rewrites the document's row, FTS row, exact values, URN keys and browse counts once,
 * and only when a contribution changed. Runs inside the caller's transaction.
 */
export class DocumentWriter {
  /** Browse-count changes of the batch being applied, by entity type and node: [docs, below]. */
  private browse: BrowseDeltas = new Map()
  private readonly analysis: ValueAnalysis
  private readonly exact: RowBuffer
  private readonly keys: RowBuffer
  private readonly fts: FtsInserter
  /** The FTS column of each analysed field, by its number. */
  private readonly columns: readonly string[]
  /** The field id of a field name (adds it when new). */
  private readonly fieldIdOf = (name: string) => this.fieldId(name)
  /** The document whose rows {@link newRows} buffers. */
  private rowsDoc = 0
  /** Buffers the rows of a document the tables do not hold yet ({@link rowsDoc}), with no row objects. */
  private readonly newRows: DocumentRowSink = {
    exact: (field, value, variant, num) => this.exact.add(this.rowsDoc, field, value, variant, num),
    key: (field, key) => this.keys.add(field, key, this.rowsDoc),
  }
  /** Deletes a document's staged rows (see `STAGED_DDL`), while a bulk build stages them. */
  private unstageRows: readonly Statement[] | undefined
  private readonly db: Database.Database
  private readonly s: Record<
    | 'load'
    | 'insertDoc'
    | 'updateDoc'
    | 'updateParts'
    | 'deleteDoc'
    | 'deleteFts'
    | 'deleteExactRow'
    | 'deleteKey'
    | 'insertField'
    | 'browseDelta',
    Statement
  >

  constructor(
    db: Database.Database,
    private readonly o: WriterOptions,
  ) {
    const p = (sql: string) => db.prepare(sql)
    this.db = db
    this.analysis = new ValueAnalysis(o.urnTypes, LIVE_MEMO_ENTRIES)
    this.fts = new FtsInserter(db, o.ftsFields)
    this.columns = o.ftsFields.map(ftsColumn)
    this.exact = new RowBuffer(
      db,
      'INSERT OR IGNORE INTO exact (doc_id, field, value, variant, num) VALUES (?, ?, ?, ?, ?)',
      5,
    )
    this.keys = new RowBuffer(db, 'INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (?, ?, ?)', 3)
    this.s = {
      load: p('SELECT id, entity_type, removed, parts FROM docs WHERE urn_hash = ? AND urn = ?'),
      insertDoc: p('INSERT INTO docs (urn, urn_hash, entity_type, removed, parts) VALUES (?, ?, ?, ?, ?)'),
      updateDoc: p('UPDATE docs SET removed = ?, parts = ? WHERE id = ?'),
      // Setting `removed`, even to its value, rewrites the document's entry in `docs_by_type`.
      updateParts: p('UPDATE docs SET parts = ? WHERE id = ?'),
      deleteDoc: p('DELETE FROM docs WHERE id = ?'),
      deleteFts: p('DELETE FROM fts WHERE rowid = ?'),
      // The key compares values without case; `variant` tells apart the document's values that differ only in it.
      deleteExactRow: p(
        'DELETE FROM exact WHERE field = ? AND value = ? COLLATE NOCASE AND doc_id = ? AND variant = ?',
      ),
      deleteKey: p('DELETE FROM urn_keys WHERE field = ? AND key = ? AND doc_id = ?'),
      insertField: p(
        'INSERT INTO fields (name) VALUES (?) ON CONFLICT (name) DO UPDATE SET name = name RETURNING id',
      ),
      browseDelta: p(
        `INSERT INTO browse_nodes (entity_type, parent, path, docs, below) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (entity_type, parent, path) DO UPDATE SET docs = docs + excluded.docs, below = below + excluded.below`,
      ),
    }
  }

  /**
   * While on, a bulk build stages the exact values and URN keys of the documents it adds: a
   * document changed meanwhile has its staged rows deleted, and its rows written here.
   */
  setStaging(on: boolean): void {
    this.unstageRows = on
      ? [
          this.db.prepare('DELETE FROM exact_staged WHERE doc_id = ?'),
          this.db.prepare('DELETE FROM urn_keys_staged WHERE doc_id = ?'),
        ]
      : undefined
  }

  /** Deletes a document's staged rows; true when it had any (its rows are then not in the tables). */
  private unstage(id: number): boolean {
    let staged = false
    for (const s of this.unstageRows ?? []) if (s.run(id).changes > 0) staged = true
    return staged
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
      this.s.browseDelta.run(entityType, browseParent(node), node, docs, below)
    }
    this.browse = new Map()
  }

  /**
   * Writes the FTS row, exact values, URN keys and browse counts of a merged document. With `old`
   * (the document as it was, whose rows are written), only what changed is written: the FTS row
   * when one of its texts changed, and the exact values and URN keys that changed: an update of
   * one aspect seldom changes a dataset's platform, paths or upstreams, and an update of an aspect
   * with no analysed text (status, browse paths, platform instance) none of its words.
   */
  index(id: number, entityType: string, fields: DocumentFields, old?: Indexed): void {
    if (old) {
      this.o.facets.delete(id)
      if (!old.fields.removed?.includes(true))
        addBrowseCounts(this.browse, old.entityType, old.fields.browsePaths, -1)
    }
    if (!fields.removed?.includes(true)) addBrowseCounts(this.browse, entityType, fields.browsePaths, 1)
    let bestSize = 0
    const best = this.o.bestFields(entityType)
    const row = ftsRowOf(fields, this.o.ftsFields, this.analysis, (col, field, words) => {
      this.o.vocabulary.add(words, this.columns[col])
      if (best.has(field)) bestSize += words.length
    })
    this.o.facets.set(id, entityType, fields, bestSize)
    // Rewriting an FTS row deletes and inserts each of its words (and their prefixes).
    if (!old || !sameAnalysedValues(old.fields, fields, this.o.ftsFields)) {
      if (old) this.s.deleteFts.run(id)
      this.fts.insert(id, row.cols, row.texts)
    }
    if (!old || this.unstage(id)) {
      this.rowsDoc = id
      eachDocumentRow(fields, this.o.isExact, this.fieldIdOf, this.analysis, this.newRows)
      return
    }
    const now = this.rowsOf(fields)
    const was = this.rowsOf(old.fields)
    const wasExact = new Set(was.exact.map(exactRowKey))
    const nowExact = new Set(now.exact.map(exactRowKey))
    for (const r of was.exact)
      if (!nowExact.has(exactRowKey(r))) this.s.deleteExactRow.run(r[0], r[1], id, r[2])
    for (const r of now.exact) if (!wasExact.has(exactRowKey(r))) this.exact.add(id, ...r)
    const wasKeys = new Set(was.keys.map(urnKeyKey))
    const nowKeys = new Set(now.keys.map(urnKeyKey))
    for (const k of was.keys) if (!nowKeys.has(urnKeyKey(k))) this.s.deleteKey.run(k[0], k[1], id)
    for (const k of now.keys) if (!wasKeys.has(urnKeyKey(k))) this.keys.add(k[0], k[1], id)
  }

  private load(urn: string, entityType: string): Pending {
    const row = this.s.load.get(urnHash(urn), urn) as
      | { id: number; entity_type: string; removed: number; parts: string }
      | undefined
    if (!row)
      return { id: undefined, urn, entityType, parts: {}, oldParts: '', oldType: entityType, oldRemoved: 0 }
    return {
      id: row.id,
      urn,
      entityType: row.entity_type,
      parts: this.o.codec.decode(row.parts),
      oldParts: row.parts,
      oldType: row.entity_type,
      oldRemoved: row.removed,
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
    const parts = this.o.codec.encode(ordered)
    if (p.id !== undefined && parts === p.oldParts) return false
    const merged = mergeContributions(ordered)
    const removed = merged.removed?.includes(true) ? 1 : 0
    if (p.id === undefined) {
      p.id = Number(this.s.insertDoc.run(p.urn, urnHash(p.urn), p.entityType, removed, parts).lastInsertRowid)
      this.index(p.id, p.entityType, merged)
    } else {
      if (removed === p.oldRemoved) this.s.updateParts.run(parts, p.id)
      else this.s.updateDoc.run(removed, parts, p.id)
      const old = mergeContributions(this.o.codec.decode(p.oldParts))
      this.index(p.id, p.entityType, merged, { entityType: p.oldType, fields: old })
    }
    return true
  }

  /** The id of an index field, added to `fields` when new. */
  fieldId(name: string): number {
    let id = this.o.fieldIds.get(name)
    if (id === undefined) {
      // Another connection may have added it since the ids were read: RETURNING gives it either way.
      id = (this.s.insertField.get(name) as { id: number }).id
      this.o.fieldIds.set(name, id)
    }
    return id
  }

  /** Deletes a document's derived rows, its exact values and URN keys derived again from its old contributions. */
  private unindex(id: number, entityType: string, oldParts: string): void {
    this.s.deleteFts.run(id)
    this.o.facets.delete(id)
    this.unstage(id)
    const old = mergeContributions(this.o.codec.decode(oldParts))
    const rows = this.rowsOf(old)
    for (const r of rows.exact) this.s.deleteExactRow.run(r[0], r[1], id, r[2])
    for (const [fid, k] of rows.keys) this.s.deleteKey.run(fid, k, id)
    if (!old.removed?.includes(true)) addBrowseCounts(this.browse, entityType, old.browsePaths, -1)
  }

  private rowsOf(fields: DocumentFields): DocumentRows {
    return documentRows(fields, this.o.isExact, this.fieldIdOf, this.analysis)
  }
}
