import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import { DeleteAllBodySchema, DeleteAllResponseSchema } from '../schemas/delete-all.js'
import type { MetadataServices } from '../services/index.js'
import { RegistryDeleteService } from '../services/registry-delete-service.js'

/** `POST /entities?action=deleteAll`: what `datahub delete by-registry` calls. */
export async function entitiesDeleteAllRoutes(
  app: CatalogServer,
  { services }: { readonly services: MetadataServices },
): Promise<void> {
  const deletes = new RegistryDeleteService(services.registry, services.store, services.ingest)
  app.post(
    '/entities',
    {
      constraints: { action: 'deleteAll' },
      schema: {
        summary: 'Undo what was written under a model registry (`registryId` = name:version)',
        description:
          'The latest aspect rows whose last write carried `systemMetadata.registryName` / `registryVersion` (at most 10,000, of entities not soft-deleted) go back to their previous version; entities whose key aspect is among them are soft-deleted. `dryRun` only reports.',
        tags: ['entities'],
        querystring: Type.Object({ action: Type.Literal('deleteAll') }),
        body: DeleteAllBodySchema,
        response: { 200: DeleteAllResponseSchema, 400: RestliErrorSchema },
      },
    },
    async (request) => ({
      value: await deletes.deleteAll(
        request.body.registryId,
        request.body.dryRun ?? false,
        request.actor ?? ROOT_ACTOR,
      ),
    }),
  )
}
