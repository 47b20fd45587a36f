import { vi } from 'vitest'

/** One request the component made: its path and query (decoded), and its JSON body. */
export interface Call {
  readonly path: string
  readonly body: unknown
}

/** What a route answers: a JSON body (status 200), `undefined` (404), or a whole `Response`. */
type Answer = unknown

/**
 * Replaces `fetch` by `answer`, called with the decoded path and parsed body of each request,
 * the way the catalog's REST and GraphQL routes would see them. Returns the calls, in order.
 */
export function fakeApi(answer: (path: string, body: unknown) => Answer): Call[] {
  const calls: Call[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = decodeURIComponent(String(input))
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    calls.push({ path, body })
    const result = answer(path, body)
    if (result instanceof Response) return result
    if (result === undefined) return json({ message: `Not found: ${path}` }, 404)
    return json(result)
  })
  return calls
}

/** A JSON response, as the catalog sends them. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

/** The GraphQL mutations among `calls`: each operation's name and its `input`. */
export function mutations(calls: readonly Call[]): { name: string; input: unknown }[] {
  return calls
    .filter((c) => c.path === '/api/graphql')
    .map((c) => {
      const { query, variables } = c.body as { query: string; variables: { input?: unknown } }
      return { name: /mutation (\w+)/.exec(query)?.[1] ?? query, input: variables.input }
    })
}

/** The catalog's GraphQL endpoint answering every mutation with `true`, or with `error` as DataHub's error body. */
export function fakeGraphql(error?: string): Call[] {
  return fakeApi((path, body) => {
    if (path !== '/api/graphql') return undefined
    const name = /mutation (\w+)/.exec((body as { query: string }).query)?.[1] ?? 'unknown'
    if (error) return { errors: [{ message: error, extensions: { code: 'BAD_REQUEST' } }], data: null }
    return { data: { [name]: true } }
  })
}
