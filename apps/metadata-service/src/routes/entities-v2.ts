import { InvalidInputError } from '@catalog/core'
import {
  type CatalogServer,
  restliList,
  sendJsonText,
  toRestliError,
  UrlMemo,
  urnFromPath,
} from '@catalog/http-kit'
import { Type } from 'typebox'
import type { ReadService } from '../services/read-service.js'

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

export const BatchEntityResponseSchema = Type.Object({
  results: Type.Record(Type.String(), EntityResponseSchema),
  statuses: Type.Record(Type.String(), Type.Integer()),
  errors: Type.Record(Type.String(), Type.Unknown()),
})

/** `/entitiesV2`: the current entity read, single and batch. */
export async function entityV2Routes(
  app: CatalogServer,
  { reads }: { readonly reads: ReadService },
): Promise<void> {
  // The URN and aspect list of a URL, worked out once per URL.
  const parsed = new UrlMemo<{ urn: string; aspects: string[] | undefined }>()
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
    async (request, reply) => {
      const { urn, aspects } = parsed.get(request.url, () => ({
        urn: urnFromPath(request.url, '/entitiesV2/'),
        aspects: restliList(request.url, 'aspects'),
      }))
      return sendJsonText(reply, await reads.entityV2Json(urn, aspects))
    },
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
        response: { 200: BatchEntityResponseSchema },
      },
    },
    async (request, reply) => {
      const ids = restliList(request.url, 'ids') ?? []
      if (ids.length === 0) throw new InvalidInputError("Parameter 'ids' is required")
      const aspects = restliList(request.url, 'aspects')
      const errors: string[] = []
      const valid: string[] = []
      for (const urn of new Set(ids)) {
        try {
          reads.resolve(urn)
          valid.push(urn)
        } catch (err) {
          errors.push(`${JSON.stringify(urn)}:${JSON.stringify(toRestliError(err))}`)
        }
      }
      const results: string[] = []
      for (const [urn, json] of await reads.batchEntityV2Json(valid, aspects)) {
        results.push(`${JSON.stringify(urn)}:${json}`)
      }
      // The batch answer's members in its schema's order; entity answers spliced in as text.
      return sendJsonText(
        reply,
        `{"results":{${results.join(',')}},"statuses":{},"errors":{${errors.join(',')}}}`,
      )
    },
  )
}
