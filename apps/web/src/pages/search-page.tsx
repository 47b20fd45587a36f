import { graphql } from '../api/client.js'
import { SEARCH } from '../api/queries.js'
import type { SearchAnswer } from '../api/types.js'
import { Facets } from '../components/facets.js'
import { Link } from '../components/link.js'
import { SearchBox } from '../components/search-box.js'
import { Tags } from '../components/tags.js'
import { descriptionOf, displayName, platformName, typeLabel } from '../lib/display.js'
import { navigate, routes } from '../lib/router.js'
import {
  PAGE_SIZE,
  readSearchState,
  type SearchState,
  searchInput,
  toggled,
  writeSearchState,
} from '../lib/search-state.js'
import { useApi } from '../lib/use-api.js'

/** Search across every entity type, with facets and paging; all state in the URL. */
export function SearchPage({ params }: { params: URLSearchParams }) {
  const state = readSearchState(params)
  const go = (next: SearchState) => navigate(routes.search(writeSearchState(next)))
  const { data, error, loading } = useApi(params.toString(), () =>
    graphql<SearchAnswer>(SEARCH, { input: searchInput(state) }),
  )
  const result = data?.searchAcrossEntities
  const pages = result ? Math.max(1, Math.ceil(result.total / PAGE_SIZE)) : 1
  return (
    <div className="search-page">
      <SearchBox initial={state.query} onSearch={(query) => go({ ...state, query, page: 1 })} />
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      <div className="search-body">
        {result && (
          <Facets
            facets={result.facets}
            selected={state.filters}
            onToggle={(field, value) => go(toggled(state, field, value))}
          />
        )}
        <section className="results" aria-busy={loading}>
          {result && (
            <p className="muted" data-testid="result-count">
              {result.total} result{result.total === 1 ? '' : 's'}
              {state.query ? ` for “${state.query}”` : ''}
            </p>
          )}
          <ol>
            {result?.searchResults.map(({ entity }) => (
              <li key={entity.urn} className="result">
                <div className="result-head">
                  <Link href={routes.entity(entity.urn)} className="result-name">
                    {displayName(entity)}
                  </Link>
                  <span className="muted">
                    {typeLabel(entity.type)}
                    {platformName(entity) ? ` · ${platformName(entity)}` : ''}
                  </span>
                </div>
                {descriptionOf(entity) && <p className="description">{descriptionOf(entity)}</p>}
                <Tags tags={entity.globalTags?.tags} />
              </li>
            ))}
          </ol>
          {result && result.total > PAGE_SIZE && (
            <nav className="pager" aria-label="Pages">
              <button
                type="button"
                disabled={state.page <= 1}
                onClick={() => go({ ...state, page: state.page - 1 })}
              >
                Previous
              </button>
              <span>
                Page {state.page} of {pages}
              </span>
              <button
                type="button"
                disabled={state.page >= pages}
                onClick={() => go({ ...state, page: state.page + 1 })}
              >
                Next
              </button>
            </nav>
          )}
        </section>
      </div>
    </div>
  )
}
