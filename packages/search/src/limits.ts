import { InvalidInputError } from '@catalog/core'

/**
 * Bounds on the work one search request may ask for, checked before any work starts. They sit
 * far above what DataHub's clients send (its UI sends a few words and a handful of filter
 * groups; Elasticsearch behind DataHub refuses a query past 1,024 boolean clauses) and far
 * below what would hold the index for long. Each breach is an {@link InvalidInputError} that
 * names the limit.
 */
export const SEARCH_LIMITS = {
  /** Characters in a query string (search, autocomplete). */
  maxQueryChars: 1_000,
  /** Words, quoted phrases and `field:value` terms in one query. */
  maxQueryTerms: 32,
  /** Nesting of parentheses and NOT/+/- in one query. */
  maxQueryDepth: 16,
  /** `or` groups in one filter. */
  maxFilterGroups: 64,
  /** Criteria in one filter, all groups together. */
  maxFilterCriteria: 256,
  /** Values of one criterion. */
  maxCriterionValues: 1_024,
  /** Values in one filter, all criteria together. */
  maxFilterValues: 4_096,
  /** Characters in one filter value. */
  maxValueChars: 1_000,
} as const

/** Throws when `actual` is over `limit`, naming what was counted. */
export function checkLimit(what: string, actual: number, limit: number): void {
  if (actual > limit) throw new InvalidInputError(`Too many ${what}: ${actual}, the limit is ${limit}`)
}
