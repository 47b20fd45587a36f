import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CatalogError, ROOT_ACTOR } from '@catalog/core'
import type { Logger } from 'pino'
import { ensureDefaultPolicies } from './authorizer/default-records.js'
import { loadOrCreateSecret } from './secret.js'
import { type BootstrapProposal, tokenInfoProposal } from './token-records.js'
import { type ActiveCheck, type SystemClient, TokenService } from './token-service.js'

/** File in the data dir holding the bootstrap admin token. */
export const ADMIN_TOKEN_FILE = 'admin.token'
/** Lifetime of the bootstrap admin token; a start after it expired writes a new one. */
export const ADMIN_TOKEN_TTL_MS = 365 * 86_400_000

export interface BootstrapOptions {
  readonly dataDir: string
  /** CATALOG_TOKEN_SECRET, when set. */
  readonly configuredSecret?: string
  /** Whether bearer tokens are required (CATALOG_AUTH=on): only then is an admin token written. */
  readonly enabled: boolean
  readonly isActive: ActiveCheck
  /** Stores token entities through the ingest path. */
  readonly ingest: (proposals: readonly BootstrapProposal[], actor: string) => Promise<unknown>
  readonly log: Logger
  /** DataHub's system client credentials (CATALOG_SYSTEM_CLIENT_ID / _SECRET), when configured. */
  readonly systemClient?: SystemClient
  /** CATALOG_SECRET_ENCRYPTION_KEY, when set (default: the signing secret). */
  readonly encryptionKey?: string
}

export interface BootstrappedAuth {
  readonly tokens: TokenService
  /** Path of the admin token, when auth is on. */
  readonly adminTokenFile?: string
}

/**
 * Prepares authentication at start: loads or creates the signing secret and, with auth on,
 * makes sure `<dataDir>/admin.token` holds a valid token for the root user (written mode
 * 0600 on first start, replaced when it expired, was revoked or the secret changed), then
 * logs where it is.
 */
export async function bootstrapAuth(options: BootstrapOptions): Promise<BootstrappedAuth> {
  const { log } = options
  const secret = loadOrCreateSecret(options.dataDir, options.configuredSecret)
  if (secret.created) log.info({ file: secret.file }, `created the token signing secret at ${secret.file}`)
  const tokens = new TokenService(secret.secret, options.isActive, {
    ...(options.systemClient ? { systemClient: options.systemClient } : {}),
    ...(options.encryptionKey ? { encryptionKey: options.encryptionKey } : {}),
  })
  if (!options.enabled) return { tokens }
  // DataHub's default policies and roles, stored on first start (each only if absent).
  const created = await ensureDefaultPolicies(options.ingest, ROOT_ACTOR)
  if (created > 0) log.info({ created }, `stored ${created} default policies and roles`)
  const file = join(options.dataDir, ADMIN_TOKEN_FILE)
  const existing = readToken(file)
  if (existing !== undefined) {
    try {
      await tokens.authenticate(`Bearer ${existing}`)
      log.info({ adminTokenFile: file }, `admin token in ${file}`)
      return { tokens, adminTokenFile: file }
    } catch (err) {
      if (!(err instanceof CatalogError) || err.kind !== 'unauthorized') throw err
      log.warn(
        { adminTokenFile: file, reason: err.message },
        'the admin token is no longer valid; writing a new one',
      )
    }
  }
  const issued = tokens.issue({
    actorUrn: ROOT_ACTOR,
    ownerUrn: ROOT_ACTOR,
    ttlMs: ADMIN_TOKEN_TTL_MS,
    name: 'admin (written at first start)',
    description: `Bootstrap admin token, stored in ${file}`,
  })
  await options.ingest([tokenInfoProposal(issued.id, issued.info)], ROOT_ACTOR)
  writeFileSync(file, `${issued.accessToken}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  log.info(
    { adminTokenFile: file, tokenId: issued.id },
    `wrote an admin token to ${file}; send it as 'Authorization: Bearer <token>'`,
  )
  return { tokens, adminTokenFile: file }
}

function readToken(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim()
    return text.length > 0 ? text : undefined
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
}
