import { lookUpSchemaField, type MetadataServices } from '@catalog/metadata-service'
import {
  type AspectValue,
  type EntityAspects,
  type LineageAnswer,
  type LineageQuery,
  lastObservedOfRuns,
  type MetadataClient,
  type MetadataProposal,
  type RelationshipsAnswer,
  type RelationshipsQuery,
  type SchemaFieldLookup,
  type TimelineQuery,
  type TimelineTransaction,
  type TimeseriesQuery,
  type UsageAnswer,
} from './metadata-client.js'

/** {@link MetadataClient} over the metadata services of this process. */
export class InProcessMetadataClient implements MetadataClient {
  constructor(private readonly services: MetadataServices) {}

  async getEntities(
    urns: readonly string[],
    aspects: readonly string[],
  ): Promise<Map<string, EntityAspects>> {
    const out = new Map<string, EntityAspects>()
    if (urns.length === 0) return out
    const { registry, store } = this.services
    const entity = registry.resolveUrn(urns[0] as string).entity
    const wanted = [
      entity.keyAspect,
      ...aspects.filter((a) => a !== entity.keyAspect && registry.hasAspect(entity, a)),
    ]
    if (!store.latestJson) return this.parsedEntities(urns, wanted)
    // The stored text, read for the whole batch in one statement: only the values are parsed (not
    // the system metadata, nor the key aspect, whose row only says the entity exists).
    const rows = await store.latestJson(urns, wanted)
    for (const urn of urns) {
      const values: Record<string, AspectValue> = {}
      let exists = false
      for (const row of rows.get(urn) ?? []) {
        if (row.aspect === entity.keyAspect) exists = true
        else values[row.aspect] = JSON.parse(row.valueJson) as AspectValue
      }
      out.set(urn, { urn, entityType: entity.name, aspects: values, exists })
    }
    return out
  }

  /** {@link getEntities} of a store without text reads. */
  private async parsedEntities(
    urns: readonly string[],
    wanted: readonly string[],
  ): Promise<Map<string, EntityAspects>> {
    const out = new Map<string, EntityAspects>()
    const entity = this.services.registry.resolveUrn(urns[0] as string).entity
    const rows = await this.services.store.latest(urns, wanted)
    for (const urn of urns) {
      const values: Record<string, AspectValue> = {}
      let exists = false
      for (const row of rows.get(urn) ?? []) {
        if (row.aspect === entity.keyAspect) exists = true
        else values[row.aspect] = row.value
      }
      out.set(urn, { urn, entityType: entity.name, aspects: values, exists })
    }
    return out
  }

  async exists(urn: string): Promise<boolean> {
    const entity = this.services.registry.resolveUrn(urn).entity
    return this.services.store.exists(urn, entity.keyAspect)
  }

  schemaField(urn: string, fieldPath: string): Promise<SchemaFieldLookup> {
    return lookUpSchemaField(this.services.store, urn, fieldPath)
  }

  async getAspectVersion(urn: string, aspect: string, version: number): Promise<AspectValue | undefined> {
    return (await this.services.store.version(urn, aspect, version))?.value
  }

  async ingestProposals(proposals: readonly MetadataProposal[], actor: string): Promise<void> {
    await this.services.ingest.ingestProposals(proposals, actor)
  }

  lineage(query: LineageQuery): Promise<LineageAnswer> {
    return this.services.lineage.lineage(query)
  }

  relationships(query: RelationshipsQuery): Promise<RelationshipsAnswer> {
    return this.services.lineage.relationships(query)
  }

  async timeseries(query: TimeseriesQuery): Promise<AspectValue[]> {
    const answer = await this.services.timeseries.values(query)
    return answer.values.map((v) => JSON.parse(v.aspect.value) as AspectValue)
  }

  usage(resource: string, range: string): Promise<UsageAnswer> {
    return this.services.usage.queryRange(resource, 'DAY', range as 'ALL')
  }

  timeline(query: TimelineQuery): Promise<TimelineTransaction[]> {
    return this.services.timeline.timeline({ ...query, categories: query.categories as never, raw: false })
  }

  async lastIngested(urn: string): Promise<number | null> {
    const rows = (await this.services.store.latest([urn])).get(urn) ?? []
    return lastObservedOfRuns(rows.map((r) => r.systemMetadata))
  }

  async rollbackRun(runId: string, actor: string): Promise<void> {
    await this.services.runs.rollback(runId, { dryRun: false, hardDelete: true }, actor)
  }
}
