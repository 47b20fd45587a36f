import {
  type DocumentFields,
  type IndexChange,
  mergeContributions,
  orderContributions,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import { addBrowseCounts, type BrowseDeltas } from './browse-counts.js'
import { browseParent, ftsColumn } from './ddl.js'
import { type DocumentRows, documentRows, exactRowKey, urnKeyKey } from './exact-rows.js'
import type { FacetCache } from './facet-cache.js'
import { FtsInserter } from './fts-inserter.js'
import type { PartsCodec } from './parts-codec.js'
import { RowBuffer } from './row-buffer.js'
import { urnHash } from './urn-hash.js'
import { ValueAnalysis } from './value-analysis.js'
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
  /** Deletes a document's staged rows (see `STAGED_DDL`), while a bulk build stages them. */
  private unstageRows: readonly Statement[] | undefined
  private readonly db: Database.Database
  private readonly s: Record<
    | 'load'
    | 'insertDoc'
    | 'updateDoc'
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
    this.analysis = new ValueAnalysis(o.urnTypes)
    this.fts = new FtsInserter(db, o.ftsFields)
    this.exact = new RowBuffer(
      db,
      'INSERT OR IGNORE INTO exact (doc_id, field, value, variant, num) VALUES (?, ?, ?, ?, ?)',
      5,
    )
    this.keys = new RowBuffer(db, 'INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (?, ?, ?)', 3)
    this.s = {
      load: p('SELECT id, entity_type, parts FROM docs WHERE urn_hash = ? AND urn = ?'),
      insertDoc: p('INSERT INTO docs (urn, urn_hash, entity_type, removed, parts) VALUES (?, ?, ?, ?, ?)'),
      updateDoc: p('UPDATE docs SET removed = ?, parts = ? WHERE id = ?'),
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
   * (the document as it was, whose rows are written), the FTS row is written again and only the
   * exact values and URN keys that changed are deleted or added: an update of one aspect seldom
   * changes a dataset's platform, paths or upstreams.
   */
  index(id: number, entityType: string, fields: DocumentFields, old?: Indexed): void {
    if (old) {
      this.s.deleteFts.run(id)
      this.o.facets.delete(id)
      if (!old.fields.removed?.includes(true))
        addBrowseCounts(this.browse, old.entityType, old.fields.browsePaths, -1)
    }
    if (!fields.removed?.includes(true)) addBrowseCounts(this.browse, entityType, fields.browsePaths, 1)
    const cols: number[] = []
    const texts: string[] = []
    let bestSize = 0
    const best = this.o.bestFields(entityType)
    this.o.ftsFields.forEach((f, col) => {
      const values = fields[f]
      if (!values || values.length === 0) return
      const words = values.flatMap((v) => this.analysis.words(String(v)))
      this.o.vocabulary.add(words, ftsColumn(f))
      cols.push(col)
      texts.push(words.join(' '))
      if (best.has(f)) bestSize += words.length
    })
    this.o.facets.set(id, entityType, fields, bestSize)
    this.fts.insert(id, cols, texts)
    const now = this.rowsOf(fields)
    if (!old || this.unstage(id)) {
      for (const r of now.exact) this.exact.add(id, ...r)
      for (const [fid, k] of now.keys) this.keys.add(fid, k, id)
      return
    }
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
      | { id: number; entity_type: string; parts: string }
      | undefined
    if (!row) return { id: undefined, urn, entityType, parts: {}, oldParts: '', oldType: entityType }
    return {
      id: row.id,
      urn,
      entityType: row.entity_type,
      parts: this.o.codec.decode(row.parts),
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
    const parts = this.o.codec.encode(ordered)
    if (p.id !== undefined && parts === p.oldParts) return false
    const merged = mergeContributions(ordered)
    const removed = merged.removed?.includes(true) ? 1 : 0
    if (p.id === undefined) {
      p.id = Number(this.s.insertDoc.run(p.urn, urnHash(p.urn), p.entityType, removed, parts).lastInsertRowid)
      this.index(p.id, p.entityType, merged)
    } else {
      this.s.updateDoc.run(removed, parts, p.id)
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
    return documentRows(fields, this.o.isExact, (field) => this.fieldId(field), this.analysis)
  }
}
