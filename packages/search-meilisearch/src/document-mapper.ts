import {
  BROWSE_V2_DELIMITER,
  type Contributions,
  type DocumentFields,
  type FieldValue,
  fold,
  type IndexedDocument,
  indexWords,
  isUrn,
  mergeContributions,
  urnKeys,
  valueText,
} from '@catalog/search'
import {
  ATTR,
  childAttr,
  exactAttr,
  type FieldCatalog,
  keyAttr,
  MAX_BROWSE_DEPTH,
  textAttr,
} from './attributes.js'
import { childToken, exactToken, keyToken, nodeOf, nodeToken, pathSegments, pkOf } from './tokens.js'

/** A document as Meilisearch stores it (see {@link toMeiliDocument}). */
export type MeiliDocument = Record<string, unknown> & {
  readonly _pk: string
  readonly urn: string
  readonly _entityType: string
  readonly _removed: boolean
  readonly _parts: string
}

/** The stored attributes a write or `document()` reads back. */
export interface StoredDocument {
  readonly _pk: string
  readonly urn: string
  readonly _entityType: string
  readonly _parts: string
}

/**
 * The case-folded keys a value answers to in `field:value`: the whole folded value (fields
 * that keep whole values), the short forms of a URN (`kafka`, `legacy`, `jdoe`), and the
 * value's words (analysed fields), as the embedded index matches them.
 */
export function keysOf(field: string, value: FieldValue, catalog: FieldCatalog): string[] {
  const s = String(value)
  const keys = new Set<string>()
  if (catalog.isExact(field)) {
    keys.add(fold(s))
    if (isUrn(s)) for (const k of urnKeys(s)) keys.add(k)
  }
  if (catalog.isAnalysed(field)) for (const w of indexWords(valueText(s))) keys.add(w)
  return [...keys]
}

/** The analysed text of one value: its words, space separated (what free text searches). */
export function analysedText(value: FieldValue): string {
  return indexWords(valueText(String(value))).join(' ')
}

/**
 * Browse tokens of a document's browse paths: the nodes it is strictly under (`_bu`), and
 * per parent depth the (parent, next segment) pairs (`_bc<depth>`), for groups and counts.
 */
export function browseTokens(paths: readonly FieldValue[] | undefined): {
  under: string[]
  children: Map<number, string[]>
} {
  const under = new Set<string>()
  const children = new Map<number, Set<string>>()
  for (const raw of paths ?? []) {
    const segments = pathSegments(String(raw))
    for (let depth = 0; depth < segments.length; depth++) {
      const parent = nodeOf(segments.slice(0, depth))
      under.add(nodeToken(parent))
      if (depth >= MAX_BROWSE_DEPTH) continue
      const set = children.get(depth) ?? new Set<string>()
      set.add(childToken(parent, segments[depth] as string))
      children.set(depth, set)
    }
  }
  return { under: [...under], children: new Map([...children].map(([d, s]) => [d, [...s]])) }
}

/**
 * The browseV2 tokens of a document: the token of every node its `browsePathV2` lies strictly
 * under (the root included), so the documents under a node are one filter (`_bv2`).
 */
export function browseV2Tokens(paths: readonly FieldValue[] | undefined): string[] {
  const out = new Set<string>()
  for (const raw of paths ?? []) {
    const path = String(raw)
    if (!path.startsWith(BROWSE_V2_DELIMITER)) continue
    for (let i = 0; i >= 0 && i < path.length; i = path.indexOf(BROWSE_V2_DELIMITER, i + 1))
      out.add(nodeToken(path.slice(0, i)))
  }
  return [...out]
}

/**
 * The Meilisearch document of an entity, from its aspects' contributions (in merge order):
 * the contributions themselves (`_parts`, the source of truth of the document), each field's
 * raw values (sorting, numeric ranges, scans), exact tokens (`_f_`), folded keys (`_k_`),
 * analysed text (`_t_`), and browse tokens. Pure: the same contributions give the same
 * document, so unchanged documents are never rewritten.
 */
export function toMeiliDocument(
  urn: string,
  entityType: string,
  parts: Contributions,
  catalog: FieldCatalog,
): MeiliDocument {
  const merged = mergeContributions(parts)
  const doc: Record<string, unknown> = {
    [ATTR.pk]: pkOf(urn),
    [ATTR.urn]: urn,
    [ATTR.entityType]: entityType,
    [ATTR.removed]: merged.removed?.includes(true) === true,
    [ATTR.parts]: JSON.stringify(parts),
  }
  for (const [field, values] of Object.entries(merged)) {
    if (values.length === 0) continue
    doc[field] = values
    doc[exactAttr(field)] = unique(values.map((v) => exactToken(String(v))))
    const keys = unique(values.flatMap((v) => keysOf(field, v, catalog)).map(keyToken))
    if (keys.length > 0) doc[keyAttr(field)] = keys
    if (catalog.isAnalysed(field)) doc[textAttr(field)] = values.map(analysedText)
  }
  const browse = browseTokens(merged.browsePaths)
  if (browse.under.length > 0) doc[ATTR.under] = browse.under
  for (const [depth, tokens] of browse.children) doc[childAttr(depth)] = tokens
  const underV2 = browseV2Tokens(merged.browsePathV2)
  if (underV2.length > 0) doc[ATTR.underV2] = underV2
  return doc as MeiliDocument
}

/** The port's view of a stored document. */
export function fromStored(stored: StoredDocument): IndexedDocument {
  const parts = JSON.parse(stored._parts) as Record<string, DocumentFields>
  const fields = mergeContributions(parts)
  return {
    urn: stored.urn,
    entityType: stored._entityType,
    removed: fields.removed?.includes(true) === true,
    fields,
    aspects: Object.keys(parts).sort(),
  }
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)]
}
