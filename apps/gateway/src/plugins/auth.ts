import { httpActiveCheck, loadOrCreateSecret, TokenService } from '@catalog/auth'
import { type Config, systemClientOf } from '@catalog/config'
import type { Logger } from 'pino'
import type { GatewayAuth } from '../app.js'

/**
 * Authentication of a gateway running apart from the metadata service: the signing secret
 * comes from CATALOG_TOKEN_SECRET or the secret file of a data dir shared with the metadata
 * service; revocation is checked by asking the metadata service (which owns the token
 * entities). The bearer-token hook itself is `bearerAuth` from `@catalog/auth`, registered
 * first by the gateway plugin, so it guards every route (REST, forwarded REST and GraphQL).
 */
export function remoteGatewayAuth(config: Config, metadataUrl: string, log: Logger): GatewayAuth {
  const secret = loadOrCreateSecret(config.CATALOG_DATA_DIR, config.CATALOG_TOKEN_SECRET)
  if (secret.created) {
    log.warn(
      { file: secret.file },
      'created a token signing secret; the metadata service must share it (same CATALOG_DATA_DIR or CATALOG_TOKEN_SECRET)',
    )
  }
  return {
    enabled: config.CATALOG_AUTH === 'on',
    tokens: new TokenService(secret.secret, httpActiveCheck(metadataUrl), systemClientOf(config)),
  }
}
