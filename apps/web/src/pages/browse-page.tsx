import { graphql } from '../api/client.js'
import { BROWSE } from '../api/queries.js'
import type { BrowseAnswer } from '../api/types.js'
import { Link } from '../components/link.js'
import { displayName, platformName, typeLabel } from '../lib/display.js'
import { navigate, routes } from '../lib/router.js'
import { useApi } from '../lib/use-api.js'

/** The entity types with browse paths offered here (DataHub's browsable types). */
const TYPES = [
  'DATASET',
  'DASHBOARD',
  'CHART',
  'DATA_FLOW',
  'DATA_JOB',
  'ML_MODEL',
  'ML_FEATURE_TABLE',
] as const
const PAGE = 50

/** Browse by browse path (`browse`): the groups one level down, then the entities at the path. */
export function BrowsePage({ params }: { params: URLSearchParams }) {
  const type = params.get('type') ?? 'DATASET'
  const path = params.getAll('path')
  const start = Number(params.get('start')) || 0
  const { data, error, loading } = useApi(`browse:${type}:${path.join('/')}:${start}`, () =>
    graphql<BrowseAnswer>(BROWSE, { input: { type, path, start, count: PAGE } }),
  )
  const answer = data?.browse
  return (
    <section className="browse" aria-label="Browse">
      <div className="lineage-toolbar">
        <label>
          Entity type{' '}
          <select value={type} onChange={(e) => navigate(routes.browse(e.target.value))}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {typeLabel(t)}
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Browse path" className="crumbs">
          <Link href={routes.browse(type)}>{typeLabel(type)}</Link>
          {path.map((p, i) => (
            <span key={path.slice(0, i + 1).join('/')}>
              {' / '}
              <Link href={routes.browse(type, path.slice(0, i + 1))}>{p}</Link>
            </span>
          ))}
        </nav>
        {answer && <span className="muted">{answer.metadata.totalNumEntities} entities below</span>}
      </div>
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {loading && !answer && <p className="muted">Loading…</p>}
      {answer && (
        <>
          <ul data-testid="browse-groups">
            {answer.groups.map((g) => (
              <li key={g.name}>
                📁 <Link href={routes.browse(type, [...path, g.name])}>{g.name}</Link>{' '}
                <span className="count">{g.count}</span>
              </li>
            ))}
          </ul>
          <ul data-testid="browse-entities">
            {answer.entities.map((e) => (
              <li key={e.urn}>
                <Link href={routes.entity(e.urn)}>{displayName(e)}</Link>{' '}
                <span className="muted">{platformName(e) ?? ''}</span>
              </li>
            ))}
          </ul>
          {answer.groups.length === 0 && answer.entities.length === 0 && (
            <p className="muted">Nothing here.</p>
          )}
          {(start > 0 || start + answer.count < answer.total) && (
            <div className="pager">
              <button
                type="button"
                disabled={start === 0}
                onClick={() => navigate(pageHref(params, start - PAGE))}
              >
                Previous
              </button>
              <span>
                {start + 1}–{start + answer.count} of {answer.total}
              </span>
              <button
                type="button"
                disabled={start + answer.count >= answer.total}
                onClick={() => navigate(pageHref(params, start + PAGE))}
              >
                Next
              </button>
            </div>
          )}
        </>
      )}
    </section>
  )
}

function pageHref(params: URLSearchParams, start: number): string {
  const next = new URLSearchParams(params)
  next.set('start', String(Math.max(0, start)))
  return `/browse?${next.toString()}`
}
