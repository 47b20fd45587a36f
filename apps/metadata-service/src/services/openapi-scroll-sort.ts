import { InvalidInputError } from '@catalog/core'

export type SortOrder = 'ASCENDING' | 'DESCENDING'

export interface ScrollSort {
  readonly field: string
  readonly order: SortOrder
}

/** The sort inputs of DataHub's v3 scroll, as given. */
export interface ScrollSortInput {
  /** `sort` (deprecated; default `urn`). */
  readonly sort?: string | undefined
  /** `sortCriteria` query parameters: field names. */
  readonly sortCriteria?: readonly string[] | undefined
  /** `sortOrder` (default ASCENDING), applied to the query parameters' fields. */
  readonly sortOrder?: string | undefined
  /** The body's `sortCriteria` (POST scroll), used when no `sortCriteria` parameter is given. */
  readonly bodyCriteria?:
    | readonly { readonly field: string; readonly order?: string | undefined }[]
    | undefined
}

/**
 * The sort of a scroll, resolved as DataHub's controller does: non-blank `sortCriteria`
 * parameters with `sortOrder`, else the body's criteria, else `sort` (default `urn`). The
 * order must name a `SortOrder` constant (DataHub's `SortOrder.valueOf` message otherwise).
 * The search index sorts by one field, so a second criterion is a 400 (except `urn`, which
 * only repeats the tie-break).
 */
export function resolveScrollSort(input: ScrollSortInput): ScrollSort {
  const order = sortOrder(input.sortOrder ?? 'ASCENDING')
  const params = (input.sortCriteria ?? []).filter((f) => f.trim() !== '')
  const criteria: ScrollSort[] =
    params.length > 0
      ? params.map((field) => ({ field, order }))
      : input.bodyCriteria && input.bodyCriteria.length > 0
        ? input.bodyCriteria.map((c) => ({ field: c.field, order: sortOrder(c.order ?? 'ASCENDING') }))
        : [{ field: input.sort && input.sort.trim() !== '' ? input.sort : 'urn', order }]
  const [first, ...rest] = criteria
  if (!first || first.field.trim() === '') throw new InvalidInputError('A sort criterion has no field')
  const extra = rest.filter((c) => c.field !== 'urn')
  if (extra.length > 0)
    throw new InvalidInputError(
      `Scroll sorts by one field only; got ${criteria.map((c) => c.field).join(', ')}`,
    )
  return first
}

function sortOrder(raw: string): SortOrder {
  if (raw === 'ASCENDING' || raw === 'DESCENDING') return raw
  throw new InvalidInputError(`No enum constant com.linkedin.metadata.query.filter.SortOrder.${raw}`)
}
