import { InvalidInputError, parseUrn, type Registry, ValidationError } from '@catalog/core'
import type { MetadataStore, RestateItem } from '@catalog/store'

/** Sources re-derived per store transaction. */
const BATCH = 100
/** Page size when listing the sources of the edges pointing at the node. */
const PAGE = 1_000
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What `DELETE /relationships` removed. */
export interface RemovedEdges {
  /** Aspect rows of the node whose edges were dropped. */
  readonly outgoingAspects: number
  /** Entities whose edges to the node were dropped. */
  readonly incomingSources: number
}

/**
 * `DELETE /relationships?urn=`: DataHub's `GraphService.removeNode`, which drops every edge at
 * the node in both directions (those it is the source of and those pointing at it) and leaves
 * the aspects alone.
 *
 * Edges here are derived from aspects, so removing them is a re-derivation that leaves the
 * node out: the node's aspect rows that produce edges are restated with none, and every entity with an
 * edge to the node has the aspect rows producing it restated with their edges minus those to the node
 * (`store.restate`: edges replaced and an UPSERT change-log entry, in one transaction per
 * batch, the rows read and restated with no macrotask between them so that no commit slips
 * in). Like DataHub's graph index, the edges come back when their aspect is next written or
 * at the next `restoreIndices`, which re-derives every edge from the stored aspects. The search
 * index applies the restated (unchanged) values from the change log in its own time: no search
 * document depends on edges.
 */
export class RelationshipsDeleteService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  async removeNode(urn: string, actor: string): Promise<RemovedEdges> {
    this.checkUrn(urn)
    const audit = () => ({ time: Date.now(), actor })
    let outgoingAspects = 0
    const outgoing = await this.store.relationships({
      urn,
      direction: 'OUTGOING',
      types: [],
      start: 0,
      count: 1,
    })
    if (outgoing.total > 0) {
      const rows = (await this.store.latest([urn])).get(urn) ?? []
      // Only the rows that produce edges change.
      const items = rows.flatMap((row) => {
        const item = this.item(row.urn, row.aspect, row.value, () => false)
        return item && this.derivesEdgeTo(row.urn, row.aspect, row.value) ? [item] : []
      })
      if (items.length > 0) await this.store.restate(items, audit())
      outgoingAspects = items.length
    }
    const sources = await this.sourcesOf(urn)
    for (let i = 0; i < sources.length; i += BATCH) {
      const batch = sources.slice(i, i + BATCH)
      const latest = await this.store.latest(batch)
      const items: RestateItem[] = []
      for (const rows of latest.values()) {
        for (const row of rows) {
          const item = this.item(row.urn, row.aspect, row.value, (destination) => destination !== urn)
          // Only the rows that produce an edge to the node change.
          if (item && this.derivesEdgeTo(row.urn, row.aspect, row.value, urn)) items.push(item)
        }
      }
      if (items.length > 0) await this.store.restate(items, audit())
      await yieldToEventLoop()
    }
    return { outgoingAspects, incomingSources: sources.length }
  }

  /** Every distinct entity with an edge to `urn`, read before anything changes. */
  private async sourcesOf(urn: string): Promise<string[]> {
    const sources = new Set<string>()
    for (let start = 0; ; start += PAGE) {
      const page = await this.store.relationships({
        urn,
        direction: 'INCOMING',
        types: [],
        start,
        count: PAGE,
      })
      for (const r of page.relationships) if (r.entity !== urn) sources.add(r.entity)
      if (page.relationships.length < PAGE) break
    }
    return [...sources]
  }

  /** A stored row restated with the edges its value produces that `keep` keeps. */
  private item(
    urn: string,
    aspect: string,
    value: Record<string, unknown>,
    keep: (destination: string) => boolean,
  ): RestateItem | undefined {
    const entity = this.registry.findEntity(parseUrn(urn).entityType)
    if (!entity || !this.registry.findAspect(entity, aspect)) return undefined
    const edges = this.registry
      .edges(entity, aspect, value)
      .filter((e) => keep(e.destination))
      .map((e) => ({ type: e.type, destination: e.destination }))
    return { urn, entityType: entity.name, aspect, value, edges }
  }

  /** Whether a row's value produces an edge (to `urn`, when given). */
  private derivesEdgeTo(source: string, aspect: string, value: Record<string, unknown>, urn?: string) {
    const entity = this.registry.findEntity(parseUrn(source).entityType)
    if (!entity) return false
    return this.registry.edges(entity, aspect, value).some((e) => urn === undefined || e.destination === urn)
  }

  /** A malformed URN, or one of a modelled type whose key does not fit, is a 400. */
  private checkUrn(urn: string): void {
    try {
      if (this.registry.findEntity(parseUrn(urn).entityType)) this.registry.resolveUrn(urn)
    } catch (err) {
      if (err instanceof ValidationError) throw new InvalidInputError(err.message)
      throw err
    }
  }
}
