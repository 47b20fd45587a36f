// The container's entry point: `node infra/app.mjs <app>` runs one app in this very process
// (no npm or shell in between), so SIGTERM from `docker stop` reaches node and the catalog shuts
// down cleanly. The app runs from the bundle the image built (scripts/start.mjs). Apps:
// all-in-one, gateway, metadata-service, search-service.
process.argv[2] = (process.argv[2] ?? 'gateway').replace(/^start:/, '')
await import('../scripts/start.mjs')
