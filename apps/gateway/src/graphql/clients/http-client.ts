import { InvalidInputError, type Registry } from '@catalog/core'
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
import { restCall } from './rest-call.js'

/** URNs per `/entitiesV2?ids=List(...)` call, to keep URLs short. */
const BATCH = 50

const enc = encodeURIComponent

/**
 * {@link MetadataClient} over the metadata service's REST endpoints (split mode). The
 * caller's `Authorization` header is forwarded, so the metadata service authenticates the
 * same token and stamps writes with the same actor.
 */
export class HttpMetadataClient implements MetadataClient {
  constructor(
    private readonly baseUrl: string,
    private readonly registry: Registry,
    private readonly authorization?: string,
    private readonly timeoutMs = 30_000,
  ) {}

  async getEntities(
    urns: readonly string[],
    aspects: readonly string[],
  ): Promise<Map<string, EntityAspects>> {
    const out = new Map<string, EntityAspects>()
    if (urns.length === 0) return out
    const entity = this.registry.resolveUrn(urns[0] as string).entity
    const wanted = aspects.filter((a) => this.registry.hasAspect(entity, a))
    for (let i = 0; i < urns.length; i += BATCH) {
      const chunk = urns.slice(i, i + BATCH)
      const query = `ids=List(${chunk.map(enc).join(',')})${wanted.length > 0 ? `&aspects=List(${wanted.join(',')})` : ''}`
      const body = (await this.call('GET', `/entitiesV2?${query}`)) as {
        results: Record<string, { aspects: Record<string, { value: AspectValue }> }>
        errors: Record<string, { message?: string }>
      }
      for (const urn of chunk) {
        const failed = body.errors?.[urn]
        if (failed) throw new InvalidInputError(failed.message ?? `cannot read ${urn}`)
        const values: Record<string, AspectValue> = {}
        for (const [name, enveloped] of Object.entries(body.results?.[urn]?.aspects ?? {})) {
          if (name !== entity.keyAspect) values[name] = enveloped.value
        }
        out.set(urn, { urn, entityType: entity.name, aspects: values })
      }
    }
    return out
  }

  async exists(urn: string): Promise<boolean> {
    const key = this.registry.resolveUrn(urn).entity.keyAspect
    return (await this.aspect(urn, key, 0)) !== undefined
  }

  async schemaField(urn: string, fieldPath: string): Promise<SchemaFieldLookup> {
    return (await this.call('POST', '/internal/schema-field', { urn, fieldPath })) as SchemaFieldLookup
  }

  async getAspectVersion(urn: string, aspect: string, version: number): Promise<AspectValue | undefined> {
    return this.aspect(urn, aspect, version)
  }

  async ingestProposals(proposals: readonly MetadataProposal[], _actor: string): Promise<void> {
    await this.call('POST', '/aspects?action=ingestProposalBatch', { proposals })
  }

  async lineage(query: LineageQuery): Promise<LineageAnswer> {
    const body = (await this.call('POST', '/relationships?action=getLineage', query)) as {
      value: LineageAnswer
    }
    return body.value
  }

  async relationships(query: RelationshipsQuery): Promise<RelationshipsAnswer> {
    const { urn, direction, types, start = 0, count = 100 } = query
    const path = `/relationships?urn=${enc(urn)}&direction=${direction}&types=List(${types.map(enc).join(',')})&start=${start}&count=${count}`
    return (await this.call('GET', path)) as RelationshipsAnswer
  }

  async timeseries(query: TimeseriesQuery): Promise<AspectValue[]> {
    const body = (await this.call('POST', '/aspects?action=getTimeseriesAspectValues', query)) as {
      value: { values: { aspect: { value: string } }[] }
    }
    return body.value.values.map((v) => JSON.parse(v.aspect.value) as AspectValue)
  }

  async usage(resource: string, range: string): Promise<UsageAnswer> {
    const payload = { resource, duration: 'DAY', rangeFromEnd: range }
    return ((await this.call('POST', '/usageStats?action=queryRange', payload)) as { value: UsageAnswer })
      .value
  }

  async timeline(query: TimelineQuery): Promise<TimelineTransaction[]> {
    const { urn, categories, startTime, endTime } = query
    const path = `/openapi/v2/timeline/v1/${enc(urn)}?categories=${categories.map(enc).join(',')}&startTime=${startTime}&endTime=${endTime}`
    return (await this.call('GET', path)) as TimelineTransaction[]
  }

  async lastIngested(urn: string): Promise<number | null> {
    const body = (await this.call('GET', `/entitiesV2/${enc(urn)}`)) as {
      aspects?: Record<string, { systemMetadata?: Record<string, unknown> }>
    }
    return lastObservedOfRuns(Object.values(body.aspects ?? {}).map((a) => a.systemMetadata))
  }

  async rollbackRun(runId: string, _actor: string): Promise<void> {
    await this.call('POST', '/runs?action=rollback', { runId, dryRun: false, hardDelete: true })
  }

  private async aspect(urn: string, aspect: string, version: number): Promise<AspectValue | undefined> {
    const path = `/aspects/${enc(urn)}?aspect=${enc(aspect)}&version=${version}`
    const body = (await this.call('GET', path, undefined, true)) as
      | { aspect: Record<string, AspectValue> }
      | undefined
    return body ? Object.values(body.aspect)[0] : undefined
  }

  private call(method: string, path: string, payload?: unknown, notFoundIsEmpty = false): Promise<unknown> {
    return restCall(this.baseUrl, 'the metadata service', this.authorization, {
      method,
      path,
      payload,
      notFoundIsEmpty,
      timeoutMs: this.timeoutMs,
    })
  }
}
