import { deserialize, serialize } from 'node:v8'
import {
  type DocumentFields,
  type FieldValue,
  mergeContributions,
  orderContributions,
  type SearchSchema,
} from '@catalog/search'
import { type DocumentRowSink, eachDocumentRow } from './exact-rows.js'
import { PartsCodec } from './parts-codec.js'
import { ValueAnalysis } from './value-analysis.js'

/**
 * A page of whole documents with every row the index writes for them, made by a
 * {@link BulkPageBuilder} on one thread and written by `SqliteSearchIndex.applyBulk` on another
 * (plain arrays of strings and numbers: cheap to copy between threads). Rows refer to their
 * document by its position in the page and to their field by its position in {@link fields}.
 */
export interface BulkPage {
  /** The analysed fields, in FTS column order, the page was built with. */
  readonly ftsFields: readonly string[]
  /** The dictionary of the name codes its parts are written with (see `PartsCodec`). */
  readonly names: readonly string[]
  /** Field names, by the numbers the rows use. */
  readonly fields: readonly string[]
  readonly urns: readonly string[]
  readonly types: readonly string[]
  /** 1 for a soft-deleted document. */
  readonly removed: readonly number[]
  /** Each document's contributions by aspect, as the `docs` table stores them (codes for names); '' for none (removed). */
  readonly parts: readonly string[]
  /** FTS texts, 3 entries each: document, column (a position in `ftsFields`), text; by document, then column. */
  readonly fts: readonly unknown[]
  /** Rows of `exact`, 5 entries each: document, field, value, variant, number. */
  readonly exact: readonly unknown[]
  /** Rows of `urn_keys`, 3 entries each: document, field, key. */
  readonly keys: readonly unknown[]
  /** Each visible document's browse paths (null for none or soft-deleted). */
  readonly browsePaths: ReadonlyArray<readonly FieldValue[] | null>
}

/**
 * Pages of one write, each packed by {@link packBulkPage}: a builder's small pages leave its
 * thread's heap at once as bytes (held as objects until a large write, they outlive young
 * collections and are copied and promoted: pages of 250 documents packed took about a third of
 * the collection time of pages of 5,000 held).
 */
export type PackedBulkPages = readonly Uint8Array[]

/** A page as bytes (V8's serialization, as `postMessage` copies it), outside the JavaScript heap. */
export function packBulkPage(page: BulkPage): Uint8Array {
  return serialize(page)
}

/** Each page of a write, in order: a page given whole, or packed pages unpacked one at a time. */
export function* bulkPagesOf(pages: BulkPage | PackedBulkPages): Generator<BulkPage> {
  if (!Array.isArray(pages)) {
    yield pages as BulkPage
    return
  }
  for (const bytes of pages as PackedBulkPages) yield deserialize(bytes) as BulkPage
}

/**
 * Builds {@link BulkPage}s from documents given whole (every aspect's contribution): what the
 * index's document writer does for a new document, short of writing it. `catalog import` runs it
 * on its own thread while the index's thread writes the previous page.
 */
export class BulkPageBuilder {
  private readonly ftsFields: readonly string[]
  private readonly analysis: ValueAnalysis
  private readonly isExact: (field: string) => boolean
  private readonly codec: PartsCodec
  private page: Mutable<BulkPage>
  private fieldNumbers = new Map<string, number>()
  /** The document whose rows {@link sink} takes. */
  private doc = 0
  private readonly fieldNumberOf = (name: string) => this.fieldNumber(name)
  /** Puts a document's rows straight into the page's arrays. */
  private readonly sink: DocumentRowSink = {
    exact: (field, value, variant, num) => this.page.exact.push(this.doc, field, value, variant, num),
    key: (field, key) => this.page.keys.push(this.doc, field, key),
  }

  constructor(private readonly schema: SearchSchema) {
    this.ftsFields = schema.wordFields().map((f) => f.name)
    this.analysis = new ValueAnalysis(
      new Set(
        schema.registry
          .allEntities()
          .map((e) => e.name)
          .sort(),
      ),
    )
    this.isExact = (field) => schema.isExact(field)
    this.codec = PartsCodec.of(schema)
    this.page = emptyPage(this.ftsFields, this.codec.names)
  }

  /** Documents added since the last {@link take}. */
  get size(): number {
    return this.page.urns.length
  }

  /**
   * Adds a document: its contributions by aspect (none: the document is to be removed, when the
   * index has it).
   */
  add(urn: string, entityType: string, contributions: Readonly<Record<string, DocumentFields>>): void {
    const p = this.page
    const doc = p.urns.length
    p.urns.push(urn)
    p.types.push(entityType)
    if (isEmpty(contributions)) {
      p.removed.push(0)
      p.parts.push('')
      p.browsePaths.push(null)
      return
    }
    const ordered = orderContributions(
      contributions as Record<string, DocumentFields>,
      this.schema.registry.findEntity(entityType)?.keyAspect,
    )
    p.parts.push(this.codec.encode(ordered))
    const fields = mergeContributions(ordered)
    const removed = fields.removed?.includes(true) === true
    p.removed.push(removed ? 1 : 0)
    p.browsePaths.push(!removed && fields.browsePaths?.length ? fields.browsePaths : null)
    for (let col = 0; col < this.ftsFields.length; col++) {
      const values = fields[this.ftsFields[col] as string]
      if (!values || values.length === 0) continue
      // The values' words in order, one space apart (each value's words are memoized as text).
      let text = ''
      for (const v of values) {
        const words = this.analysis.text(String(v))
        if (words !== '') text = text === '' ? words : `${text} ${words}`
      }
      p.fts.push(doc, col, text)
    }
    this.doc = doc
    eachDocumentRow(fields, this.isExact, this.fieldNumberOf, this.analysis, this.sink)
  }

  /** The page built so far; the next document starts a new one. */
  take(): BulkPage {
    const page = this.page
    this.page = emptyPage(this.ftsFields, this.codec.names)
    this.fieldNumbers = new Map()
    return page
  }

  private fieldNumber(name: string): number {
    let n = this.fieldNumbers.get(name)
    if (n === undefined) {
      n = this.page.fields.length
      this.page.fields.push(name)
      this.fieldNumbers.set(name, n)
    }
    return n
  }
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false
  return true
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer E> ? E[] : T[K] }

function emptyPage(ftsFields: readonly string[], names: readonly string[]): Mutable<BulkPage> {
  return {
    ftsFields: [...ftsFields],
    names: [...names],
    fields: [],
    urns: [],
    types: [],
    removed: [],
    parts: [],
    fts: [],
    exact: [],
    keys: [],
    browsePaths: [],
  }
}
