// The container's entry point: `node --import tsx infra/app.mjs <app>` runs one app in this very
// process (no npm or shell in between), so SIGTERM from `docker stop` reaches node and the
// catalog shuts down cleanly. Apps: all-in-one, gateway, metadata-service, search-service.
const APPS = {
  'all-in-one': '../apps/gateway/src/all-in-one.ts',
  gateway: '../apps/gateway/src/server.ts',
  'metadata-service': '../apps/metadata-service/src/server.ts',
  'search-service': '../apps/search-service/src/server.ts',
}
const name = (process.argv[2] ?? 'gateway').replace(/^start:/, '')
const entry = APPS[name]
if (!entry) {
  process.stderr.write(`catalog: unknown app "${name}"; one of ${Object.keys(APPS).join(', ')}\n`)
  process.exit(2)
}
await import(new URL(entry, import.meta.url).href)
