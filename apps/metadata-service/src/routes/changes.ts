import type { CatalogServer } from '@catalog/http-kit'
import type { MetadataStore } from '@catalog/store'
import { Type } from 'typebox'

const MAX_PAGE = 5000

/** `/internal/changes`: the change log, for a search service running in another process. */
export async function changeRoutes(
  app: CatalogServer,
  { store }: { readonly store: MetadataStore },
): Promise<void> {
  app.get(
    '/internal/changes',
    {
      schema: {
        summary: 'Change-log entries after a position (used by the search service in split mode)',
        tags: ['internal'],
        querystring: Type.Object({
          after: Type.Integer({ minimum: 0, default: 0 }),
          limit: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1000 }),
        }),
      },
    },
    async (request) => {
      const entries = await store.changes(request.query.after, request.query.limit)
      return { head: await store.head(), entries }
    },
  )
}
