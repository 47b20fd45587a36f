import type { EntitySpec, Registry } from '@catalog/core'
import {
  DeleteQuerySchema,
  ReadQuerySchema,
  ScrollBodySchema,
  ScrollQuerySchema,
  WriteQuerySchema,
} from '../schemas/openapi.js'
import { entityComponents, sharedComponents } from './openapi-document-components.js'
import { type JsonSchema, ModelSchemas } from './openapi-model-schemas.js'

const PREFIX = '/openapi/v3/entity'
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const json = (schema: JsonSchema) => ({ content: { 'application/json': { schema } } })
const ok = (description: string, schema?: JsonSchema) => ({
  description,
  ...(schema ? json(schema) : {}),
})
/** DataHub's error answers, as response components. */
const ERROR_RESPONSES = {
  BadRequest: ok('Malformed request or URN', ref('ErrorResponse')),
  Unauthorized: ok('No or invalid token', ref('ErrorResponse')),
  Forbidden: ok('Not authorized', ref('ErrorResponse')),
  NotFound: ok('Nothing there', ref('ErrorResponse')),
  Unprocessable: ok('Valid JSON that breaks the model', ref('ErrorResponse')),
}
const response = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` })
const ERRORS = {
  '400': response('BadRequest'),
  '401': response('Unauthorized'),
  '403': response('Forbidden'),
  '422': response('Unprocessable'),
}

/** Query-parameter groups, from the TypeBox query schemas that validate the routes. */
const QUERY_GROUPS = {
  Scroll: ScrollQuerySchema,
  Write: WriteQuerySchema,
  Read: ReadQuerySchema,
  Delete: DeleteQuerySchema,
} as const
type QueryGroup = keyof typeof QUERY_GROUPS

/** A group's parameters as components (`Scroll.count`, ...): one per property of its schema. */
function parameterComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  for (const [group, schema] of Object.entries(QUERY_GROUPS)) {
    const plain = JSON.parse(JSON.stringify(schema)) as {
      properties: Record<string, JsonSchema>
      required?: string[]
    }
    for (const [name, s] of Object.entries(plain.properties)) {
      out[`${group}.${name}`] = {
        name,
        in: 'query',
        required: plain.required?.includes(name) ?? false,
        ...(typeof s.description === 'string' ? { description: s.description } : {}),
        schema: s,
        ...(s.type === 'array' ? { style: 'form', explode: true } : {}),
      }
    }
  }
  return out
}

/** `$ref`s to a group's parameters. */
function queryParameters(group: QueryGroup): JsonSchema[] {
  return Object.keys((QUERY_GROUPS[group] as unknown as { properties: object }).properties).map((name) => ({
    $ref: `#/components/parameters/${group}.${name}`,
  }))
}

const URN_PARAM = {
  name: 'urn',
  in: 'path',
  required: true,
  description: "The entity's URN, percent-encoded",
  schema: { type: 'string' },
}

/**
 * The OpenAPI 3.1 document of `/openapi/v3/entity`, generated from the registry as DataHub's
 * `OpenAPIV3Generator` does from its entity registry: per entity type the listing, batch
 * write, batchGet, scroll and single-entity paths, per aspect the aspect paths, with one
 * request and response schema per aspect and entity type and the model's records as
 * components. Only routes this catalog serves are listed; entity and aspect names in paths are
 * the registry's (`dataJob`, `datasetProperties`); aspect names also match ignoring case.
 * Built in steps (one per entity type) so that the event loop keeps serving.
 */
export async function openApiV3Document(registry: Registry, serverUrl = '/'): Promise<JsonSchema> {
  // Every entity type the routes serve (DataHub leaves out dataHubOpenAPISchema; it is served here).
  const entities = registry.allEntities().sort((a, b) => a.name.localeCompare(b.name))
  const aspectNames = [...new Set(entities.flatMap((e) => [e.keyAspect, ...e.aspects]))].sort()
  const records = aspectNames.map((name) => registry.findAnyAspect(name)?.record as string)
  const model = new ModelSchemas(registry, [
    ...records,
    'com.linkedin.mxe.SystemMetadata',
    'com.linkedin.common.AuditStamp',
  ])
  const aspectComponent = (name: string) =>
    model.componentName(registry.findAnyAspect(name)?.record as string)

  const schemas: Record<string, JsonSchema> = { ...model.components(), ...sharedComponents(model) }
  for (const name of aspectNames) {
    const record = aspectComponent(name)
    schemas[`${record}AspectRequest_v3`] = {
      type: 'object',
      required: ['value'],
      description: `The ${name} aspect to write`,
      properties: {
        value: model.ref(registry.findAnyAspect(name)?.record as string),
        systemMetadata: { oneOf: [model.ref('com.linkedin.mxe.SystemMetadata'), { type: 'null' }] },
        headers: { oneOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'null' }] },
      },
    }
    schemas[`${record}AspectResponse_v3`] = {
      type: 'object',
      required: ['value'],
      description: `The ${name} aspect as stored`,
      properties: {
        value: model.ref(registry.findAnyAspect(name)?.record as string),
        systemMetadata: model.ref('com.linkedin.mxe.SystemMetadata'),
        auditStamp: model.ref('com.linkedin.common.AuditStamp'),
      },
    }
  }
  const paths: Record<string, JsonSchema> = {
    [`${PREFIX}/scroll`]: {
      post: {
        summary: 'Scroll entities of several types',
        tags: ['Generic Entities'],
        parameters: queryParameters('Scroll'),
        requestBody: json(JSON.parse(JSON.stringify(ScrollBodySchema))),
        responses: { '200': ok('One page', ref('ScrollEntitiesEntityResponse_v3')), ...ERRORS },
      },
    },
  }
  for (const entity of entities) {
    Object.assign(schemas, entityComponents(entity, upperFirst(entity.name), aspectComponent))
    Object.assign(paths, entityPaths(entity, aspectComponent))
    // A few milliseconds per entity type: let other requests in between.
    await yieldToEventLoop()
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Entity API',
      description: 'This is a service for DataHub Entities.',
      version: 'v3',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      parameters: parameterComponents(),
      responses: ERROR_RESPONSES,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  }
}

