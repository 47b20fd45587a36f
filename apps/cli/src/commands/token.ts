import {
  ACCESS_TOKEN_INFO_ASPECT,
  type AccessTokenInfo,
  loadOrCreateSecret,
  parseTtl,
  readTokenInfo,
  storeActiveCheck,
  TokenService,
  tokenDeleteProposal,
  tokenInfoProposal,
} from '@catalog/auth'
import type { Config } from '@catalog/config'
import { InvalidInputError, parseUrn, Registry, ROOT_ACTOR } from '@catalog/core'
import { createMetadataServices, openStore } from '@catalog/metadata-service'
import type { MetadataStore } from '@catalog/store'

/**
 * Token commands work on the store and secret of `CATALOG_DATA_DIR` (or `CATALOG_TOKEN_SECRET`),
 * so they run where the catalog keeps its data; a running server sees a new or revoked token at
 * once (revocations within seconds).
 */
async function withStore<T>(config: Config, fn: (store: MetadataStore) => Promise<T>): Promise<T> {
  const store = await openStore(config)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

export interface CreateOptions {
  actor: string
  ttl: string
  name?: string
  description?: string
}

/** Mints a token and stores its record; returns the token (only the token goes to stdout). */
export function createToken(
  config: Config,
  options: CreateOptions,
): Promise<{ token: string; id: string; info: AccessTokenInfo }> {
  if (parseUrn(options.actor).entityType !== 'corpuser') {
    throw new InvalidInputError(
      `--actor must be a corpuser urn (urn:li:corpuser:<name>), got ${options.actor}`,
    )
  }
  const ttlMs = parseTtl(options.ttl)
  return withStore(config, async (store) => {
    const secret = loadOrCreateSecret(config.CATALOG_DATA_DIR, config.CATALOG_TOKEN_SECRET)
    const tokens = new TokenService(secret.secret, storeActiveCheck(store))
    const issued = tokens.issue({
      actorUrn: options.actor,
      ownerUrn: ROOT_ACTOR,
      ttlMs,
      name: options.name ?? `cli token for ${options.actor}`,
      ...(options.description ? { description: options.description } : {}),
    })
    const ingest = createMetadataServices(new Registry(), store).ingest
    await ingest.ingestProposals([tokenInfoProposal(issued.id, issued.info)], ROOT_ACTOR)
    return { token: issued.accessToken, id: issued.id, info: issued.info }
  })
}

/** The stored tokens (not revoked), oldest first. */
export function listTokens(config: Config): Promise<Array<{ id: string; info: AccessTokenInfo }>> {
  return withStore(config, async (store) => {
    const out: Array<{ id: string; info: AccessTokenInfo }> = []
    for (let start = 0; ; start += 500) {
      const page = await store.scan({
        aspect: ACCESS_TOKEN_INFO_ASPECT,
        urnLike: 'urn:li:dataHubAccessToken:%',
        start,
        limit: 500,
      })
      for (const row of page)
        out.push({
          id: row.urn.slice('urn:li:dataHubAccessToken:'.length),
          info: row.value as unknown as AccessTokenInfo,
        })
      if (page.length < 500) break
    }
    return out.sort((a, b) => a.info.createdAt - b.info.createdAt)
  })
}

/** Revokes a token by id (a hard delete of its entity, as DataHub does). */
export function revokeToken(config: Config, id: string): Promise<void> {
  return withStore(config, async (store) => {
    if (!(await readTokenInfo(store, id))) throw new InvalidInputError(`Access token ${id} does not exist`)
    const ingest = createMetadataServices(new Registry(), store).ingest
    await ingest.ingestProposals([tokenDeleteProposal(id)], ROOT_ACTOR)
  })
}
