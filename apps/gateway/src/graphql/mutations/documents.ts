import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { GraphQLResolveInfo } from 'graphql'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { DOCUMENT_INFO, DOCUMENT_SETTINGS, parentOf } from '../mappers/document.js'
import { type Criterion, documentVisibility } from '../resolvers/document-visibility.js'
import { searchOf } from '../resolvers/search.js'
import { toFacets } from '../resolvers/search-input.js'
import { applyView, combineFilters } from '../resolvers/view-apply.js'
import { compareAndSetEach, oneAtATime } from './compare-and-set.js'
import { type OwnerInput, validateOwner } from './owners.js'
import { creatorOwnership, resolveInput, stampOf, typedRef, upsert, write } from './support.js'

const PREFIX = 'urn:li:document:'
const DEFAULT_COUNT = 20
const RELATED_COUNT = 100
/** Most descendants and depth a delete takes down with a document (DataHub's limits). */
const MAX_DESCENDANTS = 10_000
const MAX_DEPTH = 100
/** Most characters of an imported file's text (DataHub truncates there). */
const MAX_IMPORTED_TEXT = 1_000_000
const PAGE = 1_000

/** The stored info of a document that must exist (a 400 naming it otherwise). */
async function infoOf(ctx: CatalogContext, urn: string): Promise<{ ref: EntityRef; info: AspectValue }> {
  const ref = typedRef(ctx, urn, 'document')
  const info = (await ctx.client.getEntities([ref.urn], [DOCUMENT_INFO])).get(ref.urn)?.aspects[DOCUMENT_INFO]
  if (!info) throw new InvalidInputError(`Document with URN ${ref.urn} does not exist`)
  return { ref, info }
}

/** Whether a document exists and is not soft-deleted. */
async function live(ctx: CatalogContext, urn: string): Promise<boolean> {
  const found = (await ctx.client.getEntities([urn], [DOCUMENT_INFO, 'status'])).get(urn)?.aspects
  return found?.[DOCUMENT_INFO] !== undefined && found.status?.removed !== true
}

/** A parent document from input: it must be another, live document. */
async function parentRef(
  ctx: CatalogContext,
  urn: string,
  self: string,
  selfMessage: string,
): Promise<string> {
  const parent = typedRef(ctx, urn, 'document').urn
  if (parent === self) throw new InvalidInputError(selfMessage)
  if (!(await live(ctx, parent)))
    throw new InvalidInputError(`Parent Document with URN ${parent} does not exist`)
  return parent
}

/** What document moves and imports under a parent take turns on. */
const TREE = 'documents\ntree'

/** Refuses `parent` as the parent of `document` when it is the document or below it. */
async function refuseCycle(ctx: CatalogContext, document: string, parent: string): Promise<void> {
  const seen = new Set<string>()
  for (let at: string | undefined = parent; at && !seen.has(at); ) {
    if (at === document)
      throw new InvalidInputError('Cannot move document: would create a circular parent reference')
    seen.add(at)
    at = parentOf((await ctx.client.getEntities([at], [DOCUMENT_INFO])).get(at)?.aspects[DOCUMENT_INFO])
  }
}

/** URNs from input (each must parse), as the `field` records of a document's info. */
function urnRecords(ctx: CatalogContext, urns: readonly string[], field: 'asset' | 'document') {
  return urns.map((u) => ({
    [field]: field === 'document' ? typedRef(ctx, u, 'document').urn : resolveInput(ctx, u).urn,
  }))
}

/** Rewrites a document's info (guarded against concurrent edits) with `change` applied and a fresh `lastModified`. */
async function editInfo(
  ctx: CatalogContext,
  ref: EntityRef,
  change: (info: AspectValue) => void,
  alongside: readonly MetadataProposal[] = [],
): Promise<void> {
  // One write with what goes alongside (the sub type, the settings): all of it, or none.
  await compareAndSetEach(
    ctx,
    [ref],
    DOCUMENT_INFO,
    (current) => {
      if (!current) throw new InvalidInputError(`Document with URN ${ref.urn} does not exist`)
      change(current)
      current.lastModified = stampOf(ctx)
      return current
    },
    alongside,
  )
}