/** The paths of one entity type and its aspects. */
function entityPaths(
  entity: EntitySpec,
  aspectComponent: (name: string) => string,
): Record<string, JsonSchema> {
  const upper = upperFirst(entity.name)
  const tags = [`${entity.name} Entity`]
  const base = `${PREFIX}/${entity.name}`
  const list = (name: string) => ({ type: 'array', items: ref(name) })
  const out: Record<string, JsonSchema> = {
    [base]: {
      get: {
        summary: `Scroll ${upper}.`,
        tags,
        parameters: queryParameters('Scroll'),
        responses: { '200': ok('One page', ref(`Scroll${upper}EntityResponse_v3`)), ...ERRORS },
      },
      post: {
        summary: `Create or upsert a batch of ${upper} entities.`,
        tags,
        parameters: queryParameters('Write'),
        requestBody: { required: true, ...json(list(`${upper}EntityRequest_v3`)) },
        responses: {
          '200': ok('Written', list(`${upper}EntityResponse_v3`)),
          '202': ok('Written (async)', list(`${upper}EntityResponse_v3`)),
          ...ERRORS,
        },
      },
      patch: {
        summary: `Patch a batch of ${upper} entities.`,
        tags,
        parameters: queryParameters('Write'),
        requestBody: { required: true, ...json(list(`${upper}EntityRequestPatch_v3`)) },
        responses: { '200': ok('Patched', list(`${upper}EntityResponse_v3`)), ...ERRORS },
      },
    },
    [`${base}/scroll`]: {
      post: {
        summary: `Scroll ${upper} (filter and sort in the body).`,
        tags,
        parameters: queryParameters('Scroll'),
        requestBody: json(JSON.parse(JSON.stringify(ScrollBodySchema))),
        responses: { '200': ok('One page', ref(`Scroll${upper}EntityResponse_v3`)), ...ERRORS },
      },
    },
    [`${base}/batchGet`]: {
      post: {
        summary: `Get a batch of ${upper} entities.`,
        tags,
        parameters: [{ name: 'systemMetadata', in: 'query', schema: { type: 'boolean', default: false } }],
        requestBody: { required: true, ...json(list(`BatchGet${upper}EntityRequest_v3`)) },
        responses: { '200': ok('Found entities', list(`${upper}EntityResponse_v3`)), ...ERRORS },
      },
    },
    [`${base}/{urn}`]: {
      get: {
        summary: `Get ${upper}.`,
        tags,
        parameters: [URN_PARAM, ...queryParameters('Read')],
        responses: {
          '200': ok('The entity', ref(`${upper}EntityResponse_v3`)),
          '404': response('NotFound'),
          ...ERRORS,
        },
      },
      head: {
        summary: `${upper} existence.`,
        tags,
        parameters: [URN_PARAM, ...queryParameters('Read')],
        responses: { '204': ok(`${entity.name} exists.`), '404': ok(`${entity.name} does not exist.`) },
      },
      delete: {
        summary: `Delete ${upper} (or some of its aspects).`,
        tags,
        parameters: [URN_PARAM, ...queryParameters('Delete')],
        responses: { '200': ok('Deleted'), ...ERRORS },
      },
    },
  }
  for (const aspect of [entity.keyAspect, ...entity.aspects].sort()) {
    const record = aspectComponent(aspect)
    const aspectTags = [`${entity.name} Aspects`]
    out[`${base}/{urn}/${aspect}`] = {
      get: {
        summary: `Get ${aspect} for ${entity.name}.`,
        tags: aspectTags,
        parameters: [URN_PARAM, ...queryParameters('Read')],
        responses: {
          '200': ok('The aspect', ref(`${record}AspectResponse_v3`)),
          '404': response('NotFound'),
          ...ERRORS,
        },
      },
      head: {
        summary: `${aspect} on ${entity.name} existence.`,
        tags: aspectTags,
        parameters: [URN_PARAM, ...queryParameters('Read')],
        responses: { '204': ok(`${aspect} exists.`), '404': ok(`${aspect} does not exist.`) },
      },
      delete: {
        summary: `Delete ${aspect} on ${entity.name}.`,
        tags: aspectTags,
        parameters: [URN_PARAM],
        responses: { '200': ok('Deleted'), ...ERRORS },
      },
      post: {
        summary: `Create or upsert ${aspect} on ${entity.name}.`,
        tags: aspectTags,
        parameters: [URN_PARAM, ...queryParameters('Write')],
        requestBody: { required: true, ...json(ref(`${record}AspectRequest_v3`)) },
        responses: { '200': ok('Written', ref(`${upper}EntityResponse_v3`)), ...ERRORS },
      },
      patch: {
        summary: `Patch ${aspect} on ${entity.name}.`,
        tags: aspectTags,
        parameters: [URN_PARAM, ...queryParameters('Write')],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: ref('AspectPatchBody') },
            'application/json-patch+json': { schema: ref('AspectPatchBody') },
          },
        },
        responses: { '200': ok('Patched', ref(`${upper}EntityResponse_v3`)), ...ERRORS },
      },
    }
  }
  return out
}
