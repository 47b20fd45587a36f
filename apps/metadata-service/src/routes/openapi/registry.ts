import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import type { RegistrySpecs } from '../../services/registry-specs.js'

const PREFIX = '/openapi/v1/registry/models'
const tags = ['openapi registry']
const errors = { 400: RestliErrorSchema, 404: RestliErrorSchema }

const Spec = Type.Object({}, { additionalProperties: true })
const SpecMap = Type.Record(Type.String(), Spec)
const PageSchema = Type.Object({
  elements: Type.Array(Spec),
  start: Type.Integer(),
  count: Type.Integer(),
  total: Type.Integer(),
})
const PageQuery = (count: number) =>
  Type.Object({
    start: Type.Integer({ minimum: 0, default: 0 }),
    count: Type.Integer({ minimum: 0, maximum: 1_000, default: count }),
  })

/**
 * DataHub's entity registry API (`EntityRegistryController`): entity and aspect specs, sorted by
 * name and paged. DataHub's Python SDK reads `entity/specifications` to learn which aspects each
 * entity type supports. Authorized as DataHub does (MANAGE_SYSTEM_OPERATIONS).
 */
export async function openApiRegistryRoutes(
  app: CatalogServer,
  { specs }: { readonly specs: RegistrySpecs },
): Promise<void> {
  app.get(
    `${PREFIX}/entity/specifications`,
    {
      schema: {
        summary: 'Entity specs',
        description: 'Every entity type: its key aspect and aspect specs (EntitySpecDto), by name.',
        tags,
        querystring: PageQuery(5),
        response: { 200: PageSchema, ...errors },
      },
    },
    async (request) => specs.entities(request.query.start, request.query.count),
  )
  app.get(
    `${PREFIX}/entity/specifications/:entityName`,
    {
      schema: {
        summary: 'One entity spec',
        tags,
        params: Type.Object({ entityName: Type.String({ examples: ['dataset'] }) }),
        response: { 200: Spec, ...errors },
      },
    },
    async (request) => specs.entity(request.params.entityName),
  )
  app.get(
    `${PREFIX}/entity/specifications/:entityName/aspects`,
    {
      schema: {
        summary: 'The aspect specs of an entity type',
        tags,
        params: Type.Object({ entityName: Type.String({ examples: ['dataset'] }) }),
        response: { 200: SpecMap, ...errors },
      },
    },
    async (request) => specs.entityAspects(request.params.entityName),
  )
  app.get(
    `${PREFIX}/aspect/specifications`,
    {
      schema: {
        summary: 'Aspect specs',
        description: 'Every aspect (AspectSpecDto), by name.',
        tags,
        querystring: PageQuery(20),
        response: { 200: PageSchema, ...errors },
      },
    },
    async (request) => specs.aspects(request.query.start, request.query.count),
  )
  app.get(
    `${PREFIX}/aspect/specifications/:aspectName`,
    {
      schema: {
        summary: 'One aspect spec',
        tags,
        params: Type.Object({ aspectName: Type.String({ examples: ['datasetProperties'] }) }),
        response: { 200: Spec, ...errors },
      },
    },
    async (request) => specs.aspect(request.params.aspectName),
  )
}
