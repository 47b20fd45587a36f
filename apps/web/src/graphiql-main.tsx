import { GraphiQL } from 'graphiql'
import 'graphiql/style.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { getToken } from './api/token.js'

/** GraphiQL on the catalog's own GraphQL endpoint, bundled here: nothing loads from a CDN. */
const DEFAULT_QUERY = `# DataHub's GraphQL API, as this catalog serves it.
# The web UI's token is sent when this tab holds one; else set an Authorization header below.
{
  me { corpUser { urn username } }
}
`

async function fetcher(params: unknown, options?: { headers?: Record<string, unknown> }): Promise<unknown> {
  const token = getToken()
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  for (const [k, v] of Object.entries(options?.headers ?? {})) headers[k.toLowerCase()] = String(v)
  const res = await fetch('/api/graphql', { method: 'POST', headers, body: JSON.stringify(params) })
  return res.json()
}

const root = document.getElementById('graphiql')
if (root)
  createRoot(root).render(
    <StrictMode>
      <GraphiQL fetcher={fetcher} defaultQuery={DEFAULT_QUERY} isHeadersEditorEnabled />
    </StrictMode>,
  )