interface CreateDocumentInput {
  readonly id?: string | null
  readonly subType?: string | null
  readonly title?: string | null
  readonly state?: 'PUBLISHED' | 'UNPUBLISHED' | null
  readonly contents: { readonly text: string }
  readonly owners?: readonly OwnerInput[] | null
  readonly parentDocument?: string | null
  readonly relatedAssets?: readonly string[] | null
  readonly relatedDocuments?: readonly string[] | null
  readonly settings?: { readonly showInGlobalContext?: boolean | null } | null
}

/**
 * DataHub's CreateDocumentResolver (MANAGE_DOCUMENTS): `urn:li:document:<id>` (a UUID without
 * one), refused when taken; its info (native, UNPUBLISHED unless told), its sub type, settings
 * (shown in the global context unless told) and owners (the creator as technical owner without
 * any), in one write. Answers the URN.
 */
async function createDocument(_: unknown, { input }: { input: CreateDocumentInput }, ctx: CatalogContext) {
  const id = input.id?.trim() ? input.id : randomUUID()
  const ref = typedRef(ctx, `${PREFIX}${id}`, 'document')
  if (await ctx.client.exists(ref.urn)) throw new InvalidInputError(`Document with ID ${id} already exists`)
  const parent =
    input.parentDocument != null
      ? await parentRef(ctx, input.parentDocument, ref.urn, 'Cannot create a Document with itself as parent')
      : undefined
  for (const owner of input.owners ?? []) await validateOwner(ctx, owner)
  const stamp = stampOf(ctx)
  const info: AspectValue = {
    ...(input.title != null ? { title: input.title } : {}),
    source: { sourceType: 'NATIVE' },
    contents: { text: input.contents.text },
    created: stamp,
    lastModified: stamp,
    status: { state: input.state ?? 'UNPUBLISHED' },
    ...(parent ? { parentDocument: { document: parent } } : {}),
    ...(input.relatedAssets?.length ? { relatedAssets: urnRecords(ctx, input.relatedAssets, 'asset') } : {}),
    ...(input.relatedDocuments?.length
      ? { relatedDocuments: urnRecords(ctx, input.relatedDocuments, 'document') }
      : {}),
  }
  const owners = input.owners?.length
    ? input.owners.map((o) => {
        const type = o.type ?? 'NONE'
        return { owner: o.ownerUrn, type, typeUrn: o.ownershipTypeUrn ?? systemOwnershipTypeUrn(type) }
      })
    : creatorOwnership(ctx).owners
  await write(ctx, [
    // CREATE: a document made meanwhile by another call is not overwritten.
    { ...upsert(ref, DOCUMENT_INFO, info), changeType: 'CREATE' },
    ...(input.subType != null ? [upsert(ref, 'subTypes', { typeNames: [input.subType] })] : []),
    upsert(ref, DOCUMENT_SETTINGS, {
      showInGlobalContext: input.settings?.showInGlobalContext ?? true,
      lastModified: stamp,
    }),
    upsert(ref, 'ownership', { owners, lastModified: stamp }),
  ])
  return ref.urn
}

/** DataHub's UpdateDocumentContentsResolver: a given text, title and sub type replace the stored ones. */
async function updateDocumentContents(
  _: unknown,
  {
    input,
  }: {
    input: { urn: string; title?: string | null; contents?: { text: string } | null; subType?: string | null }
  },
  ctx: CatalogContext,
) {
  const { ref } = await infoOf(ctx, input.urn)
  await editInfo(
    ctx,
    ref,
    (info) => {
      if (input.contents) info.contents = { text: input.contents.text }
      if (input.title != null) info.title = input.title
    },
    input.subType != null ? [upsert(ref, 'subTypes', { typeNames: [input.subType] })] : [],
  )
  return true
}

/**
 * DataHub's UpdateDocumentRelatedEntitiesResolver: each list given replaces the stored one (an
 * empty list removes it); a list not given is kept.
 */
