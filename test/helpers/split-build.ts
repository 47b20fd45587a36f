import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CatalogServer } from '@catalog/http-kit'
import type { Test } from 'tap'
import { startApp } from './spawn.js'

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

interface InjectOptions {
  readonly method?: string
  readonly url: string
  readonly payload?: unknown
  readonly headers?: Record<string, string>
}

/**
 * `app.inject` over real HTTP to a gateway: the same calls the one-process tests make reach
 * three processes instead, so those tests replay unchanged in split mode.
 */
function remoteApp(base: string): CatalogServer {
  const inject = async (opts: InjectOptions) => {
    const raw = typeof opts.payload === 'string' || Buffer.isBuffer(opts.payload)
    const body =
      opts.payload === undefined ? undefined : raw ? (opts.payload as string) : JSON.stringify(opts.payload)
    const headers: Record<string, string> = {
      ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    }
    const res = await fetch(base + opts.url, {
      method: opts.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
    })
    const text = await res.text()
    return {
      statusCode: res.status,
      body: text,
      payload: text,
      headers: Object.fromEntries(res.headers),
      json: () => JSON.parse(text),
    }
  }
  return { inject } as unknown as CatalogServer
}

/** Fails loudly if a replayed test reaches into in-process parts that split mode does not have. */
function absent<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      throw new Error(`${what}.${String(key)} is not available when tests replay in split mode`)
    },
  })
}

export interface SplitBuilt {
  readonly app: CatalogServer
  readonly dir: string
  readonly adminToken?: string
}

/**
 * The catalog as three processes on the embedded adapters: the metadata service (asking the
 * search service to index each write), the search service (reading the change log), and the
 * gateway forwarding to both. Stopped on teardown.
 */
export async function buildSplit(
  t: Test,
  options: { auth?: boolean; systemClient?: { id: string; secret: string } } = {},
): Promise<SplitBuilt & { store: never; search: never }> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-split-'))
  const auth = options.auth ? 'on' : 'off'
  const [metadataPort, searchPort] = [await freePort(), await freePort()]
  const metadataUrl = `http://127.0.0.1:${metadataPort}`
  const searchUrl = `http://127.0.0.1:${searchPort}`
  const common = {
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: auth,
    CATALOG_TOKEN_SECRET: 'split-mode-test-secret-of-32-characters-or-more',
    ...(options.systemClient
      ? {
          CATALOG_SYSTEM_CLIENT_ID: options.systemClient.id,
          CATALOG_SYSTEM_CLIENT_SECRET: options.systemClient.secret,
        }
      : {}),
  }
  const metadata = await startApp('apps/metadata-service/src/server.ts', {
    ...common,
    CATALOG_METADATA_PORT: String(metadataPort),
    CATALOG_SEARCH_URL: searchUrl,
  })
  t.teardown(() => metadata.stop())
  const search = await startApp('apps/search-service/src/server.ts', {
    ...common,
    CATALOG_SEARCH_PORT: String(searchPort),
    CATALOG_METADATA_URL: metadataUrl,
  })
  t.teardown(() => search.stop())
  const gateway = await startApp('apps/gateway/src/server.ts', {
    ...common,
    PORT: '0',
    CATALOG_METADATA_URL: metadataUrl,
    CATALOG_SEARCH_URL: searchUrl,
  })
  t.teardown(async () => {
    await gateway.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const adminToken = options.auth ? readFileSync(join(dir, 'admin.token'), 'utf8').trim() : undefined
  return {
    app: remoteApp(gateway.url),
    dir,
    ...(adminToken ? { adminToken } : {}),
    store: absent('store'),
    search: absent('search'),
  }
}
