import { InvalidInputError, parseUrn } from '@catalog/core'
import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { customProperties, type Mapped, num, str } from '../../mappers/common.js'

export interface TimeseriesArgs {
  readonly startTimeMillis?: number | null
  readonly endTimeMillis?: number | null
  readonly limit?: number | null
  readonly filter?: {
    readonly and: readonly {
      field: string
      values?: string[] | null
      condition?: string | null
      negated?: boolean | null
    }[]
  } | null
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const strings = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null

const UNIT_MILLIS: Readonly<Record<string, number>> = {
  SECOND: 1_000,
  MINUTE: 60_000,
  HOUR: 3_600_000,
  DAY: 86_400_000,
  WEEK: 604_800_000,
}

/** `TimeWindow` from a stored `{startTimeMillis, length: {unit, multiple}}`; null when not fixed-length. */
function timeWindow(v: unknown): Mapped | null {
  const window = obj(v)
  const length = obj(window?.length)
  const start = num(window?.startTimeMillis)
  const unit = UNIT_MILLIS[str(length?.unit) ?? '']
  const multiple = num(length?.multiple)
  return start !== null && unit !== undefined && multiple !== null
    ? { startTimeMillis: start, durationMillis: unit * multiple }
    : null
}

/** `PartitionSpec` of a stored one; null when absent. */
export function partitionSpec(v: unknown): Mapped | null {
  const spec = obj(v)
  if (!spec) return null
  return {
    type: str(spec.type) ?? 'PARTITION',
    partition: str(spec.partition),
    timePartition: timeWindow(spec.timePartition),
  }
}

/** DataHub's DatasetProfileMapper. */
function datasetProfile(v: AspectValue): Mapped {
  return {
    timestampMillis: num(v.timestampMillis) ?? 0,
    rowCount: num(v.rowCount),
    columnCount: num(v.columnCount),
    sizeInBytes: num(v.sizeInBytes),
    partitionSpec: partitionSpec(v.partitionSpec),
    fieldProfiles: Array.isArray(v.fieldProfiles)
      ? v.fieldProfiles
          .map((f) => obj(f))
          .filter((f): f is Json => typeof f?.fieldPath === 'string')
          .map((f) => ({
            fieldPath: f.fieldPath,
            uniqueCount: num(f.uniqueCount),
            uniqueProportion: num(f.uniqueProportion),
            nullCount: num(f.nullCount),
            nullProportion: num(f.nullProportion),
            min: str(f.min),
            max: str(f.max),
            mean: str(f.mean),
            median: str(f.median),
            stdev: str(f.stdev),
            sampleValues: strings(f.sampleValues),
            quantiles: Array.isArray(f.quantiles) ? f.quantiles : null,
            distinctValueFrequencies: Array.isArray(f.distinctValueFrequencies)
              ? f.distinctValueFrequencies
              : null,
          }))
      : null,
  }
}

/** DataHub's OperationMapper. */
function operation(v: AspectValue, urn: string): Mapped {
  return {
    timestampMillis: num(v.timestampMillis) ?? 0,
    lastUpdatedTimestamp: num(v.lastUpdatedTimestamp) ?? 0,
    actor: str(v.actor),
    operationType: str(v.operationType) ?? 'UNKNOWN',
    customOperationType: str(v.customOperationType),
    sourceType: str(v.sourceType),
    numAffectedRows: num(v.numAffectedRows),
    affectedDatasets: strings(v.affectedDatasets),
    partition: str(obj(v.partitionSpec)?.partition),
    customProperties: obj(v.customProperties)
      ? customProperties(v.customProperties, urn).map(({ key, value }) => ({ key, value }))
      : null,
  }
}

/** A time-series criterion, as a field's `filter.and` gives it and the metadata client takes it. */
type Criterion = NonNullable<TimeseriesArgs['filter']>['and'][number]

/**
 * The entity's values of `aspect` as DataHub's TimeSeriesAspectResolver reads them: in the
 * inclusive range, newest first, at most `limit`, filtered by `extra` and then `filter.and`.
 */
export async function timeseriesValues(
  source: EntitySource,
  aspect: string,
  args: TimeseriesArgs,
  ctx: CatalogContext,
  extra: readonly Criterion[] = [],
): Promise<AspectValue[]> {
  if (args.limit !== undefined && args.limit !== null && args.limit <= 0) {
    throw new InvalidInputError(`limit must be positive, got ${args.limit}`)
  }
  const criteria = [...extra, ...(args.filter?.and ?? [])]
  return ctx.client.timeseries({
    urn: source.urn,
    entity: parseUrn(source.urn).entityType,
    aspect,
    ...(typeof args.startTimeMillis === 'number' ? { startTimeMillis: args.startTimeMillis } : {}),
    ...(typeof args.endTimeMillis === 'number' ? { endTimeMillis: args.endTimeMillis } : {}),
    ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
    ...(criteria.length > 0
      ? {
          filter: {
            criteria: criteria.map((c) => ({
              field: c.field,
              values: c.values ?? [],
              ...(c.condition ? { condition: c.condition } : {}),
              ...(c.negated ? { negated: true } : {}),
            })),
          },
        }
      : {}),
  })
}

/** A time-series field: {@link timeseriesValues} of `aspect`, each mapped. */
export function timeseriesField(aspect: string, map: (v: AspectValue, urn: string) => Mapped) {
  return async (source: EntitySource, args: TimeseriesArgs, ctx: CatalogContext) =>
    (await timeseriesValues(source, aspect, args, ctx)).map((v) => map(v, source.urn))
}

/** `datasetProfiles(startTimeMillis, endTimeMillis, filter, limit)`. */
export const datasetProfilesField = timeseriesField('datasetProfile', datasetProfile)

/** `operations(startTimeMillis, endTimeMillis, filter, limit)`. */
export const operationsField = timeseriesField('operation', operation)
