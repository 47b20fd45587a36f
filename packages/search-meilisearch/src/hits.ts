import {
  type DocumentFields,
  ENTITY_TYPE_FIELD,
  editDistance,
  type FacetRequest,
  type FacetResult,
  indexWords,
  matchedFields,
  mergeContributions,
  type QueryNode,
  type SearchHit,
  type SearchSchema,
  typoBudget,
  valueText,
} from '@catalog/search'
import { ATTR, exactAttr, type FieldCatalog } from './attributes.js'
import type { MeiliBackend } from './backend.js'
import { inList, render } from './filter-expr.js'
import { decodeExact, exactToken } from './tokens.js'

/** A hit's stored attributes the search reads. */
export interface HitDocument {
  readonly urn: string
  readonly _entityType: string
  readonly _parts: string
}

/** The attributes {@link toSearchHit} needs. */
export const HIT_ATTRIBUTES = [ATTR.urn, ATTR.entityType, ATTR.parts]

/**
 * A hit of the port: URN, entity type and matched fields. Meilisearch found the document
 * through a prefix, an exact word or a typo; the typo variants are recovered from the
 * document's own words (those within the word's typo budget), so `matchedFields` names
 * the fields a typo matched too.
 */
export function toSearchHit(doc: HitDocument, query: QueryNode, schema: SearchSchema): SearchHit {
  const fields = mergeContributions(JSON.parse(doc._parts) as Record<string, DocumentFields>)
  const defaults = schema.entity(doc._entityType)?.defaultFields ?? []
  return {
    urn: doc.urn,
    entityType: doc._entityType,
    matchedFields: matchedFields(fields, query, defaults, typoVariants(fields, defaults)),
  }
}

/** The words of `fields` a query word matches with typos (whole word, or as a prefix). */
export function typoVariants(
  doc: DocumentFields,
  fields: readonly string[],
): (word: string) => readonly string[] {
  let words: string[] | undefined
  return (word) => {
    const budget = typoBudget(word)
    if (budget === 0) return []
    words ??= [
      ...new Set(fields.flatMap((f) => (doc[f] ?? []).flatMap((v) => indexWords(valueText(String(v)))))),
    ]
    return words.filter(
      (t) =>
        !t.startsWith(word) &&
        (editDistance(word, t, budget) <= budget ||
          editDistance(word, t.slice(0, word.length), budget) <= budget),
    )
  }
}

/** The facet attribute of a facet field. */
export function facetAttr(field: string): string {
  return field === ENTITY_TYPE_FIELD ? ATTR.entityType : exactAttr(field)
}

/**
 * The port's facets from Meilisearch's `facetDistribution` (counted over every hit): tokens
 * decoded to values (a long value's digest is looked up in one document holding it), buckets
 * by count then value, at most `maxValues` each, empty facets left out.
 */
export async function decodeFacets(
  distribution: Readonly<Record<string, Readonly<Record<string, number>>>> | undefined,
  requests: readonly FacetRequest[],
  maxValues: number,
  backend: MeiliBackend,
  catalog: FieldCatalog,
): Promise<FacetResult[]> {
  const out: FacetResult[] = []
  for (const r of requests) {
    const attr = facetAttr(r.field)
    const counts = new Map<string, number>()
    for (const [token, count] of Object.entries(distribution?.[attr] ?? {})) {
      const value =
        r.field === ENTITY_TYPE_FIELD
          ? (catalog.entityName(token) ?? token)
          : (decodeExact(token) ?? (await longValue(backend, r.field, token)))
      if (value === undefined || count <= 0) continue
      counts.set(value, (counts.get(value) ?? 0) + count)
    }
    if (counts.size === 0) continue
    const values = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, maxValues)
    out.push({ field: r.field, displayName: r.displayName, values })
  }
  return out
}

/** The value behind a hashed token, read from one document that holds it. */
async function longValue(backend: MeiliBackend, field: string, token: string): Promise<string | undefined> {
  const filter = render(inList(exactAttr(field), [token]))
  const page = await backend.documents<Record<string, unknown>>(
    { fields: [field], limit: 1, ...(filter ? { filter } : {}) },
    `read a value of ${field}`,
  )
  const raw = page.results[0]?.[field]
  const values = Array.isArray(raw) ? raw : [raw]
  return values.map(String).find((v) => exactToken(v) === token)
}
