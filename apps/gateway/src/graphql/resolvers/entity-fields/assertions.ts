import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import { stringMapEntries } from '../../mappers/assertion.js'
import { type EntitySource, type Mapped, num, str } from '../../mappers/common.js'
import { partitionSpec, type TimeseriesArgs, timeseriesValues } from './timeseries.js'

/** DataHub's page size of an entity's `assertions` when `count` is not given. */
const DEFAULT_COUNT = 200

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

interface AssertionsArgs {
  readonly start?: number | null
  readonly count?: number | null
  readonly includeSoftDeleted?: boolean | null
}

/**
 * `assertions(start, count, includeSoftDeleted)` of an entity, as DataHub's
 * EntityAssertionsResolver: the assertions with an `Asserts` edge to it (one page of the graph's
 * incoming edges), those that no longer exist left out, and the soft-deleted ones unless asked for.
 */
export async function entityAssertions(source: EntitySource, args: AssertionsArgs, ctx: CatalogContext) {
  const page = await ctx.client.relationships({
    urn: source.urn,
    direction: 'INCOMING',
    types: ['Asserts'],
    start: Math.max(0, args.start ?? 0),
    count: Math.max(0, args.count ?? DEFAULT_COUNT),
  })
  const urns = [...new Set(page.relationships.map((r) => r.entity))].filter((u) =>
    u.startsWith('urn:li:assertion:'),
  )
  const loaded = await Promise.all(urns.map((urn) => ctx.graph.loader.load(urn)))
  const kept = urns.filter((_, i) => {
    const entity = loaded[i]
    if (!entity || entity.exists === false) return false
    if (entity.exists === undefined && Object.keys(entity.aspects).length === 0) return false
    return args.includeSoftDeleted === true || entity.aspects.status?.removed !== true
  })
  return {
    start: page.start,
    count: page.count,
    total: page.total,
    assertions: kept.map((urn): EntitySource => ({ urn })),
  }
}

interface RunEventsArgs extends TimeseriesArgs {
  readonly status?: string | null
}

/** DataHub's `AssertionRunEventMapper`. */
function runEvent(v: AspectValue): Mapped {
  const result = obj(v.result)
  const error = obj(result?.error)
  const batch = obj(v.batchSpec)
  return {
    timestampMillis: num(v.timestampMillis) ?? 0,
    lastObservedMillis: num(v.lastObservedMillis),
    assertionUrn: str(v.assertionUrn) ?? '',
    asserteeUrn: str(v.asserteeUrn) ?? '',
    runId: str(v.runId) ?? '',
    status: str(v.status) ?? 'COMPLETE',
    partitionSpec: partitionSpec(v.partitionSpec),
    batchSpec: batch
      ? {
          nativeBatchId: str(batch.nativeBatchId),
          query: str(batch.query),
          limit: num(batch.limit),
          customProperties: stringMapEntries(batch.customProperties),
        }
      : null,
    runtimeContext: obj(v.runtimeContext) ? stringMapEntries(v.runtimeContext) : null,
    result: result
      ? {
          type: str(result.type) ?? 'ERROR',
          rowCount: num(result.rowCount),
          missingCount: num(result.missingCount),
          unexpectedCount: num(result.unexpectedCount),
          actualAggValue: num(result.actualAggValue),
          externalUrl: str(result.externalUrl),
          nativeResults: obj(result.nativeResults) ? stringMapEntries(result.nativeResults) : null,
          error: error
            ? { type: str(error.type) ?? 'UNKNOWN_ERROR', properties: stringMapEntries(error.properties) }
            : null,
          severity: str(result.severity),
        }
      : null,
  }
}

/** How many of `events` completed with result `type`. */
const completedWith = (events: readonly Mapped[], type: string) =>
  events.filter((e) => e.status === 'COMPLETE' && (e.result as Mapped | null)?.type === type).length

/**
 * `Assertion.runEvents(status, startTimeMillis, endTimeMillis, filter, limit)`, as DataHub's
 * AssertionRunEventResolver: the assertion's `assertionRunEvent` values in the range, newest
 * first, at most `limit`, filtered by `status` and `filter.and`; with counts of the returned
 * events that completed as failed, succeeded and errored.
 */
export async function assertionRunEvents(source: EntitySource, args: RunEventsArgs, ctx: CatalogContext) {
  const status = args.status ? [{ field: 'status', values: [args.status] }] : []
  const values = await timeseriesValues(source, 'assertionRunEvent', args, ctx, status)
  const runEvents = values.map(runEvent)
  return {
    total: runEvents.length,
    failed: completedWith(runEvents, 'FAILURE'),
    succeeded: completedWith(runEvents, 'SUCCESS'),
    errored: completedWith(runEvents, 'ERROR'),
    runEvents,
  }
}
