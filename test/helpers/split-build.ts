import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CatalogServer } from '@catalog/http-kit'
import type { Test } from 'tap'
import { startApp } from './spawn.js'

/** Whether nothing listens on `port` right now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createNetServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * A port nobody listens on right now, below Linux's ephemeral range (32768 and up), so the
 * outgoing connections of other tests cannot take it between this check and the listen.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await isFree(port)) return port
  }
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
/**
 * The metadata and search services, each told the other's address before either listens.
 * A port taken in between (by a process outside this test) fails the start with EADDRINUSE:
 * both are stopped and started again on new ports.
 */
export async function startServices(
  t: Test,
  common: Record<string, string>,
  pickPort: () => Promise<number> = freePort,
): Promise<{ metadataUrl: string; searchUrl: string }> {
  for (let attempt = 1; ; attempt++) {
    const [metadataPort, searchPort] = [await pickPort(), await pickPort()]
    const metadataUrl = `http://127.0.0.1:${metadataPort}`
    const searchUrl = `http://127.0.0.1:${searchPort}`
    let metadata: Awaited<ReturnType<typeof startApp>> | undefined
    try {
      metadata = await startApp('apps/metadata-service/src/server.ts', {
        ...common,
        CATALOG_METADATA_PORT: String(metadataPort),
        CATALOG_SEARCH_URL: searchUrl,
      })
      const search = await startApp('apps/search-service/src/server.ts', {
        ...common,
        CATALOG_SEARCH_PORT: String(searchPort),
        CATALOG_METADATA_URL: metadataUrl,
      })
      const started = metadata
      t.teardown(() => started.stop())
      t.teardown(() => search.stop())
      return { metadataUrl, searchUrl }
    } catch (err) {
      await metadata?.stop()
      if (attempt === 3 || !String(err).includes('EADDRINUSE')) throw err
    }
  }
}

export async function buildSplit(
  t: Test,
  options: { auth?: boolean; systemClient?: { id: string; secret: string } } = {},
): Promise<SplitBuilt & { store: never; search: never }> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-split-'))
  const auth = options.auth ? 'on' : 'off'
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
  const { metadataUrl, searchUrl } = await startServices(t, common)
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
