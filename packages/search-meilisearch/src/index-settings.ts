import { isNumericType, type SearchSchema } from '@catalog/search'
import type { Settings } from 'meilisearch'
import { ATTR, childAttr, exactAttr, keyAttr, MAX_BROWSE_DEPTH, textAttr } from './attributes.js'
import { sha256 } from './tokens.js'

/** Bumped when the document layout of {@link toMeiliDocument} changes: documents are rebuilt. */
export const LAYOUT_VERSION = 2

/**
 * Facet buckets Meilisearch returns per facet (the port's largest `maxAggValues` is 1000).
 * A value lookup or browse whose facet reaches it is not known to be complete and falls back
 * to scanning documents.
 */
export const MAX_VALUES_PER_FACET = 1000

/** Hits a query may count and page through (Meilisearch caps totals at this number). */
export const MAX_TOTAL_HITS = 10_000_000

/** Typo budget of issue 3: one typo from 5 characters, two from 9. */
export const TYPO_TOLERANCE = {
  enabled: true,
  minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
  disableOnWords: [] as string[],
  disableOnAttributes: [] as string[],
}

/**
 * `sort` first, so an explicit sort decides the order (it is a no-op without one); then
 * Meilisearch's relevance rules. `attribute` ranks by the searchable-attribute order, which
 * is the registry's boost order.
 */
export const RANKING_RULES = ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness']

/**
 * The index settings derived from the registry's search fields:
 * - searchable: the analysed text of every word field, best boost first (Meilisearch's
 *   `attribute` rule ranks matches in earlier attributes first);
 * - filterable: every field's exact tokens and folded keys, numeric fields' raw values
 *   (ranges), the URN key, entity type, soft-delete flag and browse tokens;
 * - sortable: the URN, entity type and the raw values of every field that keeps whole values
 *   (free-text fields are not sortable);
 * - typo tolerance as issue 3 says, facets sorted by count, totals counted up to
 *   {@link MAX_TOTAL_HITS}.
 */
export function deriveSettings(schema: SearchSchema): Settings {
  const fields = [...schema.allFields()].sort((a, b) => a.name.localeCompare(b.name))
  const searchable = schema
    .wordFields()
    .sort((a, b) => b.boost - a.boost || a.name.localeCompare(b.name))
    .map((f) => textAttr(f.name))
  const numeric = fields.filter((f) => isNumericType(f.type)).map((f) => f.name)
  const browse = Array.from({ length: MAX_BROWSE_DEPTH }, (_, d) => childAttr(d))
  return {
    searchableAttributes: searchable,
    filterableAttributes: [
      ATTR.pk,
      ATTR.entityType,
      ATTR.removed,
      ATTR.under,
      ATTR.underV2,
      ...browse,
      ...fields.map((f) => exactAttr(f.name)),
      ...fields.map((f) => keyAttr(f.name)),
      ...numeric,
    ].sort(),
    sortableAttributes: [
      ATTR.urn,
      ATTR.entityType,
      ...fields.filter((f) => schema.isExact(f.name)).map((f) => f.name),
    ].sort(),
    displayedAttributes: ['*'],
    rankingRules: RANKING_RULES,
    stopWords: [],
    synonyms: {},
    distinctAttribute: null,
    typoTolerance: TYPO_TOLERANCE,
    faceting: { maxValuesPerFacet: MAX_VALUES_PER_FACET, sortFacetValuesBy: { '*': 'count' } },
    pagination: { maxTotalHits: MAX_TOTAL_HITS },
  }
}

/**
 * True when the index's current settings differ from the wanted ones in anything this
 * adapter sets (attribute lists compared as sets where Meilisearch does not keep the order).
 */
export function settingsDiffer(current: Settings, wanted: Settings): boolean {
  const sameSet = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) =>
    JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort())
  const sameList = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
  const filterable = (current.filterableAttributes ?? []).map((a) =>
    typeof a === 'string' ? a : JSON.stringify(a),
  )
  const typo = current.typoTolerance ?? {}
  return !(
    sameList(current.searchableAttributes, wanted.searchableAttributes) &&
    sameSet(filterable, wanted.filterableAttributes as string[]) &&
    sameSet(current.sortableAttributes, wanted.sortableAttributes) &&
    sameSet(current.displayedAttributes, wanted.displayedAttributes) &&
    sameList(current.rankingRules, wanted.rankingRules) &&
    sameSet(current.stopWords, wanted.stopWords) &&
    sameList(current.synonyms ?? {}, wanted.synonyms) &&
    (current.distinctAttribute ?? null) === (wanted.distinctAttribute ?? null) &&
    typo.enabled === TYPO_TOLERANCE.enabled &&
    typo.minWordSizeForTypos?.oneTypo === TYPO_TOLERANCE.minWordSizeForTypos.oneTypo &&
    typo.minWordSizeForTypos?.twoTypos === TYPO_TOLERANCE.minWordSizeForTypos.twoTypos &&
    (typo.disableOnWords ?? []).length === 0 &&
    (typo.disableOnAttributes ?? []).length === 0 &&
    current.faceting?.maxValuesPerFacet === MAX_VALUES_PER_FACET &&
    sameList(current.faceting?.sortFacetValuesBy, wanted.faceting?.sortFacetValuesBy) &&
    current.pagination?.maxTotalHits === MAX_TOTAL_HITS
  )
}

/**
 * Fingerprint of the document layout: the layout version and the derived settings (which
 * name every field and how it is indexed). Stored in the state document; a different one at
 * open rebuilds every document from its stored contributions.
 */
export function layoutFingerprint(schema: SearchSchema): string {
  return sha256(JSON.stringify({ v: LAYOUT_VERSION, settings: deriveSettings(schema) })).slice(0, 24)
}
