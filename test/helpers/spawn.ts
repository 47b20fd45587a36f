import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Preloaded by the processes tests start from the sources: typebox and jose from the bundles `npm install` made. */
export const PREBUNDLED_DEPS = pathToFileURL(join(ROOT, 'test', 'scripts', 'prebundled-deps.mjs')).href

export interface Running {
  readonly url: string
  readonly child: ChildProcess
  /** Everything the process logged so far. */
  readonly output: () => string
  /** SIGTERM, then wait for exit. */
  readonly stop: () => Promise<void>
}

const bundler = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)) as {
  readonly ENTRIES: Record<string, string>
  readonly isStale: () => boolean
}

/** The node flags every catalog server runs with (`npm start` gives them; scripts/server-node-flags.mjs). */
const { SERVER_NODE_FLAGS } = (await import(
  pathToFileURL(join(ROOT, 'scripts', 'server-node-flags.mjs')).href
)) as { readonly SERVER_NODE_FLAGS: readonly string[] }

/** The app `npm start` names for a server entry point, when dist/ has a bundle of it. */
const APPS = new Map(
  ['all-in-one', 'gateway', 'metadata-service', 'search-service'].map((app) => [bundler.ENTRIES[app], app]),
)

/**
 * Starts an app entry point (`apps/gateway/src/all-in-one.ts`, ...) as a real process and
 * resolves with its URL once it logs that it listens. A server runs as `npm start` runs it, from
 * its bundle in dist/, while that is newer than every source (`npm test` and the other suites
 * rebuild it first) and with the node flags `npm start` gives it; otherwise, or with
 * CATALOG_TEST_SOURCES=1, from the sources through tsx.
 */
export function startApp(entry: string, env: Record<string, string>, timeoutMs = 30_000): Promise<Running> {
  const app = APPS.get(entry)
  if (app && process.env.CATALOG_TEST_SOURCES !== '1' && !bundler.isStale()) {
    return startProcess(
      [...SERVER_NODE_FLAGS, join(ROOT, 'scripts', 'start.mjs'), app],
      entry,
      env,
      timeoutMs,
    )
  }
  return startProcess(
    ['--import', 'tsx', '--import', PREBUNDLED_DEPS, join(ROOT, entry)],
    entry,
    env,
    timeoutMs,
  )
}

/**
 * Starts an app as `npm start` does: with its node flags (`nodeFlags`, for a benchmark comparing
 * others), from its bundle in dist/ (scripts/start.mjs), rebuilt if stale.
 */
export function startBundled(
  app: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
  nodeFlags: readonly string[] = SERVER_NODE_FLAGS,
): Promise<Running> {
  return startProcess([...nodeFlags, join(ROOT, 'scripts', 'start.mjs'), app], app, env, timeoutMs)
}

function startProcess(
  args: readonly string[],
  entry: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<Running> {
  const child = spawnNode(args, {
    cwd: ROOT,
    env: { ...process.env, CATALOG_LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return whenListening(child, entry, timeoutMs)
}

/** Where `process-on-spawn` (through which tap's process-info hooks follow every child) keeps its listeners. */
const SPAWN_LISTENERS = Symbol.for('process-on-spawn@*:singletonId')

/**
 * Spawns `node` with `args` as a process outside the test runner's bookkeeping: tap's process-info
 * module hooks (for coverage the suite does not collect) are neither inherited through
 * NODE_OPTIONS nor added again by tap's spawn listener. A catalog server that carried them ran
 * every module it loaded through them (on Node 20, on a hooks thread): its start took 3.5 s of
 * CPU instead of 1.85 s (2.6 s instead of 1.4 s to listen), and it was not the process `npm start`
 * runs.
 */
export function spawnNode(args: readonly string[], options: SpawnOptions): ChildProcess {
  const env = { ...(options.env ?? process.env) }
  const preloads = (env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o && !o.includes('@tapjs/'))
  if (preloads.length > 0) env.NODE_OPTIONS = preloads.join(' ')
  else delete env.NODE_OPTIONS
  const hooks = (globalThis as { [SPAWN_LISTENERS]?: { listeners?: unknown[] } })[SPAWN_LISTENERS]?.listeners
  const held = hooks?.splice(0) ?? []
  try {
    return spawn(process.execPath, args, { ...options, env })
  } finally {
    hooks?.push(...held)
  }
}

/**
 * Resolves once `child`, a catalog server, logs the URL it listens on; rejects if it exits
 * before, or (killing it) after `timeoutMs`. With `keepOutput` false its output is no longer
 * collected once it listens, only drained: a long benchmark run's logs are not kept.
 */
export function whenListening(
  child: ChildProcess,
  entry: string,
  timeoutMs: number,
  keepOutput = true,
): Promise<Running> {
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${entry} did not start within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /"url":"(http:\/\/localhost:\d+)"/.exec(output)
      if (!match?.[1]) return
      clearTimeout(timer)
      if (!keepOutput) {
        for (const stream of [child.stdout, child.stderr]) {
          stream?.removeListener('data', onData)
          stream?.resume()
        }
      }
      resolve({
        url: match[1].replace('localhost', '127.0.0.1'),
        child,
        output: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${entry} exited with ${code} before listening:\n${output}`))
    })
  })
}

/**
 * The metadata service and a gateway forwarding to it, as two processes on `dataDir`
 * (search routes go to the metadata service too, which has none), stopped on teardown.
 */
export async function startMetadataBehindGateway(
  t: { teardown: (fn: () => Promise<void>) => void },
  dataDir: string,
  auth: 'on' | 'off',
): Promise<{ metadata: Running; gateway: Running }> {
  const metadata = await startApp('apps/metadata-service/src/server.ts', {
    CATALOG_METADATA_PORT: '0',
    CATALOG_DATA_DIR: dataDir,
    CATALOG_AUTH: auth,
  })
  t.teardown(() => metadata.stop())
  const gateway = await startApp('apps/gateway/src/server.ts', {
    PORT: '0',
    CATALOG_METADATA_URL: metadata.url,
    CATALOG_SEARCH_URL: metadata.url,
    CATALOG_DATA_DIR: dataDir,
    CATALOG_AUTH: auth,
  })
  t.teardown(() => gateway.stop())
  return { metadata, gateway }
}

/** A running all-in-one catalog on a fresh data dir, and a JSON POST to it. */
export interface Catalog {
  readonly app: Running
  readonly dir: string
  readonly post: (path: string, body: unknown) => Promise<Response>
}

/**
 * Starts the all-in-one catalog as its own process, authentication off, on a fresh data dir
 * named after `name`; it is stopped and the dir removed on teardown. `env` adds or overrides settings.
 */
export async function startCatalog(
  t: { teardown: (fn: () => Promise<void>) => void },
  name: string,
  env: Record<string, string> = {},
): Promise<Catalog> {
  const dir = mkdtempSync(join(tmpdir(), `catalog-${name}-`))
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'off',
    ...env,
  })
  t.teardown(async () => {
    await app.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const post = (path: string, body: unknown) =>
    fetch(app.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  return { app, dir, post }
}