async function updateDocumentRelatedEntities(
  _: unknown,
  {
    input,
  }: {
    input: {
      urn: string
      relatedAssets?: readonly string[] | null
      relatedDocuments?: readonly string[] | null
    }
  },
  ctx: CatalogContext,
) {
  const { ref } = await infoOf(ctx, input.urn)
  const assets = input.relatedAssets != null ? urnRecords(ctx, input.relatedAssets, 'asset') : undefined
  const documents =
    input.relatedDocuments != null ? urnRecords(ctx, input.relatedDocuments, 'document') : undefined
  await editInfo(ctx, ref, (info) => {
    for (const [field, value] of [
      ['relatedAssets', assets],
      ['relatedDocuments', documents],
    ] as const) {
      if (value === undefined) continue
      if (value.length === 0) delete info[field]
      else info[field] = value
    }
  })
  return true
}

/**
 * DataHub's MoveDocumentResolver: the document under another live document (never under itself
 * nor under one of its own descendants), or at the root without one.
 */
async function moveDocument(
  _: unknown,
  { input }: { input: { urn: string; parentDocument?: string | null } },
  ctx: CatalogContext,
) {
  // Moves run one at a time in this process: two crossing moves would each see no cycle.
  return oneAtATime(TREE, () => move(ctx, input))
}

async function move(ctx: CatalogContext, input: { urn: string; parentDocument?: string | null }) {
  const { ref } = await infoOf(ctx, input.urn)
  let parent: string | undefined
  if (input.parentDocument != null) {
    parent = await parentRef(ctx, input.parentDocument, ref.urn, 'Cannot move a Document to itself as parent')
    await refuseCycle(ctx, ref.urn, parent)
  }
  await editInfo(ctx, ref, (info) => {
    if (parent) info.parentDocument = { document: parent }
    else delete info.parentDocument
  })
  return true
}

/** The live documents whose parent is one of `parents`, found by search. */
async function childrenOf(ctx: CatalogContext, parents: readonly string[]): Promise<string[]> {
  const out: string[] = []
  for (let start = 0; ; start += PAGE) {
    const page = await searchOf(ctx).searchAcrossEntities({
      input: '*',
      entities: ['document'],
      start,
      count: PAGE,
      filter: {
        or: [
          { and: [{ field: 'parentDocument', values: [...parents], condition: 'EQUAL', negated: false }] },
        ],
      },
      searchFlags: { skipAggregates: true, skipHighlighting: true },
    })
    out.push(...page.metadata.urns)
    if (page.metadata.urns.length < PAGE || start + PAGE >= page.numEntities) return out
  }
}

/**
 * DataHub's DeleteDocumentResolver: a soft delete of the document and of its whole live subtree
 * (deepest first in one write; refused past 10,000 descendants or 100 levels, with nothing written).
 */
async function deleteDocument(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  const ref = typedRef(ctx, urn, 'document')
  if (!(await ctx.client.exists(ref.urn)))
    throw new InvalidInputError(`Document with URN ${ref.urn} does not exist`)
  const levels: string[][] = []
  const seen = new Set([ref.urn])
  for (let level = [ref.urn]; level.length > 0; ) {
    if (levels.length >= MAX_DEPTH) {
      throw new InvalidInputError(
        `Refusing to delete document ${ref.urn}: live subtree exceeds depth ${MAX_DEPTH}`,
      )
    }
    const children = (await childrenOf(ctx, level)).filter((c) => !seen.has(c))
    for (const c of children) seen.add(c)
    if (seen.size - 1 > MAX_DESCENDANTS) {
      throw new InvalidInputError(
        `Refusing to delete document ${ref.urn}: live subtree exceeds ${MAX_DESCENDANTS} descendants`,
      )
    }
    if (children.length > 0) levels.push(children)
    level = children
  }
  const order = [...levels.reverse().flat(), ref.urn]
  // Guarded: a stage set meanwhile on one of them is kept.
  await compareAndSetEach(
    ctx,
    order.map((u) => resolveInput(ctx, u)),
    'status',
    (current) => ({ ...(current ?? {}), removed: true }),
  )
  return true
}

/** DataHub's UpdateDocumentStatusResolver: PUBLISHED or UNPUBLISHED. */
async function updateDocumentStatus(
  _: unknown,
  { input }: { input: { urn: string; state: string } },
  ctx: CatalogContext,
) {
  const { ref } = await infoOf(ctx, input.urn)
  await editInfo(ctx, ref, (info) => {
    info.status = { state: input.state }
  })
  return true
}

