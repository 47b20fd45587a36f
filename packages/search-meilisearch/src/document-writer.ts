import {
  type ApplyResult,
  type Contributions,
  type DocumentFields,
  type IndexChange,
  orderContributions,
} from '@catalog/search'
import { ATTR, type FieldCatalog } from './attributes.js'
import type { MeiliBackend } from './backend.js'
import { type MeiliDocument, type StoredDocument, toMeiliDocument } from './document-mapper.js'
import { inList, render } from './filter-expr.js'
import { pkOf, STATE_PK } from './tokens.js'

/** The state document: the durable cursor and the layout the documents were built with. */
export interface IndexState {
  readonly cursor: number
  readonly layout: string
}

/** Bytes of documents sent in one request (Meilisearch accepts 100 MB by default). */
const MAX_BATCH_BYTES = 20 * 1024 * 1024
const LOAD_CHUNK = 500

interface Pending {
  readonly urn: string
  entityType: string
  parts: Record<string, DocumentFields>
  readonly stored: string | undefined
}

/**
 * Writes index changes. Meilisearch has no multi-document transaction across tasks, so the
 * cursor lives in a state document of the same index and is written in the LAST task of an
 * `apply`, after every other task of it succeeded (each task is awaited and checked):
 *
 * 1. the touched documents are read once (their contributions, `_parts`), the changes applied
 *    in memory, and only documents whose contributions changed are rewritten;
 * 2. deleted documents are removed (one task), then the rewritten documents are added in
 *    tasks of at most 20 MB, the state document (cursor, layout) in the last one.
 *
 * A failure anywhere leaves the cursor where it was, possibly behind documents already
 * written: the sync applies the same changes again from that cursor, and since every change
 * sets a contribution to a value (or removes it), the replay ends in the same documents.
 */
export class DocumentWriter {
  constructor(
    private readonly backend: MeiliBackend,
    private readonly catalog: FieldCatalog,
  ) {}

  /** Applies `changes` and moves the cursor to at least `cursor`. */
  async apply(changes: readonly IndexChange[], cursor: number, state: IndexState): Promise<ApplyResult> {
    const pending = await this.load([...new Set(changes.map((c) => c.urn))])
    for (const c of changes) {
      const p = pending.get(c.urn) as Pending
      if (c.kind === 'upsert') {
        p.entityType = c.entityType
        p.parts[c.aspect] = c.fields
      } else if (c.kind === 'removeAspect') delete p.parts[c.aspect]
      else p.parts = {}
    }
    const deletes: string[] = []
    const upserts: MeiliDocument[] = []
    for (const p of pending.values()) {
      if (Object.keys(p.parts).length === 0) {
        if (p.stored !== undefined) deletes.push(pkOf(p.urn))
        continue
      }
      const ordered = orderContributions(p.parts, this.catalog.keyAspectOf(p.entityType))
      if (p.stored === JSON.stringify(ordered)) continue
      upserts.push(toMeiliDocument(p.urn, p.entityType, ordered, this.catalog))
    }
    const next = Math.max(state.cursor, cursor)
    if (deletes.length > 0)
      await this.backend.write('delete documents', () => this.backend.index.deleteDocuments(deletes))
    if (upserts.length > 0 || next !== state.cursor)
      await this.put(upserts, { cursor: next, layout: state.layout })
    return { documentsChanged: deletes.length + upserts.length, cursor: next }
  }

  /**
   * Adds (replaces) documents in tasks of bounded size, each awaited, the state document in
   * the last one.
   */
  async put(docs: readonly object[], state: IndexState): Promise<void> {
    const all = [...docs, stateDocument(state)]
    let batch: object[] = []
    let bytes = 0
    for (const [i, doc] of all.entries()) {
      const size = JSON.stringify(doc).length
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) {
        await this.send(batch)
        batch = []
        bytes = 0
      }
      batch.push(doc)
      bytes += size
      if (i === all.length - 1) await this.send(batch)
    }
  }

  /** Rewrites stored documents from their contributions (after a layout change). */
  async rebuild(pks: readonly string[]): Promise<void> {
    for (let i = 0; i < pks.length; i += LOAD_CHUNK) {
      const stored = await this.read(pks.slice(i, i + LOAD_CHUNK))
      const docs = stored.map((s) =>
        toMeiliDocument(s.urn, s._entityType, JSON.parse(s._parts) as Contributions, this.catalog),
      )
      if (docs.length > 0)
        await this.backend.write('rebuild documents', () =>
          this.backend.index.addDocuments(docs, { primaryKey: ATTR.pk }),
        )
    }
  }

  private async send(batch: object[]): Promise<void> {
    await this.backend.write('write documents', () =>
      this.backend.index.addDocuments(batch as Record<string, unknown>[], { primaryKey: ATTR.pk }),
    )
  }

  private async load(urns: readonly string[]): Promise<Map<string, Pending>> {
    const out = new Map<string, Pending>()
    for (let i = 0; i < urns.length; i += LOAD_CHUNK) {
      const chunk = urns.slice(i, i + LOAD_CHUNK)
      const stored = new Map((await this.read(chunk.map(pkOf))).map((s) => [s.urn, s]))
      for (const urn of chunk) {
        const s = stored.get(urn)
        out.set(urn, {
          urn,
          entityType: s?._entityType ?? '',
          parts: s ? (JSON.parse(s._parts) as Record<string, DocumentFields>) : {},
          stored: s?._parts,
        })
      }
    }
    return out
  }

  private async read(pks: readonly string[]): Promise<StoredDocument[]> {
    if (pks.length === 0) return []
    const filter = render(inList(ATTR.pk, pks)) as string
    const page = await this.backend.documents<StoredDocument & Record<string, unknown>>(
      { filter, fields: [ATTR.pk, ATTR.urn, ATTR.entityType, ATTR.parts] as never, limit: pks.length },
      'read documents to update',
    )
    return page.results
  }
}

/** The state document of a state. */
export function stateDocument(state: IndexState): Record<string, unknown> {
  return { [ATTR.pk]: STATE_PK, [ATTR.cursor]: state.cursor, [ATTR.layout]: state.layout }
}
