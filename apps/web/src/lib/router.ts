import { useEffect, useState } from 'react'

/** Where the app is: the path and query of the browser's location. */
export interface Place {
  readonly path: string
  readonly params: URLSearchParams
}

const EVENT = 'catalog:navigate'

function current(): Place {
  return { path: window.location.pathname, params: new URLSearchParams(window.location.search) }
}

/** Moves to `href` (path and query) without reloading; the state lives in the URL. */
export function navigate(href: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', href)
  else window.history.pushState(null, '', href)
  window.dispatchEvent(new Event(EVENT))
}

/** The current place, updated on navigation and on back/forward. */
export function usePlace(): Place {
  const [place, setPlace] = useState(current)
  useEffect(() => {
    const update = () => setPlace(current())
    window.addEventListener('popstate', update)
    window.addEventListener(EVENT, update)
    return () => {
      window.removeEventListener('popstate', update)
      window.removeEventListener(EVENT, update)
    }
  }, [])
  return place
}

/** The client routes; the gateway answers each with the app's HTML. */
export const routes = {
  login: (next?: string) => (next ? `/login?next=${encodeURIComponent(next)}` : '/login'),
  search: (params: URLSearchParams) => `/search?${params.toString()}`,
  entity: (urn: string) => `/entity?urn=${encodeURIComponent(urn)}`,
  lineage: (urn: string, hops = 1) =>
    `/entity/lineage?urn=${encodeURIComponent(urn)}${hops > 1 ? `&hops=${hops}` : ''}`,
  browse: (type: string, path: readonly string[] = []) =>
    `/browse?type=${encodeURIComponent(type)}${path.map((p) => `&path=${encodeURIComponent(p)}`).join('')}`,
}