/** DataHub's UpdateDocumentSubTypeResolver: the sub type, or none. */
async function updateDocumentSubType(
  _: unknown,
  { input }: { input: { urn: string; subType?: string | null } },
  ctx: CatalogContext,
) {
  const { ref } = await infoOf(ctx, input.urn)
  await editInfo(ctx, ref, () => {}, [
    upsert(ref, 'subTypes', { typeNames: input.subType != null ? [input.subType] : [] }),
  ])
  return true
}

/** DataHub's UpdateDocumentSettingsResolver: whether the document shows in the global context. */
async function updateDocumentSettings(
  _: unknown,
  { input }: { input: { urn: string; showInGlobalContext: boolean } },
  ctx: CatalogContext,
) {
  const { ref } = await infoOf(ctx, input.urn)
  await editInfo(ctx, ref, () => {}, [
    upsert(ref, DOCUMENT_SETTINGS, {
      showInGlobalContext: input.showInGlobalContext,
      lastModified: stampOf(ctx),
    }),
  ])
  return true
}

/** An imported file's document id (DataHub's DocumentImportService): `upload.<name>`, made URN-safe. */
function importId(fileName: string): { sourceId: string; id: string; title: string; extension: string } {
  const base = fileName.split(/[\\/]/).pop() ?? fileName
  const dot = base.lastIndexOf('.')
  const stem = dot > 0 ? base.slice(0, dot) : base
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : ''
  const sourceId = `upload.${stem}`
  const id = sourceId
    .replace(/[^a-zA-Z0-9_.-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 200)
  const title = stem
    .replace(/[-_]/g, ' ')
    .split(' ')
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join(' ')
  return { sourceId, id, title, extension }
}

/**
 * DataHub's ImportDocumentsFromFilesResolver (MANAGE_DOCUMENTS): each file a published document
 * whose id comes from its name (a file imported again updates its document), under the given
 * parent, a SKILL when asked. Files without content are skipped; one that fails is counted and
 * named, the others are written.
 */
async function importDocumentsFromFiles(_: unknown, { input }: { input: ImportInput }, ctx: CatalogContext) {
  // The parent must be a live document; a file whose document is the parent, or above it, fails.
  const parent =
    input.parentDocumentUrn != null
      ? await parentRef(ctx, input.parentDocumentUrn, '', 'Cannot import a Document under itself')
      : undefined
  return oneAtATime(TREE, () => importFiles(ctx, input, parent))
}

interface ImportInput {
  readonly documents: readonly { fileName: string; content: string }[]
  readonly showInGlobalContext?: boolean | null
  readonly useCase?: 'CONTEXT_DOCUMENT' | 'SKILL' | null
  readonly parentDocumentUrn?: string | null
}

async function importFiles(ctx: CatalogContext, input: ImportInput, parent: string | undefined) {
  const result = {
    createdCount: 0,
    updatedCount: 0,
    failedCount: 0,
    errors: [] as string[],
    documentUrns: [] as string[],
  }
  for (const file of input.documents) {
    if (file.content.trim() === '') continue
    const { sourceId, id, title, extension } = importId(file.fileName)
    try {
      if (id === '') throw new InvalidInputError('the file name leaves no document id')
      const ref = typedRef(ctx, `${PREFIX}${id}`, 'document')
      if (parent) await refuseCycle(ctx, ref.urn, parent)
      const existed = await ctx.client.exists(ref.urn)
      const stamp = stampOf(ctx)
      const text =
        file.content.length > MAX_IMPORTED_TEXT
          ? `${file.content.slice(0, MAX_IMPORTED_TEXT)}\n\n... (truncated)`
          : file.content
      await write(ctx, [
        upsert(ref, DOCUMENT_INFO, {
          title,
          source: { sourceType: 'NATIVE' },
          contents: { text },
          created: stamp,
          lastModified: stamp,
          status: { state: 'PUBLISHED' },
          ...(parent ? { parentDocument: { document: parent } } : {}),
          customProperties: {
            import_source_id: sourceId,
            import_source: 'file_upload',
            original_filename: file.fileName,
            file_extension: extension,
          },
        }),
        upsert(ref, DOCUMENT_SETTINGS, {
          showInGlobalContext: input.showInGlobalContext ?? true,
          lastModified: stamp,
        }),
        ...(input.useCase === 'SKILL' ? [upsert(ref, 'subTypes', { typeNames: ['SKILL'] })] : []),
      ])
      if (existed) result.updatedCount++
      else result.createdCount++
      result.documentUrns.push(ref.urn)
    } catch (err) {
      result.failedCount++
      result.errors.push(`${sourceId}: ${(err as Error).message}`)
    }
  }
  return result
}

interface DocumentFilterInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly parentDocuments?: readonly string[] | null
  readonly rootOnly?: boolean | null
  readonly types?: readonly string[] | null
  readonly domains?: readonly string[] | null
  readonly relatedAssets?: readonly string[] | null
  readonly sourceType?: string | null
  readonly viewUrn?: string | null
}

