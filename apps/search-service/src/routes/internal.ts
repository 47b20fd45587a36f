import type { CatalogServer } from '@catalog/http-kit'
import { Type } from 'typebox'
import type { SearchServices } from '../services/index.js'

const SyncStateSchema = Type.Object({
  cursor: Type.Integer({ description: 'Change-log position applied last' }),
  applied: Type.Integer({ description: 'Entries applied by this process since it started' }),
  lastError: Type.Optional(Type.String()),
})

/** `/internal/search/*`: sync now (split mode's synchronous index update) and index figures. */
export async function internalRoutes(
  app: CatalogServer,
  { services }: { readonly services: SearchServices },
): Promise<void> {
  app.post(
    '/internal/search/sync',
    {
      schema: {
        summary: 'Apply the metadata change log to the search index now; answers once it is applied',
        tags: ['internal'],
        response: { 200: SyncStateSchema },
      },
    },
    async () => {
      await services.sync.catchUp()
      return services.sync.stats()
    },
  )

  app.get(
    '/internal/search/stats',
    {
      schema: {
        summary: 'Search index figures: documents, cursor, size on disk and in memory',
        tags: ['internal'],
        response: {
          200: Type.Object({
            documents: Type.Integer(),
            cursor: Type.Integer(),
            diskBytes: Type.Integer(),
            memoryBytes: Type.Integer(),
            applied: Type.Integer(),
          }),
        },
      },
    },
    async () => ({ ...(await services.index.stats()), applied: (await services.sync.stats()).applied }),
  )
}
