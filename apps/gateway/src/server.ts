import { configOrExit } from '@catalog/config'
import { runServer } from '@catalog/http-kit'
import { gateway } from './app.js'
import { remoteGatewayAuth } from './plugins/auth.js'

const config = configOrExit()
const metadata = config.CATALOG_METADATA_URL ?? `http://127.0.0.1:${config.CATALOG_METADATA_PORT}`
const search = config.CATALOG_SEARCH_URL ?? `http://127.0.0.1:${config.CATALOG_SEARCH_PORT}`
await runServer(config, {
  name: 'gateway',
  port: config.PORT,
  describe: { metadata, search },
  build: async (app, log) => {
    await app.register(gateway, {
      backends: { kind: 'remote', targets: { metadata, search } },
      auth: remoteGatewayAuth(config, metadata, log),
    })
    return async () => {}
  },
})
