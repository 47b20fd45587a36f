import {
  type AspectSpec,
  type EntitySpec,
  InvalidInputError,
  type Registry,
  ValidationError,
} from '@catalog/core'
import type {
  MetadataStore,
  TimeseriesCondition,
  TimeseriesCriterion,
  TimeseriesFilter,
  TimeseriesSort,
} from '@catalog/store'
import {
  type CriterionInput,
  type FilterInput,
  TIMESERIES_MAX_LIMIT,
  type TimeseriesValuesBody,
  type TimeseriesValuesResponse,
} from '../schemas/timeseries.js'

const CONDITIONS: ReadonlySet<string> = new Set<TimeseriesCondition>([
  'EQUAL',
  'IN',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'EXISTS',
])
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/
const MAX_CRITERIA = 50

/** A time-series index resolved against the registry. */
export interface ResolvedIndex {
  readonly entity: EntitySpec
  readonly aspect: AspectSpec
}

/**
 * Resolves an entity type and a time-series aspect: unknown names are 422 (as for ingest),
 * an aspect that is not time-series is 400. With `ignoreCase`, `datasetprofile` (the
 * lower-case name DataHub's index names carry) finds `datasetProfile`.
 */
export function resolveTimeseriesIndex(
  registry: Registry,
  entityType: string,
  aspectName: string,
  options: { ignoreCase?: boolean } = {},
): ResolvedIndex {
  const entity = registry.entity(entityType)
  let name = aspectName
  if (options.ignoreCase && !registry.hasAspect(entity, aspectName)) {
    name = entity.aspects.find((a) => a.toLowerCase() === aspectName.toLowerCase()) ?? aspectName
  }
  const aspect = registry.aspect(entity, name)
  if (!aspect.timeseries) {
    throw new InvalidInputError(`Aspect ${aspect.name} of entity ${entity.name} is not a time-series aspect`)
  }
  return { entity, aspect }
}

/** `getTimeseriesAspectValues`: time-series values of one entity, newest first. */
export class TimeseriesService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  /** Values in the inclusive range, filtered and limited; the response echoes the limit. */
  async values(req: TimeseriesValuesBody): Promise<TimeseriesValuesResponse> {
    const { entity, aspect } = resolveTimeseriesIndex(this.registry, req.entity, req.aspect)
    let ref: ReturnType<Registry['resolveUrn']>
    try {
      ref = this.registry.resolveUrn(req.urn)
    } catch (err) {
      if (err instanceof ValidationError) throw new InvalidInputError(err.message)
      throw err
    }
    if (ref.entity.name !== entity.name) {
      throw new InvalidInputError(`Urn ${req.urn} is not a ${entity.name} urn`)
    }
    const { startTimeMillis: start, endTimeMillis: end } = req
    if (start !== undefined && start < 0) throw new InvalidInputError('startTimeMillis must not be negative')
    if (end !== undefined && end < 0) throw new InvalidInputError('endTimeMillis must not be negative')
    if (start !== undefined && end !== undefined && start > end) {
      throw new InvalidInputError(`startTimeMillis (${start}) is after endTimeMillis (${end})`)
    }
    const limit = req.limit ?? TIMESERIES_MAX_LIMIT
    if (limit <= 0 || limit > TIMESERIES_MAX_LIMIT) {
      throw new InvalidInputError(`limit must be between 1 and ${TIMESERIES_MAX_LIMIT}, got ${limit}`)
    }
    const filter = toFilter(req.filter)
    const sort = req.sort ? toSort(req.sort) : undefined
    const rows = await this.store.timeseries({
      urn: ref.urn,
      entityType: entity.name,
      aspect: aspect.name,
      ...(start !== undefined ? { startTimeMillis: start } : {}),
      ...(end !== undefined ? { endTimeMillis: end } : {}),
      limit: req.latestValue ? 1 : limit,
      ...(filter ? { filter } : {}),
      ...(sort ? { sort } : {}),
    })
    return {
      entityName: entity.name,
      aspectName: aspect.name,
      ...(start !== undefined ? { startTimeMillis: start } : {}),
      ...(end !== undefined ? { endTimeMillis: end } : {}),
      limit: req.latestValue ? 1 : limit,
      values: rows.map((r) => ({
        aspect: { value: JSON.stringify(r.value), contentType: 'application/json' },
        ...(r.systemMetadata ? { systemMetadata: r.systemMetadata } : {}),
      })),
    }
  }
}

/** DataHub's `Filter`: `or` groups win over the legacy `criteria` list. */
function toFilter(input: FilterInput | undefined): TimeseriesFilter | undefined {
  if (!input) return undefined
  const groups = input.or ? input.or.map((g) => g.and) : input.criteria ? [input.criteria] : []
  if (groups.reduce((n, g) => n + g.length, 0) > MAX_CRITERIA) {
    throw new InvalidInputError(`a filter holds at most ${MAX_CRITERIA} criteria`)
  }
  const out = groups.map((g) => g.map(toCriterion))
  return out.length > 0 ? out : undefined
}

function toCriterion(c: CriterionInput): TimeseriesCriterion {
  const condition = (c.condition ?? 'EQUAL').toUpperCase()
  if (!CONDITIONS.has(condition)) {
    throw new InvalidInputError(
      `Unsupported filter condition ${c.condition}; use one of ${[...CONDITIONS].join(', ')}`,
    )
  }
  const values = c.values && c.values.length > 0 ? c.values : c.value !== undefined ? [c.value] : []
  if (condition !== 'EXISTS' && values.length === 0) {
    throw new InvalidInputError(`Filter criterion on '${c.field}' needs a value`)
  }
  return {
    field: fieldOf(c.field),
    condition: condition as TimeseriesCondition,
    values,
    ...(c.negated ? { negated: true } : {}),
  }
}

function toSort(s: { field: string; order?: 'ASCENDING' | 'DESCENDING' }): TimeseriesSort {
  return { field: fieldOf(s.field), order: s.order ?? 'ASCENDING' }
}

/** A dotted path into the value; `@timestamp` (DataHub's index field) is `timestampMillis`. */
function fieldOf(field: string): string {
  const name = field === '@timestamp' ? 'timestampMillis' : field
  if (!FIELD.test(name)) {
    throw new InvalidInputError(
      `Invalid time-series field '${field}': use a dotted path such as eventGranularity.unit`,
    )
  }
  return name
}
