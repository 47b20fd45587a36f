import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Config } from '@catalog/config'
import pino, { type Logger } from 'pino'
import { admissionFromConfig } from './admission.js'
import { type CatalogServer, createServer } from './create-server.js'
import { exitNow } from './exit-now.js'
import { installMetrics, type MetricsRegistry } from './metrics.js'
import { type NativeHeapTrim, startNativeHeapTrim, type TrimLoader } from './native-heap-trim.js'
import { type MallocOptions, type MalloptLoader, setMallocOptions } from './native-malloc-options.js'

export interface Runnable {
  /** Registers the app's plugins on `app` (and its gauges on `metrics`); returns what to close after the server stops. */
  readonly build: (app: CatalogServer, log: Logger, metrics: MetricsRegistry) => Promise<() => Promise<void>>
  readonly name: string
  readonly port: number
  /** Extra fields for the "listening" log line (data dir, backends). */
  readonly describe?: Record<string, unknown>
}

/** How long a graceful shutdown may take before the remaining connections are cut. */
export const SHUTDOWN_DEADLINE_MS = 10_000
/** A keep-alive connection this long without a request is idle: shutdown closes it. */
const IDLE_GRACE_MS = 200
/** Pending connections the kernel queues before accepting (capped by net.core.somaxconn). */
const LISTEN_BACKLOG = 8192
/**
 * glibc malloc's options for every catalog process (see native-malloc-options.ts): 2 arenas,
 * blocks from 256 KiB mapped on their own (glibc would raise that threshold up to 32 MiB), free
 * space at an arena's top given back from 512 KiB. After 1,000,000 ingested aspects malloc held
 * ~76 against ~90 MB (arena and brk heaps plus mapped blocks; bench/ingest-rss.ts with
 * BENCH_RSS_DETAIL=1), RSS 314-322 against 329-336 MB (4 alternated pairs). CPU per single write
 * and per aspect of 100-proposal batches the same (the loads of bench/mem-ingest-cpu.ts, 5
 * pairs); per aspect of 1,000-proposal batches 176 against 167 us (medians of 4 noisy pairs),
 * maybe a cost, maybe noise. 1 MiB / 2 MiB saved
 * only ~7 MB; 128 KiB as much as 256 KiB, but one run measured 9-14 % more CPU per write.
 */
export const MALLOC_OPTIONS: MallocOptions = {
  arenaMax: 2,
  mmapThreshold: 256 * 1024,
  trimThreshold: 512 * 1024,
}

/**
 * Runs an app as a server: pino logger, request timeouts, listen, and a graceful close on
 * SIGTERM/SIGINT (see {@link installShutdown}).
 */
export async function runServer(config: Config, runnable: Runnable): Promise<CatalogServer> {
  const log = pino({ level: config.CATALOG_LOG_LEVEL, base: { app: runnable.name } })
  // Before any worker thread starts and before SQLite allocates: glibc fixes its arena limit early.
  mallocOptionsOf(config, log)
  const app = createServer({
    logger: log,
    bodyLimit: config.CATALOG_MAX_BODY_BYTES,
    logRequests: config.CATALOG_LOG_REQUESTS === 'on',
    admission: admissionFromConfig(config),
  })
  let closeBackends: () => Promise<void> = async () => {}
  const shutdown = installShutdown(app, log)
  const metrics = installMetrics(app, runnable.name)
  try {
    closeBackends = await runnable.build(app, log, metrics)
    // A deep accept queue: a burst of new connections waits to be accepted (and, if need be,
    // answered 429 by admission control) instead of being dropped or reset by the kernel.
    await app.listen({ port: runnable.port, host: config.HOST, backlog: LISTEN_BACKLOG })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : runnable.port
    const url = `http://localhost:${port}`
    const where = runnable.describe?.dataDir ? `, data in ${String(runnable.describe.dataDir)}` : ''
    log.info({ url, port, ...runnable.describe }, `${runnable.name} listening on ${url}${where}`)
  } catch (err) {
    log.fatal({ err }, 'could not start')
    await closeBackends().catch(() => {})
    process.exit(1)
  }
  // Memory that SQLite and the worker threads freed goes back to the OS after a burst of work
  // (glibc keeps it otherwise); once per process, as every app starts through here.
  const trim = nativeHeapTrimOf(config, log)
  shutdown.arm(async () => {
    trim?.close()
    await closeBackends()
  })
  return app
}

