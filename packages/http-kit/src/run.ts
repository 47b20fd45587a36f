import type { Config } from '@catalog/config'
import pino, { type Logger } from 'pino'
import { type CatalogServer, createServer } from './create-server.js'

export interface Runnable {
  /** Registers the app's plugins on `app`; returns what to close after the server stops. */
  readonly build: (app: CatalogServer, log: Logger) => Promise<() => Promise<void>>
  readonly name: string
  readonly port: number
  /** Extra fields for the "listening" log line (data dir, backends). */
  readonly describe?: Record<string, unknown>
}

/**
 * Runs an app as a server: pino logger, request timeouts, listen, and a graceful close on
 * SIGTERM/SIGINT that stops accepting, finishes in-flight requests, then closes backends.
 */
export async function runServer(config: Config, runnable: Runnable): Promise<CatalogServer> {
  const log = pino({ level: config.CATALOG_LOG_LEVEL, base: { app: runnable.name } })
  const app = createServer({ logger: log, bodyLimit: config.CATALOG_MAX_BODY_BYTES })
  let closeBackends: () => Promise<void> = async () => {}
  try {
    closeBackends = await runnable.build(app, log)
    await app.listen({ port: runnable.port, host: config.HOST })
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
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    await app.close()
    await closeBackends()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  return app
}
