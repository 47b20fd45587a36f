import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { IngestCall } from './records.js'

/** Where the catalog is and how to authenticate, from options, then the environment. */
export interface Target {
  readonly server: string
  readonly token?: string
}

export interface TargetOptions {
  server?: string
  token?: string
}

/**
 * The catalog to talk to: `--server`, else `CATALOG_URL`, else `http://localhost:$PORT` (8080).
 * The token: `--token`, else `CATALOG_TOKEN` or `DATAHUB_GMS_TOKEN`, else the admin token in
 * `$CATALOG_DATA_DIR/admin.token` when this machine holds the catalog's data.
 */
export function targetOf(options: TargetOptions, env: NodeJS.ProcessEnv = process.env): Target {
  const server = (options.server ?? env.CATALOG_URL ?? `http://localhost:${env.PORT ?? '8080'}`).replace(
    /\/+$/,
    '',
  )
  const adminToken = join(resolve(env.CATALOG_DATA_DIR ?? './data'), 'admin.token')
  const token =
    options.token ??
    env.CATALOG_TOKEN ??
    env.DATAHUB_GMS_TOKEN ??
    (existsSync(adminToken) ? readFileSync(adminToken, 'utf8').trim() : undefined)
  return { server, ...(token ? { token } : {}) }
}

/** The outcome of one call: the HTTP status, or the network error. */
export interface CallResult {
  readonly status: number
  readonly message?: string
}

/** Sends one ingest call; a refused call comes back with the server's message. */
export async function send(target: Target, call: IngestCall): Promise<CallResult> {
  let res: Response
  try {
    res = await fetch(target.server + call.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-restli-protocol-version': '2.0.0',
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      },
      body: JSON.stringify(call.body),
      signal: AbortSignal.timeout(120_000),
    })
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code
    return { status: 0, message: `${target.server} did not answer (${cause ?? (err as Error).message})` }
  }
  const text = await res.text()
  if (res.ok) return { status: res.status }
  let message = text
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text
  } catch {}
  return { status: res.status, message: message.slice(0, 500) }
}
