import type { Registry } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'

/** DataHub's cap on the rows one time-series read returns. */
const MAX_ROWS = 10_000

/**
 * The time-series side of a run rollback (DataHub's `rollbackTimeseriesAspects`): the
 * time-series rows whose `systemMetadata.runId` is the run's go. DataHub deletes them by run id
 * in every index; here the entities searched are those the run wrote versioned rows for.
 * A timestamp where another run also wrote a row (another partition) is left alone.
 */
export class RunTimeseries {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  /** Rows of `runId` on these entities, per urn and aspect, as their timestamps. */
  async find(
    urns: readonly string[],
    runId: string,
  ): Promise<Array<{ urn: string; aspect: string; at: number[] }>> {
    const found: Array<{ urn: string; aspect: string; at: number[] }> = []
    for (const urn of new Set(urns)) {
      const { entity } = this.registry.resolveUrn(urn)
      for (const aspect of entity.aspects) {
        if (!this.registry.findAspect(entity, aspect)?.timeseries) continue
        const rows = await this.store.timeseries({ urn, entityType: entity.name, aspect, limit: MAX_ROWS })
        const mine = new Set<number>()
        const others = new Set<number>()
        for (const r of rows) (r.systemMetadata?.runId === runId ? mine : others).add(r.timestampMillis)
        const at = [...mine].filter((t) => !others.has(t))
        if (at.length > 0) found.push({ urn, aspect, at })
      }
    }
    return found
  }

  /** Deletes what {@link find} found; returns how many rows went. */
  async delete(found: Awaited<ReturnType<RunTimeseries['find']>>): Promise<number> {
    let n = 0
    for (const { urn, aspect, at } of found) {
      for (const t of at) {
        n += await this.store.deleteTimeseries({
          urn,
          aspects: [aspect],
          startTimeMillis: t,
          endTimeMillis: t,
        })
      }
    }
    return n
  }
}
