import { type EntitySpec, InvalidInputError, parseUrn } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { EntityV3 } from '../schemas/openapi.js'
import type { EntitySearch, SearchFilter } from './entity-search.js'
import type { OpenApiEntityService } from './openapi-entity-service.js'
import { resolveScrollSort, type ScrollSort, type ScrollSortInput } from './openapi-scroll-sort.js'

export interface ScrollRequest {
  /** Entity types in scope; empty means every type (the body-less `POST /scroll`). */
  readonly entityNames: readonly string[]
  readonly count: number
  readonly scrollId?: string | undefined
  /** Default `*`. */
  readonly query?: string | undefined
  readonly sort: ScrollSortInput
  readonly filter?: SearchFilter | undefined
  readonly aspects?: readonly string[]
  readonly includeSoftDelete: boolean
  readonly withSystemMetadata: boolean
}

export interface ScrollPage {
  scrollId?: string
  entities: EntityV3[]
  totalCount: number
}

interface UrnPage {
  readonly urns: string[]
  readonly totalCount: number
  /** Offset of the next page; undefined after a page that was not full. */
  readonly next: number | undefined
}

/**
 * DataHub's v3 scroll. A plain listing of one type (`query` `*`, no filter, sorted by urn)
 * reads the key-aspect rows of the store in URN order, as always; a text query, a filter, a
 * sort by another field or several entity types go to the search index, as DataHub's
 * `scrollAcrossEntities` does. Either way the scroll id is the offset of the next page, and
 * the entities are read from the store. As in DataHub, every full page carries a scroll id (so
 * the last one may be followed by an empty page), and a store page whose rows are all
 * soft-deleted may come back empty with a scroll id.
 */
export class OpenApiScrollService {
  constructor(
    private readonly store: MetadataStore,
    private readonly entities: OpenApiEntityService,
    /** Absent when the metadata service runs without a search service. */
    private readonly search?: EntitySearch,
  ) {}

  async scroll(r: ScrollRequest): Promise<ScrollPage> {
    const specs = r.entityNames.map((name) => this.entities.entitySpec(name))
    const sort = resolveScrollSort(r.sort)
    const start = decodeScrollId(r.scrollId)
    const query = r.query === undefined || r.query.trim() === '' ? '*' : r.query
    const [only] = specs
    const plain =
      specs.length === 1 && only && query.trim() === '*' && isEmpty(r.filter) && sort.field === 'urn'
    const page = plain
      ? await this.storePage(only, sort, start, r)
      : await this.searchPage(specs, query, sort, start, r)
    const entities = await this.entities.read(
      page.urns.map((urn) => ({ urn, ...this.aspectsOf(urn, specs, r.aspects) })),
      r.withSystemMetadata,
    )
    const next = page.next !== undefined ? { scrollId: encodeScrollId(page.next) } : {}
    return { ...next, entities, totalCount: page.totalCount }
  }

  /** One page of key-aspect rows in URN order (descending: counted back from the end). */
  private async storePage(entity: EntitySpec, sort: ScrollSort, start: number, r: ScrollRequest) {
    const totalCount = await this.store.countAspects(entity.keyAspect)
    const limit = Math.max(0, Math.min(r.count, totalCount - start))
    const from = sort.order === 'ASCENDING' ? start : totalCount - start - limit
    const rows = limit > 0 ? await this.store.scan({ aspect: entity.keyAspect, start: from, limit }) : []
    let urns = rows.map((row) => row.urn)
    if (sort.order === 'DESCENDING') urns.reverse()
    if (!r.includeSoftDelete && urns.length > 0) {
      const status = await this.store.latest(urns, ['status'])
      urns = urns.filter((u) => status.get(u)?.[0]?.value.removed !== true)
    }
    return { urns, totalCount, next: fullPage(rows.length, r.count) ? start + rows.length : undefined }
  }

  /** One page of the search index's hits. */
  private async searchPage(
    specs: readonly EntitySpec[],
    query: string,
    sort: ScrollSort,
    start: number,
    r: ScrollRequest,
  ): Promise<UrnPage> {
    if (!this.search)
      throw new InvalidInputError(
        'query, filter and sorting by a field other than urn need the search service, and this metadata service has none (set CATALOG_SEARCH_URL)',
      )
    // The index breaks ties by URN, but cannot sort by URN itself: with a query, hits come by relevance.
    if (sort.field === 'urn' && sort.order === 'DESCENDING')
      throw new InvalidInputError('A scroll with a query or filter can sort by urn ASCENDING only')
    const answer = await this.search.searchAcrossEntities({
      input: query,
      entities: specs.map((s) => s.name),
      start,
      count: r.count,
      ...(isEmpty(r.filter) ? {} : { filter: r.filter as SearchFilter }),
      ...(sort.field === 'urn' ? {} : { sortCriteria: [sort] }),
      searchFlags: { includeSoftDeleted: r.includeSoftDelete, skipAggregates: true },
    })
    const n = answer.entities.length
    return {
      urns: [...answer.entities],
      totalCount: answer.numEntities,
      next: fullPage(n, r.count) ? start + n : undefined,
    }
  }

  /** The aspects to read of one hit: those of its type among the names asked for (all when none). */
  private aspectsOf(
    urn: string,
    specs: readonly EntitySpec[],
    names: readonly string[] | undefined,
  ): { aspects?: string[] } {
    if (!names || names.length === 0) return {}
    const type = parseUrn(urn).entityType
    const entity = specs.find((s) => s.name === type) ?? this.entities.entitySpec(type)
    const aspects: string[] = []
    for (const name of names) {
      try {
        aspects.push(this.entities.aspectName(entity, name))
      } catch (err) {
        // Across several types an aspect belongs to some of them; for one type it must exist.
        if (specs.length === 1) throw err
      }
    }
    // None of them is of this type: ask for the names as given, which leaves the hit out.
    return { aspects: aspects.length > 0 ? aspects : [...names] }
  }
}

/** As DataHub's search-after scroll: a full page hands out a scroll id (the next page may be empty). */
function fullPage(rows: number, count: number): boolean {
  return count > 0 && rows === count
}

function isEmpty(filter: SearchFilter | undefined): boolean {
  if (!filter) return true
  const groups = filter.or ?? []
  return groups.every((g) => g.and.length === 0) && (filter.criteria ?? []).length === 0
}

function encodeScrollId(start: number): string {
  return Buffer.from(JSON.stringify({ start }), 'utf8').toString('base64url')
}

function decodeScrollId(scrollId: string | undefined): number {
  if (scrollId === undefined || scrollId === '') return 0
  try {
    const parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { start?: unknown }
    if (Number.isInteger(parsed.start) && (parsed.start as number) >= 0) return parsed.start as number
  } catch {
    // fall through to the 400
  }
  throw new InvalidInputError(`Invalid scrollId: ${scrollId}`)
}
