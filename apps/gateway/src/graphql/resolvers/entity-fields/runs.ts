import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import { type EntitySource, type Mapped, num, str } from '../../mappers/common.js'
import { listEntities } from '../users-groups.js'
import { timeseriesField } from './timeseries.js'

/** DataHub's page size of `runs` when `count` is not given. */
const DEFAULT_COUNT = 20

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

interface RunsArgs {
  readonly start?: number | null
  readonly count?: number | null
  readonly direction?: 'INCOMING' | 'OUTGOING' | null
}

/** One page of the runs (data process instances) whose search field `field` holds `urn`, newest first. */
async function runsWith(field: string, urn: string, args: RunsArgs, ctx: CatalogContext) {
  const { urns, ...page } = await listEntities(
    ctx,
    'dataProcessInstance',
    {
      start: args.start,
      count: args.count ?? DEFAULT_COUNT,
      orFilters: [{ and: [{ field, values: [urn] }] }],
    },
    [{ field: 'created', order: 'DESCENDING' }],
  )
  return { ...page, runs: urns.map((u): EntitySource => ({ urn: u })) }
}

/**
 * `runs(start, count)` of a data job or data flow, as DataHub's DataJobRunsResolver: the data
 * process instances whose `parentTemplate` is it, newest first by creation, 20 per page.
 * (DataHub's newer resolver also asks for `hasRunEvents`, a field its search index takes from the
 * run events; run events are time series here, which the search index does not hold.)
 */
export function templateRuns(source: EntitySource, args: RunsArgs, ctx: CatalogContext) {
  return runsWith('parentTemplate', source.urn, args, ctx)
}

/**
 * `Dataset.runs(start, count, direction)`, as DataHub's DatasetRunsResolver: the runs that read
 * the dataset (INCOMING) or wrote it (OUTGOING), newest first.
 */
export function datasetRuns(source: EntitySource, args: RunsArgs, ctx: CatalogContext) {
  return runsWith(args.direction === 'OUTGOING' ? 'outputs' : 'inputs', source.urn, args, ctx)
}

/** DataHub's DataProcessInstanceRunEventMapper. */
function runEvent(v: AspectValue): Mapped {
  const result = obj(v.result)
  return {
    status: str(v.status),
    attempt: num(v.attempt),
    result: result ? { resultType: str(result.type), nativeResultType: str(result.nativeResultType) } : null,
    timestampMillis: num(v.timestampMillis) ?? 0,
    durationMillis: num(v.durationMillis),
  }
}

/**
 * `DataProcessInstance.state(startTimeMillis, endTimeMillis, limit)`, as DataHub's
 * TimeSeriesAspectResolver of `dataProcessInstanceRunEvent`: the run's events, newest first.
 */
export const runState = timeseriesField('dataProcessInstanceRunEvent', runEvent)
