import { lazy, Suspense, useEffect } from 'react'
import { clearToken, getToken } from './api/token.js'
import { Link } from './components/link.js'
import { navigate, routes, usePlace } from './lib/router.js'
import { BrowsePage } from './pages/browse-page.js'
import { EntityPage } from './pages/entity-page.js'
import { LoginPage } from './pages/login-page.js'
import { SearchPage } from './pages/search-page.js'

// The graph libraries load only when a lineage view opens.
const LineagePage = lazy(() => import('./pages/lineage-page.js'))

/** The shell: header, and the page the URL names; every page but login needs a token. */
export function App() {
  const place = usePlace()
  const token = getToken()
  const needsLogin = place.path !== '/login' && !token
  useEffect(() => {
    if (needsLogin) navigate(routes.login(place.path + window.location.search), true)
  }, [needsLogin, place.path])
  if (place.path === '/login') return <LoginPage params={place.params} />
  if (needsLogin) return null
  const urn = place.path.startsWith('/entity') ? (place.params.get('urn') ?? undefined) : undefined
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/search" className="brand">
          Catalog
        </Link>
        <nav aria-label="Main" className="main-nav">
          <Link href="/search">Search</Link> <Link href="/browse">Browse</Link>{' '}
          <a href="/api/graphiql">GraphiQL</a>
        </nav>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            clearToken()
            navigate(routes.login())
          }}
        >
          Log out
        </button>
      </header>
      <main>
        {urn && place.path === '/entity/lineage' ? (
          <Suspense fallback={<p className="muted">Loading the lineage view…</p>}>
            <LineagePage urn={urn} hops={Math.max(1, Math.min(3, Number(place.params.get('hops')) || 1))} />
          </Suspense>
        ) : urn ? (
          <EntityPage urn={urn} />
        ) : place.path === '/browse' ? (
          <BrowsePage params={place.params} />
        ) : place.path === '/' || place.path === '/search' ? (
          <SearchPage params={place.params} />
        ) : (
          <p className="error">No page at {place.path}.</p>
        )}
      </main>
    </div>
  )
}
