import { InvalidInputError } from '@catalog/core'
import { type CatalogServer, restliList, toRestliError, urnFromPath } from '@catalog/http-kit'
import { Type } from 'typebox'
import type { EntityResponse, ReadService } from '../services/read-service.js'

const AspectsParam = Type.Optional(
  Type.Unknown({ description: 'List(<aspect name>,...), or repeated aspects=' }),
)
const EnvelopedAspectSchema = Type.Object({
  name: Type.String(),
  type: Type.String(),
  version: Type.Integer(),
  value: Type.Record(Type.String(), Type.Unknown()),
  created: Type.Object({ actor: Type.String(), time: Type.Integer() }),
  systemMetadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})
export const EntityResponseSchema = Type.Object({
  urn: Type.String(),
  entityName: Type.String(),
  aspects: Type.Record(Type.String(), EnvelopedAspectSchema),
})

/** `/entitiesV2`: the current entity read, single and batch. */
export async function entityV2Routes(
  app: CatalogServer,
  { reads }: { readonly reads: ReadService },
): Promise<void> {
  app.get(
    '/entitiesV2/*',
    {
      schema: {
        summary: 'Read the latest aspects of an entity (a missing entity answers with its key aspect only)',
        tags: ['entitiesV2'],
        querystring: Type.Object({ aspects: AspectsParam }),
        response: { 200: EntityResponseSchema },
      },
    },
    async (request) =>
      reads.entityV2(urnFromPath(request.url, '/entitiesV2/'), restliList(request.url, 'aspects')),
  )

  app.get(
    '/entitiesV2',
    {
      schema: {
        summary: 'Batch read: ids=List(<urn>,...)',
        tags: ['entitiesV2'],
        querystring: Type.Object({
          ids: Type.Unknown({ description: 'List(<urn>,...)' }),
          aspects: AspectsParam,
        }),
        response: {
          200: Type.Object({
            results: Type.Record(Type.String(), EntityResponseSchema),
            statuses: Type.Record(Type.String(), Type.Integer()),
            errors: Type.Record(Type.String(), Type.Unknown()),
          }),
        },
      },
    },
    async (request) => {
      const ids = restliList(request.url, 'ids') ?? []
      if (ids.length === 0) throw new InvalidInputError("Parameter 'ids' is required")
      const aspects = restliList(request.url, 'aspects')
      const results: Record<string, EntityResponse> = {}
      const errors: Record<string, unknown> = {}
      const valid: string[] = []
      for (const urn of new Set(ids)) {
        try {
          reads.resolve(urn)
          valid.push(urn)
        } catch (err) {
          errors[urn] = toRestliError(err)
        }
      }
      for (const [urn, response] of await reads.batchEntityV2(valid, aspects)) results[urn] = response
      return { results, statuses: {}, errors }
    },
  )
}
