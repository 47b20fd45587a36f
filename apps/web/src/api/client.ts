import { getToken } from './token.js'

/** The catalog refused the token (HTTP 401 or a GraphQL `UNAUTHORIZED` error). */
export class UnauthorizedError extends Error {
  constructor(message = 'The token was refused: it is invalid, expired or revoked.') {
    super(message)
    this.name = 'UnauthorizedError'
  }
}

/** Any other failure of a call, with the message the catalog gave. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

interface GraphQLAnswer<T> {
  data?: T
  errors?: { message: string; extensions?: { code?: string } }[]
}

function headers(token: string | null): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json' }
  if (token) h.authorization = `Bearer ${token}`
  return h
}

async function messageOf(res: Response): Promise<string> {
  const text = await res.text()
  try {
    const body = JSON.parse(text) as { message?: string; errors?: { message: string }[] }
    return body.message ?? body.errors?.[0]?.message ?? text
  } catch {
    return text || res.statusText
  }
}

/** Runs a query against the public GraphQL endpoint with the session's token. */
export async function graphql<T>(
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = getToken(),
): Promise<T> {
  const res = await fetch('/api/graphql', {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({ query, variables }),
  })
  if (res.status === 401) throw new UnauthorizedError()
  const text = await res.text()
  let body: GraphQLAnswer<T>
  try {
    body = JSON.parse(text) as GraphQLAnswer<T>
  } catch {
    throw new ApiError(text || res.statusText, res.status)
  }
  const first = body.errors?.[0]
  if (first?.extensions?.code === 'UNAUTHORIZED') throw new UnauthorizedError()
  if (!body.data || (first && !body.data)) throw new ApiError(first?.message ?? res.statusText, res.status)
  if (first) throw new ApiError(first.message, res.status)
  return body.data
}

/** GET of a REST route (`/aspects/...`) with the session's token; null on 404. */
export async function restGet<T>(path: string): Promise<T | null> {
  const res = await fetch(path, { headers: headers(getToken()) })
  if (res.status === 401) throw new UnauthorizedError()
  if (res.status === 404) return null
  if (!res.ok) throw new ApiError(await messageOf(res), res.status)
  return (await res.json()) as T
}

/** POST of a JSON body to a REST route (`/aspects?action=...`) with the session's token. */
export async function restPost<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'POST', headers: headers(getToken()), body: JSON.stringify(body) })
  if (res.status === 401) throw new UnauthorizedError()
  if (!res.ok) throw new ApiError(await messageOf(res), res.status)
  return (await res.json()) as T
}
