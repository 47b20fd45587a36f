import type { EntitySpec } from '@catalog/core'
import type { JsonSchema, ModelSchemas } from './openapi-model-schemas.js'

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

/** The components every entity type shares: errors, JSON Patch, sort order, the cross-entity scroll. */
export function sharedComponents(model: ModelSchemas): Record<string, JsonSchema> {
  const patchValue: JsonSchema = {
    type: 'object',
    required: ['patch'],
    properties: {
      patch: { type: 'array', items: ref('AspectPatchProperty') },
      arrayPrimaryKeys: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    },
  }
  return {
    ErrorResponse: {
      type: 'object',
      description: "DataHub's error body; the HTTP status equals `status`",
      required: ['exceptionClass', 'message', 'status'],
      properties: {
        exceptionClass: { type: 'string' },
        message: { type: 'string' },
        status: { type: 'integer' },
      },
    },
    AspectPatchProperty: {
      type: 'object',
      description: 'One JSON Patch operation (RFC 6902)',
      required: ['op', 'path'],
      properties: {
        op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
        path: { type: 'string' },
        from: { type: 'string' },
        value: {},
      },
    },
    AspectPatch: {
      type: 'object',
      description: 'An aspect patch in a batch PATCH: `value` holds the operations',
      required: ['value'],
      properties: {
        value: patchValue,
        systemMetadata: { oneOf: [model.ref('com.linkedin.mxe.SystemMetadata'), { type: 'null' }] },
        headers: { oneOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'null' }] },
      },
    },
    AspectPatchBody: {
      description: 'A JSON Patch array, or `{"patch": [...], "arrayPrimaryKeys"?: {...}}`',
      oneOf: [{ type: 'array', items: ref('AspectPatchProperty') }, patchValue],
    },
    SortOrder: { type: 'string', enum: ['ASCENDING', 'DESCENDING'] },
    EntitiesEntityResponse_v3: {
      type: 'object',
      description: 'An entity of any type: its URN and one member per aspect',
      required: ['urn'],
      properties: { urn: { type: 'string' } },
      additionalProperties: {
        type: 'object',
        required: ['value'],
        properties: {
          value: { type: 'object' },
          systemMetadata: model.ref('com.linkedin.mxe.SystemMetadata'),
          auditStamp: model.ref('com.linkedin.common.AuditStamp'),
        },
      },
    },
    ScrollEntitiesEntityResponse_v3: scroll('EntitiesEntityResponse_v3'),
  }
}

function scroll(entity: string): JsonSchema {
  return {
    type: 'object',
    required: ['entities'],
    properties: {
      scrollId: { type: 'string', description: 'Absent on the last page' },
      entities: { type: 'array', items: ref(entity) },
      totalCount: { type: 'integer' },
    },
  }
}

/** The request and response schemas of one entity type, one member per aspect it may have. */
export function entityComponents(
  entity: EntitySpec,
  upper: string,
  aspectComponent: (aspectName: string) => string,
): Record<string, JsonSchema> {
  const aspects = [entity.keyAspect, ...entity.aspects].sort()
  const members = (suffix: (aspect: string) => JsonSchema) =>
    Object.fromEntries(aspects.map((a) => [a, suffix(a)]))
  const urn = { type: 'string', description: `A ${entity.name} URN` }
  const object = (description: string, properties: Record<string, JsonSchema>) => ({
    type: 'object',
    description,
    required: ['urn'],
    properties: { urn, ...properties },
  })
  return {
    [`${upper}EntityRequest_v3`]: object(
      `A ${entity.name} to write: its URN and the aspects to write`,
      members((a) => ref(`${aspectComponent(a)}AspectRequest_v3`)),
    ),
    [`${upper}EntityResponse_v3`]: object(
      `A ${entity.name}: its URN and its aspects`,
      members((a) => ref(`${aspectComponent(a)}AspectResponse_v3`)),
    ),
    [`${upper}EntityRequestPatch_v3`]: object(
      `A ${entity.name} to patch: its URN and a patch per aspect`,
      members(() => ref('AspectPatch')),
    ),
    [`BatchGet${upper}EntityRequest_v3`]: object(
      `A ${entity.name} to get: its URN and the aspects wanted (none: all)`,
      members(() => ({ type: 'object' })),
    ),
    [`Scroll${upper}EntityResponse_v3`]: scroll(`${upper}EntityResponse_v3`),
  }
}