/** The native heap trim the settings ask for: started (see native-heap-trim.ts), or none. */
export function nativeHeapTrimOf(
  config: Pick<Config, 'CATALOG_NATIVE_HEAP_TRIM' | 'CATALOG_NATIVE_HEAP_TRIM_BUSY_MS'>,
  log: Logger,
  load?: TrimLoader,
): NativeHeapTrim | undefined {
  if (config.CATALOG_NATIVE_HEAP_TRIM === 'off') {
    log.debug('native heap trim off: CATALOG_NATIVE_HEAP_TRIM=off')
    return undefined
  }
  return startNativeHeapTrim({
    log,
    busyEveryMs: config.CATALOG_NATIVE_HEAP_TRIM_BUSY_MS,
    ...(load ? { load } : {}),
  })
}

/**
 * Sets {@link MALLOC_OPTIONS} unless CATALOG_NATIVE_HEAP_TRIM=off, the switch of the process's
 * native heap tuning (an escape hatch should glibc's allocator misbehave with it). Returns the
 * options set.
 */
export function mallocOptionsOf(
  config: Pick<Config, 'CATALOG_NATIVE_HEAP_TRIM'>,
  log: Logger,
  load?: MalloptLoader,
): MallocOptions {
  if (config.CATALOG_NATIVE_HEAP_TRIM === 'off') return {}
  return setMallocOptions(MALLOC_OPTIONS, { log, ...(load ? { load } : {}) })
}

/** A keep-alive connection as shutdown sees it: its responses in progress, and when the last one ended. */
interface Connection {
  readonly busy: Set<ServerResponse>
  last: number
}

/**
 * Graceful shutdown on SIGTERM/SIGINT, installed before the app listens and armed once it does: stop accepting, answer in-flight requests with
 * `Connection: close` (requests arriving meanwhile get fastify's 503), close idle keep-alive
 * connections at once rather than after their keep-alive timeout, close the backends, exit 0. After `deadlineMs`
 * ({@link SHUTDOWN_DEADLINE_MS}) the remaining connections are cut and the process exits 1; a
 * second signal exits 1 at once. These and a failed close exit through {@link exitNow}: a worker
 * thread stuck in a native call does not hold them up.
 */
export function installShutdown(
  app: CatalogServer,
  log: Logger,
  { deadlineMs = SHUTDOWN_DEADLINE_MS }: { readonly deadlineMs?: number } = {},
): { arm: (closeBackends: () => Promise<void>) => void } {
  let stopping = false
  let closeBackends: () => Promise<void> = async () => {}
  // Per connection: requests in progress (their responses) and when the last one ended, so that
  // shutdown closes only connections that are really idle, not ones whose next request may be on
  // the wire. A closure per response rather than a property added to node's response object: in
  // a CPU profile of `npm run bench -- pipeline`, admission's write count, made the same way,
  // fell from ~40 samples to ~4 per 40,000 requests when its property gave way to a closure.
  const connections = new Map<Socket, Connection>()
  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, { busy: new Set(), last: Date.now() })
    socket.once('close', () => connections.delete(socket))
  })
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket)
    if (!state) return
    state.busy.add(response)
    response.on('close', () => {
      state.busy.delete(response)
      state.last = Date.now()
    })
    // Answers given while stopping close their connection (fastify's listener, before this one,
    // may have answered already: its 503 to a request that arrives while the server closes).
    if (stopping && !response.headersSent) response.setHeader('connection', 'close')
  })
  const closeIdle = () => {
    const now = Date.now()
    for (const [socket, state] of connections) {
      if (state.busy.size === 0 && now - state.last >= IDLE_GRACE_MS) socket.destroy()
    }
  }
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now')
      exitNow(1)
    }
    stopping = true
    // Answers in progress close their connection too (those not yet sending their headers).
    for (const state of connections.values())
      for (const response of state.busy) if (!response.headersSent) response.setHeader('connection', 'close')
    log.info({ signal }, 'shutting down')
    const deadline = setTimeout(() => {
      log.error({ deadlineMs }, 'shutdown deadline passed: cutting the remaining connections')
      app.server.closeAllConnections()
      exitNow(1)
    }, deadlineMs)
    try {
      // Busy connections close after their answer, which carries `Connection: close`; idle
      // keep-alive ones are closed once quiet for IDLE_GRACE_MS, so none lingers for its
      // keep-alive timeout (72 s).
      // node's server.close() calls closeIdleConnections(), which would also cut connections
      // whose next request is on the wire; it gets the quiet-period rule instead.
      app.server.closeIdleConnections = closeIdle
      closeIdle()
      const sweep = setInterval(closeIdle, 50)
      await app.close()
      clearInterval(sweep)
      await closeBackends()
      log.info('stopped')
      process.exit(0)
    } catch (err) {
      log.error({ err }, 'shutdown failed')
      exitNow(1)
    } finally {
      clearTimeout(deadline)
    }
  }
  return {
    arm: (close) => {
      closeBackends = close
      process.on('SIGTERM', () => void stop('SIGTERM'))
      process.on('SIGINT', () => void stop('SIGINT'))
    },
  }
}
