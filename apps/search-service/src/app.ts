import type { CatalogServer } from '@catalog/http-kit'
import { internalRoutes } from './routes/internal.js'
import { searchRoutes } from './routes/search.js'
import type { SearchServices } from './services/index.js'

export interface SearchServiceOptions {
  readonly services: SearchServices
}

/**
 * The search service as a fastify plugin: search, autocomplete, browse, list and the internal
 * sync routes over the search index. `server.ts` runs it alone; the gateway embeds it in the
 * one-process mode.
 */
export async function searchService(app: CatalogServer, { services }: SearchServiceOptions): Promise<void> {
  await app.register(searchRoutes, { search: services.search })
  await app.register(internalRoutes, { services })
}
