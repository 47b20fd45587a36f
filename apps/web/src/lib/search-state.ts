/** The search page's state, read from and written to the URL: `?q=&page=&f=field:value`. */
export interface SearchState {
  readonly query: string
  readonly page: number
  readonly filters: Map<string, Set<string>>
}

export const PAGE_SIZE = 10

export function readSearchState(params: URLSearchParams): SearchState {
  const filters = new Map<string, Set<string>>()
  for (const f of params.getAll('f')) {
    const at = f.indexOf(':')
    if (at <= 0) continue
    const field = f.slice(0, at)
    const values = filters.get(field) ?? new Set<string>()
    values.add(f.slice(at + 1))
    filters.set(field, values)
  }
  const page = Number.parseInt(params.get('page') ?? '1', 10)
  return { query: params.get('q') ?? '', page: Number.isFinite(page) && page > 0 ? page : 1, filters }
}

export function writeSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams()
  if (state.query) params.set('q', state.query)
  if (state.page > 1) params.set('page', String(state.page))
  for (const [field, values] of state.filters) for (const v of values) params.append('f', `${field}:${v}`)
  return params
}

/** The GraphQL input: one AND group with one criterion per facet (its values OR-ed). */
export function searchInput(state: SearchState) {
  const and = [...state.filters].map(([field, values]) => ({ field, values: [...values] }))
  return {
    query: state.query || '*',
    start: (state.page - 1) * PAGE_SIZE,
    count: PAGE_SIZE,
    ...(and.length > 0 ? { orFilters: [{ and }] } : {}),
  }
}

export function toggled(state: SearchState, field: string, value: string): SearchState {
  const filters = new Map([...state.filters].map(([f, v]) => [f, new Set(v)]))
  const values = filters.get(field) ?? new Set<string>()
  if (values.has(value)) values.delete(value)
  else values.add(value)
  if (values.size > 0) filters.set(field, values)
  else filters.delete(field)
  return { ...state, page: 1, filters }
}
