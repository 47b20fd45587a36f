import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import type { MetadataServices } from '../services/index.js'
import { RelationshipsDeleteService } from '../services/relationships-delete-service.js'

const QuerySchema = Type.Object({
  urn: Type.String({
    minLength: 1,
    description: 'The entity whose edges go',
    examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'],
  }),
})

/**
 * `DELETE /relationships?urn=`: DataHub's Rest.li delete of the relationships resource, which
 * removes every edge at the entity in both directions and answers 200 with no body.
 */
export async function relationshipDeleteRoutes(
  app: CatalogServer,
  { services }: { readonly services: MetadataServices },
): Promise<void> {
  const edges = new RelationshipsDeleteService(services.registry, services.store)
  app.delete(
    '/relationships',
    {
      schema: {
        summary: 'Remove every edge at an entity, in both directions (its aspects stay)',
        description:
          'Edges are derived from aspects: the entity’s own aspects and those of the entities pointing at it are re-derived without edges at the entity, so they come back when one of those aspects is written again or at the next restoreIndices, as in DataHub’s graph index. Needs EDIT_ENTITY, DELETE_ENTITY or EDIT_LINEAGE on the entity.',
        tags: ['relationships'],
        querystring: QuerySchema,
        response: { 200: Type.Unknown({ description: 'Empty body' }), 400: RestliErrorSchema },
      },
    },
    async (request, reply) => {
      await edges.removeNode(request.query.urn, request.actor ?? ROOT_ACTOR)
      // Rest.li's UpdateResponse: 200 and no body.
      return reply.status(200).send(undefined)
    },
  )
}
