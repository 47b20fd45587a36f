import { InvalidInputError } from '@catalog/core'
import type { LineageAnswer } from '../clients/metadata-client.js'
import type { FacetFilter, OrFilters } from './search-input.js'

/** DataHub's lineage facet and filter name: hops from the start entity. */
export const DEGREE = 'degree'
/** The degree facet's values, in DataHub's order: `3+` is three hops or more. */
const DEGREE_VALUES = ['1', '2', '3+'] as const

/** Hops asked of the metadata service when no degree filter bounds them; it cuts them to its cap. */
const ALL_HOPS = 1000

export type Direction = 'UPSTREAM' | 'DOWNSTREAM'

/** The time-range and hop flags of DataHub's lineage inputs. */
export interface LineageFlags {
  readonly startTimeMillis?: number | null
  readonly endTimeMillis?: number | null
  readonly ignoreAsHops?: readonly unknown[] | null
  readonly entitiesExploredPerHopLimit?: number | null
}

/**
 * Lineage edges here carry no time of their own, so a time range cannot be honoured; nor can
 * hops through ignored entity types. Both are refused rather than answered unfiltered.
 */
export function refuseUnsupportedFlags(input: LineageFlags, flags?: LineageFlags | null): void {
  for (const f of [input, flags ?? {}]) {
    if (f.startTimeMillis != null || f.endTimeMillis != null) {
      throw new InvalidInputError(
        'Lineage time ranges (startTimeMillis, endTimeMillis) are not supported by this catalog yet',
      )
    }
    if (f.ignoreAsHops?.length) {
      throw new InvalidInputError('lineageFlags.ignoreAsHops is not supported by this catalog yet')
    }
  }
}

/** The filter groups in effect: `orFilters` win over the legacy `filters`, as for search. */
export function filterGroups(orFilters: OrFilters, filters?: readonly FacetFilter[] | null): FacetFilter[][] {
  const groups = (orFilters ?? []).map((g) => [...(g.and ?? [])])
  if (groups.length === 0 && filters?.length) groups.push([...filters])
  return groups
}

/** The degree values asked for, over every group (DataHub collects them the same way). */
function degreeValues(groups: readonly FacetFilter[][]): Set<string> {
  const values = new Set<string>()
  for (const c of groups.flat()) if (c.field === DEGREE) for (const v of c.values ?? []) values.add(v)
  for (const v of values) {
    if (!(DEGREE_VALUES as readonly string[]).includes(v)) {
      throw new InvalidInputError(`${v} is not a valid filter value for degree filters`)
    }
  }
  return values
}

/**
 * The hops to walk and the degree test of the `degree` filter: `1` and `2` bound the walk,
 * `3+` (or no degree filter) walks as far as the metadata service allows.
 */
export function degreeFilter(groups: readonly FacetFilter[][]): {
  maxHops: number
  accepts: (degree: number) => boolean
} {
  const values = degreeValues(groups)
  if (values.size === 0) return { maxHops: ALL_HOPS, accepts: () => true }
  const maxHops = values.has('3+') ? ALL_HOPS : values.has('2') ? 2 : 1
  return { maxHops, accepts: (d) => values.has(degreeValue(d)) }
}

/** The filter groups without their degree criteria (the search index knows no degree). */
export function withoutDegree(groups: readonly FacetFilter[][]): FacetFilter[][] {
  return groups.map((g) => g.filter((c) => c.field !== DEGREE)).filter((g) => g.length > 0)
}

function degreeValue(degree: number): string {
  return degree >= 3 ? '3+' : String(degree)
}

/** DataHub's `degree` facet over the results, values with no result left out. */
export function degreeFacet(degrees: readonly number[]) {
  const counts = new Map<string, number>()
  for (const d of degrees) counts.set(degreeValue(d), (counts.get(degreeValue(d)) ?? 0) + 1)
  return {
    field: DEGREE,
    displayName: 'Degree',
    entity: null,
    aggregations: DEGREE_VALUES.filter((v) => counts.has(v)).map((v) => ({
      value: v,
      count: counts.get(v) ?? 0,
      entity: null,
      displayName: null,
    })),
  }
}

/**
 * Whether the walk looked past an entity at `degree`: always when it ran to the end; below the
 * hop cap when only the cap stopped it; unknown (so false) when a node or time budget did.
 */
export function explored(answer: LineageAnswer, degree: number): boolean {
  if (!answer.isPartial) return true
  return answer.partialReason === 'MAX_HOPS' && degree < answer.maxHops
}
