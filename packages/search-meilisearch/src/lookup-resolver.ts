import { InvalidInputError } from '@catalog/core'
import type { FieldValue } from '@catalog/search'
import { ATTR, type FieldCatalog } from './attributes.js'
import type { MeiliBackend } from './backend.js'
import { keysOf } from './document-mapper.js'
import { and, exists, type FilterExpr, inList, isFalse, type Lookup, render } from './filter-expr.js'
import { lookupMatches } from './filter-translator.js'
import { MAX_VALUES_PER_FACET } from './index-settings.js'
import { decodeExact, decodeKey, exactToken, keyToken, pkOf } from './tokens.js'

/** Most documents one lookup may scan when a field's values are too many for a facet. */
export const MAX_SCAN_DOCUMENTS = 200_000
const SCAN_PAGE = 1000

/** A stored value's token and the text a lookup condition is evaluated on. */
interface Candidate {
  readonly token: string
  readonly text: string
}

/**
 * Resolves lookups (conditions Meilisearch has no operator for: CONTAIN, START_WITH,
 * END_WITH, IEQUAL, ranges on text, `field:prefix*`) exactly, against the distinct values
 * the field has in the searched scope:
 *
 * 1. the facet distribution of the field's token attribute over the scope: when it has fewer
 *    buckets than Meilisearch's cap and every token decodes, it is every distinct value;
 * 2. otherwise the scope's documents holding the field are scanned (1000 a page, at most
 *    {@link MAX_SCAN_DOCUMENTS}) and their raw values read.
 *
 * The condition is evaluated on each value and the matching values' tokens become
 * `attr IN [...]` (nothing matching is FALSE), which Meilisearch then applies with the rest of
 * the filter: the result is exact, whatever the field's cardinality. Results are memoized for
 * the resolver's lifetime (one request).
 */
export class LookupResolver {
  private readonly memo = new Map<string, Promise<FilterExpr>>()

  constructor(
    private readonly backend: MeiliBackend,
    private readonly catalog: FieldCatalog,
    /** The searched scope (entity types, soft-delete), without lookups. */
    private readonly scope: FilterExpr,
  ) {}

  resolve(l: Lookup): Promise<FilterExpr> {
    const key = JSON.stringify(l)
    let p = this.memo.get(key)
    if (!p) {
      p = this.run(l)
      this.memo.set(key, p)
    }
    return p
  }

  private async run(l: Lookup): Promise<FilterExpr> {
    const candidates = (l.kind === 'urn' ? undefined : await this.fromFacet(l)) ?? (await this.fromScan(l))
    const tokens = new Set<string>()
    for (const c of candidates) if (l.values.some((v) => lookupMatches(l.op, c.text, v))) tokens.add(c.token)
    return inList(l.attr, [...tokens])
  }

  /** Every distinct value, from the facet distribution; undefined when it may be incomplete. */
  private async fromFacet(l: Lookup): Promise<Candidate[] | undefined> {
    if (isFalse(this.scope)) return []
    const filter = render(this.scope)
    const res = await this.backend.search(
      { q: '', hitsPerPage: 0, facets: [l.attr], ...(filter ? { filter } : {}) },
      `read the values of ${l.field}`,
    )
    const tokens = Object.keys(res.facetDistribution?.[l.attr] ?? {})
    if (tokens.length >= MAX_VALUES_PER_FACET) return undefined
    const out: Candidate[] = []
    for (const token of tokens) {
      const text = l.kind === 'key' ? decodeKey(token) : decodeExact(token)
      if (text === undefined) return undefined
      out.push({ token, text })
    }
    return out
  }

  /** Every value, from the documents of the scope that hold the field. */
  private async fromScan(l: Lookup): Promise<Candidate[]> {
    if (isFalse(this.scope)) return []
    const source = l.kind === 'urn' ? ATTR.urn : l.field
    const where = l.kind === 'urn' ? this.scope : and(this.scope, exists(l.attr))
    const filter = render(where)
    const out: Candidate[] = []
    for (let offset = 0; ; offset += SCAN_PAGE) {
      const page = await this.backend.documents<Record<string, unknown>>(
        { fields: [source], limit: SCAN_PAGE, offset, ...(filter ? { filter } : {}) },
        `scan the values of ${l.field}`,
      )
      if (page.total > MAX_SCAN_DOCUMENTS)
        throw new InvalidInputError(
          `The condition on '${l.field}' would read ${page.total} documents of the Meilisearch index (at most ${MAX_SCAN_DOCUMENTS}); narrow the search with another filter`,
        )
      for (const doc of page.results) out.push(...this.candidates(l, doc[source]))
      if (page.results.length < SCAN_PAGE || offset + SCAN_PAGE >= page.total) return out
    }
  }

  private candidates(l: Lookup, raw: unknown): Candidate[] {
    const values = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]) as FieldValue[]
    switch (l.kind) {
      case 'urn':
        return values.map((v) => ({ token: pkOf(String(v)), text: String(v) }))
      case 'exact':
        return values.map((v) => ({ token: exactToken(String(v)), text: String(v) }))
      case 'key':
        return values.flatMap((v) =>
          keysOf(l.field, v, this.catalog).map((k) => ({ token: keyToken(k), text: k })),
        )
    }
  }
}
