import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootstrapAuth, storeActiveCheck, type TokenService } from '@catalog/auth'
import { Registry } from '@catalog/core'
import { gateway } from '@catalog/gateway'
import { type CatalogServer, createServer } from '@catalog/http-kit'
import { createMetadataServices } from '@catalog/metadata-service'
import {
  createSearchServices,
  SearchSchema,
  type SearchServices,
  storeChangeSource,
} from '@catalog/search-service'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import type { MetadataStore } from '@catalog/store'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import pino from 'pino'
import type { Test } from 'tap'
import { type ExampleName, GOLDEN_DIR, loadExample, toIngestCall } from './examples.js'
import { buildSplit } from './split-build.js'

/** One registered route: method, path with `:params` and `*`, and its Rest.li action if constrained. */
export interface RouteEntry {
  readonly method: string
  readonly path: string
  readonly action?: string
}

export interface Built {
  readonly app: CatalogServer
  /** Every route the app registered (HEAD left out), recorded as they were added. */
  readonly routes: readonly RouteEntry[]
  readonly store: MetadataStore
  readonly dir: string
  readonly registry: Registry
  /** The search index and its change-log sync (`search.sync.catchUp()` applies the log now). */
  readonly search: SearchServices
  /** With `auth: true`: verifies and mints bearer tokens. */
  readonly tokens?: TokenService
  /** With `auth: true`: the admin token (root user) written to `<dir>/admin.token`. */
  readonly adminToken?: string
}

const registry = new Registry()
const searchSchema = new SearchSchema(registry)

/**
 * The one-process catalog on embedded adapters in a temp dir, closed on teardown. With
 * CATALOG_E2E_SPLIT=1 (see test/split-replay.ts, run by `npm run test:split`) it is three processes behind a gateway.
 */
export async function build(
  t: Test,
  options: { dir?: string; auth?: boolean; systemClient?: { id: string; secret: string } } = {},
): Promise<Built> {
  if (process.env.CATALOG_E2E_SPLIT === '1' && !options.dir) {
    return { ...(await buildSplit(t, options)), registry } as unknown as Built
  }
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'catalog-test-'))
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  // Search as in all-in-one: its own file, the log tail applied at start, every write applied
  // before the ingest call returns, and a poll for writes made around the services (restate).
  const index = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema: searchSchema })
  const search = createSearchServices(searchSchema, index, storeChangeSource(store))
  await search.sync.catchUp()
  search.sync.start(200)
  const app = createServer()
  const routes: RouteEntry[] = []
  app.addHook('onRoute', (route) => {
    const action = (route.constraints as { action?: string } | undefined)?.action
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, path: route.url, ...(action ? { action } : {}) })
  })
  // Auth stays off unless a test asks for it (`auth: true`), as with CATALOG_AUTH=off.
  const auth = options.auth
    ? await bootstrapAuth({
        dataDir: dir,
        enabled: true,
        isActive: storeActiveCheck(store),
        ingest: (proposals, actor) =>
          createMetadataServices(registry, store).ingest.ingestProposals(proposals, actor),
        log: pino({ level: 'silent' }),
        ...(options.systemClient ? { systemClient: options.systemClient } : {}),
      })
    : undefined
  await app.register(gateway, {
    backends: {
      kind: 'embedded',
      metadata: createMetadataServices(registry, store, async (seq) => search.sync.noteWrite(seq), {
        search: search.search,
      }),
      search,
    },
    ...(auth ? { auth: { enabled: true, tokens: auth.tokens } } : {}),
  })
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await search.sync.stop()
    await index.close()
    await store.close()
    if (!options.dir) rmSync(dir, { recursive: true, force: true })
  })
  const adminToken = auth?.adminTokenFile ? readFileSync(auth.adminTokenFile, 'utf8').trim() : undefined
  return {
    app,
    routes,
    store,
    dir,
    registry,
    search,
    ...(auth ? { tokens: auth.tokens, adminToken } : {}),
  }
}

/** Sends one example record as DataHub's Python REST emitter does. */
export async function ingestRecord(app: CatalogServer, record: Record<string, unknown>) {
  const call = toIngestCall(record)
  const res = await app.inject({
    method: 'POST',
    url: call.url,
    payload: call.body,
    headers: { 'x-restli-protocol-version': '2.0.0' },
  })
  return { call, res }
}

/** Ingests every record of the example files through the endpoint its kind uses; fails on any non-2xx. */
export async function ingestExamples(app: CatalogServer, ...names: ExampleName[]): Promise<number> {
  let n = 0
  for (const name of names) {
    for (const record of loadExample(name)) {
      const { call, res } = await ingestRecord(app, record)
      if (res.statusCode !== 200)
        throw new Error(`ingest of ${call.urn} from ${name} failed: ${res.statusCode} ${res.body}`)
      n++
    }
  }
  return n
}

/** Ingests every record of one of DataHub's golden files (`test/fixtures/datahub/golden/`); fails on any non-2xx. */
export async function ingestGolden(app: CatalogServer, file: string): Promise<void> {
  for (const record of JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as Array<
    Record<string, unknown>
  >) {
    const { call, res } = await ingestRecord(app, record)
    if (res.statusCode !== 200)
      throw new Error(`ingest of ${call.urn} from ${file} failed: ${res.statusCode} ${res.body}`)
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies ad hoc
export type Json = any

/** GET helper returning status and parsed JSON. */
export async function getJson(app: CatalogServer, url: string): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method: 'GET', url })
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined }
}

/** POST helper returning status and parsed JSON (undefined for an empty body). */
/**
 * A POST as DataHub's Python client sends it (`DataHubGraph._post_generic`, the CLI's session):
 * `json.dumps` of the payload with the Rest.li 2.0 protocol header; status and parsed JSON back.
 */
export async function postRestli(
  app: CatalogServer,
  url: string,
  payload: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
  })
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined }
}

export async function postJson(
  app: CatalogServer,
  url: string,
  payload: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> })
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined }
}
