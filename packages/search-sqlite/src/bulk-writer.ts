import type { IndexChange } from '@catalog/search'
import type Database from 'better-sqlite3'
import { addBrowseCounts, type BrowseDeltas } from './browse-counts.js'
import type { BulkPage } from './bulk-page.js'
import { browseParent } from './ddl.js'
import type { DocumentWriter } from './document-writer.js'
import { FtsInserter } from './fts-inserter.js'
import type { PartsCodec } from './parts-codec.js'
import { RowBuffer } from './row-buffer.js'
import { urnHash } from './urn-hash.js'

/**
 * Writes {@link BulkPage}s: a document the index does not have is inserted with its rows as the
 * page has them, with no look-up and nothing to delete; one it has (a rebuild that resumes, an
 * entity that existed before an import) is replaced through the document writer, as a removal
 * and its contributions. Runs inside the caller's transaction.
 */
export class BulkWriter {
  private readonly findDoc: Database.Statement
  private readonly insertDoc: Database.Statement
  private readonly fts: FtsInserter
  private readonly browseDelta: Database.Statement
  private readonly exact: RowBuffer
  private readonly keys: RowBuffer
  /** The staging tables' buffers while a bulk build stages rows (see `STAGED_DDL`). */
  private staged: { exact: RowBuffer; keys: RowBuffer } | undefined
  private readonly db: Database.Database

  constructor(
    db: Database.Database,
    private readonly ftsFields: readonly string[],
    private readonly writer: DocumentWriter,
    private readonly codec: PartsCodec,
  ) {
    this.db = db
    this.findDoc = db.prepare('SELECT 1 FROM docs WHERE urn_hash = ? AND urn = ?').pluck()
    this.insertDoc = db.prepare(
      'INSERT INTO docs (urn, urn_hash, entity_type, removed, parts) VALUES (?, ?, ?, ?, ?)',
    )
    this.fts = new FtsInserter(db, ftsFields)
    this.browseDelta = db.prepare(
      `INSERT INTO browse_nodes (entity_type, parent, path, docs, below) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (entity_type, parent, path) DO UPDATE SET docs = docs + excluded.docs, below = below + excluded.below`,
    )
    this.exact = new RowBuffer(
      db,
      'INSERT OR IGNORE INTO exact (doc_id, field, value, variant, num) VALUES (?, ?, ?, ?, ?)',
      5,
    )
    this.keys = new RowBuffer(db, 'INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (?, ?, ?)', 3)
  }

  /** While on, the rows of the documents a page adds go to the staging tables. */
  setStaging(on: boolean): void {
    this.staged = on
      ? {
          exact: new RowBuffer(
            this.db,
            'INSERT OR IGNORE INTO exact_staged (doc_id, field, value, variant, num) VALUES (?, ?, ?, ?, ?)',
            5,
          ),
          keys: new RowBuffer(
            this.db,
            'INSERT OR IGNORE INTO urn_keys_staged (doc_id, field, key) VALUES (?, ?, ?)',
            3,
          ),
        }
      : undefined
  }

  /** Writes a page; returns how many documents were written or removed. */
  write(page: BulkPage): number {
    const width = this.ftsFields.length
    if (page.ftsFields.length !== width || page.ftsFields.some((f, i) => f !== this.ftsFields[i]))
      throw new Error('the page was built for other analysed fields than the index has')
    if (page.names.length !== this.codec.names.length || page.names.some((n, i) => n !== this.codec.names[i]))
      throw new Error('the page was built with other name codes than the index has')
    const fieldIds = page.fields.map((name) => this.writer.fieldId(name))
    /** Row ids of the page's documents, undefined for those written by the document writer. */
    const ids: Array<number | undefined> = []
    const replaced: IndexChange[] = []
    const browse: BrowseDeltas = new Map()
    let changed = 0
    let f = 0
    try {
      for (let doc = 0; doc < page.urns.length; doc++) {
        const urn = page.urns[doc] as string
        const type = page.types[doc] as string
        const parts = page.parts[doc] as string
        const hash = urnHash(urn)
        const id =
          parts === '' || this.findDoc.get(hash, urn) !== undefined
            ? undefined
            : Number(this.insertDoc.run(urn, hash, type, page.removed[doc], parts).lastInsertRowid)
        ids.push(id)
        if (id === undefined) {
          replaced.push({ kind: 'removeEntity', urn })
          if (parts === '') continue
          for (const [aspect, fields] of Object.entries(this.codec.decode(parts)))
            replaced.push({ kind: 'upsert', urn, entityType: type, aspect, fields })
          continue
        }
        changed++
        const cols: number[] = []
        const texts: string[] = []
        // Past the texts of documents written by the document writer.
        while (f < page.fts.length && (page.fts[f] as number) < doc) f += 3
        for (; f < page.fts.length && page.fts[f] === doc; f += 3) {
          cols.push(page.fts[f + 1] as number)
          texts.push(page.fts[f + 2] as string)
        }
        this.fts.insert(id, cols, texts)
        const paths = page.browsePaths[doc]
        if (paths) addBrowseCounts(browse, type, paths, 1)
      }
      const exact = this.staged?.exact ?? this.exact
      const keys = this.staged?.keys
      for (let i = 0; i < page.exact.length; i += 5) {
        const id = ids[page.exact[i] as number]
        if (id !== undefined)
          exact.add(
            id,
            fieldIds[page.exact[i + 1] as number],
            page.exact[i + 2],
            page.exact[i + 3],
            page.exact[i + 4],
          )
      }
      for (let i = 0; i < page.keys.length; i += 3) {
        const id = ids[page.keys[i] as number]
        if (id === undefined) continue
        const field = fieldIds[page.keys[i + 1] as number]
        if (keys) keys.add(id, field, page.keys[i + 2])
        else this.keys.add(field, page.keys[i + 2], id)
      }
      exact.flush()
      keys?.flush()
      this.keys.flush()
      for (const [key, [docs, below]] of browse) {
        const [entityType, node] = key.split('\u0000') as [string, string]
        this.browseDelta.run(entityType, browseParent(node), node, docs, below)
      }
    } catch (err) {
      // The caller's transaction rolls back: what is buffered for it must not reach the next one.
      this.exact.clear()
      this.keys.clear()
      this.staged?.exact.clear()
      this.staged?.keys.clear()
      throw err
    }
    return changed + (replaced.length > 0 ? this.writer.apply(replaced) : 0)
  }
}
