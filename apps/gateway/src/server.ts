import { loadOrCreateSecret, TokenService } from '@catalog/auth'
import { loadConfig } from '@catalog/config'
import { runServer } from '@catalog/http-kit'
import { gateway } from './app.js'
import { remoteActiveCheck } from './plugins/auth.js'

const config = loadConfig()
const metadata = config.CATALOG_METADATA_URL ?? `http://127.0.0.1:${config.CATALOG_METADATA_PORT}`
const search = config.CATALOG_SEARCH_URL ?? `http://127.0.0.1:${config.CATALOG_SEARCH_PORT}`
await runServer(config, {
  name: 'gateway',
  port: config.PORT,
  describe: { metadata, search },
  build: async (app, log) => {
    // Same secret as the metadata service: CATALOG_TOKEN_SECRET, or the secret file of a shared data dir.
    const secret = loadOrCreateSecret(config.CATALOG_DATA_DIR, config.CATALOG_TOKEN_SECRET)
    if (secret.created) {
      log.warn(
        { file: secret.file },
        'created a token signing secret; the metadata service must share it (same CATALOG_DATA_DIR or CATALOG_TOKEN_SECRET)',
      )
    }
    const tokens = new TokenService(secret.secret, remoteActiveCheck(metadata))
    await app.register(gateway, {
      backends: { kind: 'remote', targets: { metadata, search } },
      auth: { enabled: config.CATALOG_AUTH === 'on', tokens },
    })
    return async () => {}
  },
})
