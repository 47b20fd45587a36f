import type { CatalogServer } from '@catalog/http-kit'

/** Python's `json.dumps` (separators `", "` and `": "`), as DataHub's emitter serializes aspect values. */
export function pyJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(pyJson).join(', ')}]`
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x)}`)
      .join(', ')}}`
  return JSON.stringify(v)
}

/** `Urn.url_encode`: `urllib.parse.quote(urn, safe="")`. */
export const urlEncode = (urn: string) =>
  encodeURIComponent(urn).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** An answer: status, headers and the parsed JSON body (undefined when empty or not JSON). */
export interface SdkAnswer {
  readonly status: number
  readonly headers: Record<string, unknown>
  // biome-ignore lint/suspicious/noExplicitAny: the client reads answers as untyped JSON, as the Python SDK does
  readonly body: any
}

/**
 * The `requests` session of DataHub's Python SDK (`DataHubGraph`, rest_emitter.py): every call
 * carries the Rest.li protocol header, a JSON content type, the client's user agent and, with a
 * token, `Authorization: Bearer`. Bodies are `json.dumps` text.
 */
export function sdkSession(app: CatalogServer, token?: string, mode = 'SDK') {
  const headers: Record<string, string> = {
    'x-restli-protocol-version': '2.0.0',
    'content-type': 'application/json',
    'user-agent': `DataHub-Client/1.0 (${mode.toLowerCase()}; sdk/graph; 1.3.1) python-requests/2.32.3`,
    'x-datahub-client-mode': mode,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  }
  const call = async (method: 'GET' | 'POST' | 'HEAD', url: string, body?: unknown): Promise<SdkAnswer> => {
    const res = await app.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : pyJson(body) }),
    })
    let parsed: unknown
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined
    } catch {
      parsed = undefined
    }
    return { status: res.statusCode, headers: res.headers, body: parsed }
  }
  return {
    get: (url: string) => call('GET', url),
    head: (url: string) => call('HEAD', url),
    post: (url: string, body: unknown) => call('POST', url, body),
    /** `execute_graphql`: `{query, variables?, operationName?}`; the client reads `data` and raises on `errors`. */
    graphql: (query: string, variables?: Record<string, unknown>) =>
      call('POST', '/api/graphql', { query, ...(variables ? { variables } : {}) }),
  }
}
