import type { DocumentFields, IndexChange } from '@catalog/search'
import type Database from 'better-sqlite3'
import { addBrowseCounts, type BrowseDeltas } from './browse-counts.js'
import type { BulkPage } from './bulk-page.js'
import { browseParent } from './ddl.js'
import type { DocumentWriter } from './document-writer.js'
import { FtsInserter } from './fts-inserter.js'
import { RowBuffer } from './row-buffer.js'

/**
 * Writes {@link BulkPage}s: a document the index does not have is inserted with its rows as the
 * page has them, with no look-up and nothing to delete; one it has (a rebuild that resumes, an
 * entity that existed before an import) is replaced through the document writer, as a removal
 * and its contributions. Runs inside the caller's transaction.
 */
export class BulkWriter {
  private readonly insertDoc: Database.Statement
  private readonly fts: FtsInserter
  private readonly browseDelta: Database.Statement
  private readonly exact: RowBuffer
  private readonly keys: RowBuffer

  constructor(
    db: Database.Database,
    private readonly ftsFields: readonly string[],
    private readonly writer: DocumentWriter,
  ) {
    this.insertDoc = db.prepare(
      'INSERT INTO docs (urn, entity_type, removed, parts) VALUES (?, ?, ?, ?) ON CONFLICT (urn) DO NOTHING RETURNING id',
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

  /** Writes a page; returns how many documents were written or removed. */
  write(page: BulkPage): number {
    const width = this.ftsFields.length
    if (page.ftsFields.length !== width || page.ftsFields.some((f, i) => f !== this.ftsFields[i]))
      throw new Error('the page was built for other analysed fields than the index has')
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
        const row =
          parts === ''
            ? undefined
            : (this.insertDoc.get(urn, type, page.removed[doc], parts) as { id: number } | undefined)
        ids.push(row?.id)
        if (!row) {
          replaced.push({ kind: 'removeEntity', urn })
          if (parts === '') continue
          for (const [aspect, fields] of Object.entries(JSON.parse(parts) as Record<string, DocumentFields>))
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
        this.fts.insert(row.id, cols, texts)
        const paths = page.browsePaths[doc]
        if (paths) addBrowseCounts(browse, type, paths, 1)
      }
      for (let i = 0; i < page.exact.length; i += 5) {
        const id = ids[page.exact[i] as number]
        if (id !== undefined)
          this.exact.add(
            id,
            fieldIds[page.exact[i + 1] as number],
            page.exact[i + 2],
            page.exact[i + 3],
            page.exact[i + 4],
          )
      }
      for (let i = 0; i < page.keys.length; i += 3) {
        const id = ids[page.keys[i] as number]
        if (id !== undefined) this.keys.add(fieldIds[page.keys[i + 1] as number], page.keys[i + 2], id)
      }
      this.exact.flush()
      this.keys.flush()
      for (const [key, [docs, below]] of browse) {
        const [entityType, node] = key.split('\u0000') as [string, string]
        this.browseDelta.run(entityType, browseParent(node), node, docs, below)
      }
    } catch (err) {
      // The caller's transaction rolls back: what is buffered for it must not reach the next one.
      this.exact.clear()
      this.keys.clear()
      throw err
    }
    return changed + (replaced.length > 0 ? this.writer.apply(replaced) : 0)
  }
}
