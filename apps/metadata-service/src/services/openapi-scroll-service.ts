import { InvalidInputError } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { EntityV3 } from '../schemas/openapi.js'
import type { OpenApiEntityService } from './openapi-entity-service.js'

export interface ScrollRequest {
  readonly entityName: string
  readonly count: number
  readonly scrollId?: string | undefined
  readonly query?: string | undefined
  readonly sort?: readonly string[]
  readonly sortOrder?: string | undefined
  readonly aspects?: readonly string[]
  readonly includeSoftDelete: boolean
  readonly withSystemMetadata: boolean
}

export interface ScrollPage {
  scrollId?: string
  entities: EntityV3[]
  totalCount: number
}

/**
 * The v3 scroll listing, answered from the store rather than the search index: the entities
 * of one type in URN order, by their key-aspect rows (the metadata service cannot call search
 * in one process). So `query` other than `*`, other sort fields and descending order are
 * refused with a 400 naming the search action to use instead. The scroll id is the offset of
 * the next key-aspect row; a page whose rows are all soft-deleted may come back empty with a
 * scroll id, as an Elasticsearch scroll can.
 */
export class OpenApiScrollService {
  constructor(
    private readonly store: MetadataStore,
    private readonly entities: OpenApiEntityService,
  ) {}

  async scroll(r: ScrollRequest): Promise<ScrollPage> {
    const entity = this.entities.entitySpec(r.entityName)
    if (r.query !== undefined && r.query.trim() !== '*' && r.query.trim() !== '') {
      throw new InvalidInputError(
        'query is not supported by this scroll (it lists entities in URN order); use POST /entities?action=search or scrollAcrossEntities',
      )
    }
    for (const field of r.sort ?? []) {
      if (field !== 'urn') throw new InvalidInputError(`Scroll can only sort by urn, not ${field}`)
    }
    if (r.sortOrder !== undefined && r.sortOrder !== 'ASCENDING')
      throw new InvalidInputError(`Scroll can only sort ASCENDING, not ${r.sortOrder}`)
    const start = decodeScrollId(r.scrollId)
    const rows = await this.store.scan({ aspect: entity.keyAspect, start, limit: r.count })
    let urns = rows.map((row) => row.urn)
    if (!r.includeSoftDelete && urns.length > 0) {
      const status = await this.store.latest(urns, ['status'])
      urns = urns.filter((u) => status.get(u)?.[0]?.value.removed !== true)
    }
    const aspects = r.aspects?.map((a) => this.entities.aspectName(entity, a))
    const entities = await this.entities.read(
      urns.map((urn) => ({ urn, ...(aspects ? { aspects } : {}) })),
      r.withSystemMetadata,
    )
    const totalCount = await this.store.countAspects(entity.keyAspect)
    const next = rows.length === r.count && r.count > 0 ? encodeScrollId(start + rows.length) : undefined
    return { ...(next ? { scrollId: next } : {}), entities, totalCount }
  }
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
