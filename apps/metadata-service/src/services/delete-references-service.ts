import type { Registry } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { Proposal } from '../schemas/ingest.js'
import type { IngestService } from './ingest-service.js'

/** One aspect of another entity that refers to the deleted one (DataHub's `RelatedAspect`). */
export interface RelatedAspect {
  readonly relationship: string
  /** The same name under the key DataHub's relationships API uses. */
  readonly relationshipType: string
  readonly entity: string
  readonly aspect: string
}

export interface DeleteReferencesResult {
  readonly total: number
  readonly relatedAspects: RelatedAspect[]
}

/** Most references one call looks at (DataHub caps its graph query the same way). */
const MAX_REFERENCES = 10_000
const PAGE = 1000

/**
 * `deleteReferences`: finds the aspects of other entities whose values point at an entity
 * (its incoming edges) and, unless it is a dry run, rewrites each without the reference in
 * one atomic ingest. An aspect that is no longer valid without it is deleted.
 */
export class DeleteReferencesService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {}

  async deleteReferences(urn: string, dryRun: boolean, actor: string): Promise<DeleteReferencesResult> {
    this.registry.resolveUrn(urn)
    const related = await this.find(urn)
    if (!dryRun && related.length > 0) await this.ingest.ingestProposals(this.rewrite(urn, related), actor)
    return { total: related.length, relatedAspects: related.map(({ value: _, ...r }) => r) }
  }

  private async find(urn: string): Promise<Array<RelatedAspect & { value: Record<string, unknown> }>> {
    const sources = new Set<string>()
    for (let start = 0; start < MAX_REFERENCES; start += PAGE) {
      const page = await this.store.relationships({
        urn,
        direction: 'INCOMING',
        types: [],
        start,
        count: PAGE,
      })
      for (const r of page.relationships) sources.add(r.entity)
      if (start + PAGE >= page.total) break
    }
    const out: Array<RelatedAspect & { value: Record<string, unknown> }> = []
    for (const [source, rows] of await this.store.latest([...sources].sort())) {
      const { entity } = this.registry.resolveUrn(source)
      for (const row of rows) {
        const edge = this.registry.edges(entity, row.aspect, row.value).find((e) => e.destination === urn)
        if (!edge) continue
        const base = {
          relationship: edge.type,
          relationshipType: edge.type,
          entity: source,
          aspect: row.aspect,
        }
        out.push({ ...base, value: row.value })
      }
    }
    return out
  }

  private rewrite(urn: string, related: ReadonlyArray<RelatedAspect & { value: Record<string, unknown> }>) {
    return related.map((r): Proposal => {
      const { entity } = this.registry.resolveUrn(r.entity)
      const stripped = withoutReference(r.value, urn) as Record<string, unknown>
      const common = { entityType: entity.name, entityUrn: r.entity, aspectName: r.aspect }
      try {
        this.registry.validateAspect(this.registry.aspect(entity, r.aspect), stripped)
      } catch {
        return { ...common, changeType: 'DELETE' }
      }
      const aspect = { value: JSON.stringify(stripped), contentType: 'application/json' }
      return { ...common, changeType: 'UPSERT', aspect }
    })
  }
}

/**
 * The value without `urn`: array members equal to it, or records naming it in one of their own
 * fields (`{tag: urn}`, `{owner: urn, type}`), are dropped; a field holding it is removed.
 */
export function withoutReference(value: unknown, urn: string): unknown {
  if (Array.isArray(value)) {
    return value.filter((v) => v !== urn && !namesDirectly(v, urn)).map((v) => withoutReference(v, urn))
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== urn) out[k] = withoutReference(v, urn)
    return out
  }
  return value
}

function namesDirectly(v: unknown, urn: string): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).includes(urn)
}