/**
 * DataHub's document search filter: the input's criteria, and what the caller may see (see
 * {@link documentVisibility}), in the global context unless `anyContext`.
 */
async function documentFilter(ctx: CatalogContext, input: DocumentFilterInput, anyContext: boolean) {
  const base: Criterion[] = []
  const eq = (field: string, values: readonly string[]): Criterion => ({
    field,
    values: [...values],
    condition: 'EQUAL',
    negated: false,
  })
  if (input.parentDocuments?.length) base.push(eq('parentDocument', input.parentDocuments))
  else if (input.rootOnly)
    base.push({ field: 'parentDocument', values: [], condition: 'IS_NULL', negated: false })
  if (input.types?.length) base.push(eq('typeNames', input.types))
  if (input.domains?.length) base.push(eq('domains', input.domains))
  if (input.relatedAssets?.length) base.push(eq('relatedAssets', input.relatedAssets))
  if (input.sourceType) base.push(eq('sourceType', [input.sourceType]))
  return combineFilters(
    base.length > 0 ? { or: [{ and: base }] } : undefined,
    await documentVisibility(ctx, !anyContext),
  )
}

/** A page of documents for `input`, sorted by `sortField`, newest first. */
async function documentPage(
  ctx: CatalogContext,
  input: DocumentFilterInput,
  options: { anyContext: boolean; count: number; sortField: string },
) {
  const viewed = await applyView(
    ctx,
    input.viewUrn,
    ['document'],
    await documentFilter(ctx, input, options.anyContext),
  )
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: input.query?.trim() || '*',
    entities: ['document'],
    start: Math.max(0, input.start ?? 0),
    count: Math.max(0, input.count ?? options.count),
    ...(viewed.filter ? { filter: viewed.filter } : {}),
    sortCriteria: [{ field: options.sortField, order: 'DESCENDING' }],
    searchFlags: { fulltext: true, skipHighlighting: true },
  })
  return {
    start: answer.from,
    count: answer.pageSize,
    total: answer.numEntities,
    documents: answer.metadata.urns.map((urn) => ({ urn })),
    facets: toFacets(answer),
  }
}

/** DataHub's SearchDocumentsResolver: documents in the global context, newest first (20 by default). */
function searchDocuments(_: unknown, { input }: { input: DocumentFilterInput }, ctx: CatalogContext) {
  return documentPage(ctx, input, { anyContext: false, count: DEFAULT_COUNT, sortField: 'createdAt' })
}

/**
 * DataHub's RelatedDocumentsResolver, an asset's `relatedDocuments`: the documents about it
 * (context-only ones too), last modified first (100 by default).
 */
export function relatedDocuments(
  source: { urn: string },
  { input }: { input?: DocumentFilterInput | null },
  ctx: CatalogContext,
  _info?: GraphQLResolveInfo,
) {
  return documentPage(
    ctx,
    { ...(input ?? {}), query: '*', relatedAssets: [source.urn], viewUrn: null },
    { anyContext: true, count: RELATED_COUNT, sortField: 'lastModifiedAt' },
  )
}

export const documentMutations = {
  createDocument,
  updateDocumentContents,
  updateDocumentRelatedEntities,
  moveDocument,
  deleteDocument,
  updateDocumentStatus,
  updateDocumentSubType,
  updateDocumentSettings,
  importDocumentsFromFiles,
}
export const documentQueries = { searchDocuments }
