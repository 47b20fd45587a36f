import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  customProperties,
  enumValue,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  list,
  type Mapped,
  obj,
  ownership,
  ref,
  resolvedStamp,
  str,
} from './common.js'
import type { EntityMapping, FieldFn } from './types.js'

export const DOCUMENT_INFO = 'documentInfo'
export const DOCUMENT_SETTINGS = 'documentSettings'
/** How far `parentDocuments` walks up (DataHub's query context bound). */
const MAX_PARENT_DEPTH = 50

/** The parent document a `documentInfo` names, if any. */
export function parentOf(info: AspectValue | undefined): string | undefined {
  return str(obj(info?.parentDocument)?.document) ?? undefined
}

/** `DocumentInfo` as DataHub's DocumentMapper; null without the aspect. */
function documentInfo(info: AspectValue | undefined, urn: string): Mapped | null {
  if (!info) return null
  const source = obj(info.source)
  const parent = ref(parentOf(info), ['document'])
  const properties = customProperties(info.customProperties, urn)
  return {
    title: str(info.title),
    source: source
      ? {
          sourceType: enumValue(source.sourceType, ['NATIVE', 'EXTERNAL']) ?? 'NATIVE',
          externalUrl: str(source.externalUrl),
          externalId: str(source.externalId),
        }
      : null,
    status: { state: enumValue(obj(info.status)?.state, ['PUBLISHED', 'UNPUBLISHED']) ?? 'UNPUBLISHED' },
    contents: { text: str(obj(info.contents)?.text) ?? '' },
    created: resolvedStamp(info.created),
    lastModified: resolvedStamp(info.lastModified),
    relatedAssets: list(info.relatedAssets).flatMap((a) => {
      const asset = ref(obj(a)?.asset)
      return asset ? [{ asset }] : []
    }),
    relatedDocuments: list(info.relatedDocuments).flatMap((d) => {
      const document = ref(obj(d)?.document, ['document'])
      return document ? [{ document }] : []
    }),
    parentDocument: parent ? { document: parent } : null,
    customProperties: properties.length > 0 ? properties : null,
  }
}

/** `parentDocuments`: the chain of parents, nearest first, stopped at a cycle or at {@link MAX_PARENT_DEPTH}. */
function parentDocuments(urn: string, first: string | undefined): FieldFn {
  return async (_args, ctx) => {
    const documents: Mapped[] = []
    const seen = new Set([urn])
    for (let next = first; next && !seen.has(next) && documents.length < MAX_PARENT_DEPTH; ) {
      seen.add(next)
      const parent = await ctx.graph.loader.load(next)
      if (!parent.aspects[DOCUMENT_INFO]) break
      documents.push({ urn: next })
      next = parentOf(parent.aspects[DOCUMENT_INFO])
    }
    return { count: documents.length, documents }
  }
}

/**
 * `Document` (DataHub's context documents) as DataHub's DocumentMapper: its info, settings, sub
 * type, platform (DataHub's own without an instance), owners, tags, terms, links, whether it is
 * live, and its chain of parents.
 */
function mapDocument(e: LoadedEntity): Mapped {
  const a = e.aspects
  const info = a[DOCUMENT_INFO]
  const settings = a[DOCUMENT_SETTINGS]
  const tags = globalTags(a.globalTags, e.urn)
  return {
    urn: e.urn,
    info: documentInfo(info, e.urn),
    settings: settings ? { showInGlobalContext: settings.showInGlobalContext !== false } : null,
    subType: str(list(a.subTypes?.typeNames)[0]),
    platform: { urn: str(a.dataPlatformInstance?.platform) ?? 'urn:li:dataPlatform:datahub' },
    ownership: ownership(a.ownership, e.urn),
    tags,
    globalTags: tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    exists: a.status ? a.status.removed !== true : info !== undefined,
    parentDocuments: parentDocuments(e.urn, parentOf(info)),
    changeHistory: changeHistory(e.urn),
  }
}

/** Most versions of a document's info `changeHistory` reads. */
const MAX_VERSIONS = 500
const DAY_MS = 86_400_000

/** What changed from one version of a document's info to the next, as DataHub's change types. */
function changesBetween(before: AspectValue, after: AspectValue): [string, string][] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
  const out: [string, string][] = []
  if (!same(before.title, after.title)) out.push(['TITLE_CHANGED', 'Title changed'])
  if (!same(obj(before.contents)?.text, obj(after.contents)?.text)) out.push(['TEXT_CHANGED', 'Text changed'])
  if (!same(obj(before.status)?.state, obj(after.status)?.state)) out.push(['STATE_CHANGED', 'State changed'])
  if (!same(parentOf(before), parentOf(after))) out.push(['PARENT_CHANGED', 'Parent document changed'])
  if (!same(before.relatedAssets, after.relatedAssets))
    out.push(['RELATED_ASSETS_CHANGED', 'Related assets changed'])
  if (!same(before.relatedDocuments, after.relatedDocuments))
    out.push(['RELATED_DOCUMENTS_CHANGED', 'Related documents changed'])
  return out
}

/**
 * `changeHistory(startTimeMillis, endTimeMillis, limit)`: the changes of the document's info,
 * from its stored versions (DataHub reads its timeline), in the window (the last 30 days by
 * default), newest first, at most `limit` (50).
 */
function changeHistory(urn: string): FieldFn {
  return async (args, ctx) => {
    const end = typeof args.endTimeMillis === 'number' ? args.endTimeMillis : Date.now()
    const start = typeof args.startTimeMillis === 'number' ? args.startTimeMillis : end - 30 * DAY_MS
    const limit = typeof args.limit === 'number' ? Math.max(0, args.limit) : 50
    // Version 1 is the first value written, 2 the next, ...; 0 the latest.
    const versions: AspectValue[] = []
    for (let v = 1; v <= MAX_VERSIONS; v++) {
      const value = await ctx.client.getAspectVersion(urn, DOCUMENT_INFO, v)
      if (!value) break
      versions.push(value)
    }
    const latest = await ctx.client.getAspectVersion(urn, DOCUMENT_INFO, 0)
    if (latest) versions.push(latest)
    // Newest version first; one version's changes in the order DataHub lists them.
    const changes = versions.flatMap((value, i) => {
      const stamp = obj(i === 0 ? value.created : value.lastModified) ?? {}
      const timestamp = typeof stamp.time === 'number' ? stamp.time : 0
      if (timestamp < start || timestamp > end) return []
      const actor = ref(stamp.actor, ['corpuser']) ?? null
      const previous = versions[i - 1]
      const kinds = previous ? changesBetween(previous, value) : [['CREATED', 'Document created']]
      return [
        kinds.map(([changeType, description]) => ({
          changeType,
          description,
          actor,
          timestamp,
          details: null,
        })),
      ]
    })
    return changes.reverse().flat().slice(0, limit)
  }
}

export const DOCUMENT_MAPPING: EntityMapping = {
  typeName: 'Document',
  entityType: 'DOCUMENT',
  aspects: [
    DOCUMENT_INFO,
    DOCUMENT_SETTINGS,
    'subTypes',
    'ownership',
    'status',
    'globalTags',
    'glossaryTerms',
    'institutionalMemory',
  ],
  map: mapDocument,
}
