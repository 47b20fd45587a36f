import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  DeleteEntityBodySchema,
  DeleteEntityResponseSchema,
  DeleteReferencesBodySchema,
  DeleteReferencesResponseSchema,
  EntityCountsBodySchema,
  ExistsBodySchema,
  ListUrnsBodySchema,
  ListUrnsResponseSchema,
} from '../schemas/entity-actions.js'
import type { DeleteReferencesService } from '../services/delete-references-service.js'
import type { EntityAdminService } from '../services/entity-admin-service.js'

export interface EntityActionRoutesOptions {
  readonly admin: EntityAdminService
  readonly references: DeleteReferencesService
}

const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }
const action = (name: string) => Type.Object({ action: Type.Literal(name) })

/** `/entities?action=`: delete, exists, listUrns, batchGetTotalEntityCount, deleteReferences. */
export async function entityActionRoutes(
  app: CatalogServer,
  { admin, references }: EntityActionRoutesOptions,
): Promise<void> {
  app.post(
    '/entities',
    {
      constraints: { action: 'delete' },
      schema: {
        summary: 'Hard-delete an entity (every aspect version, edges, search document, time series)',
        description:
          'With `aspectName` (a time-series aspect) only its rows between `startTimeMillis` and `endTimeMillis` go.',
        tags: ['entities'],
        querystring: action('delete'),
        body: DeleteEntityBodySchema,
        response: { 200: DeleteEntityResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { urn, ...range } = request.body
      return { value: await admin.delete(urn, range, request.actor ?? ROOT_ACTOR) }
    },
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'exists' },
      schema: {
        summary: 'Whether an entity exists (its key aspect), optionally not counting soft-deleted ones',
        tags: ['entities'],
        querystring: action('exists'),
        body: ExistsBodySchema,
        response: { 200: Type.Object({ value: Type.Boolean() }), ...errors },
      },
    },
    async (request) => ({
      value: await admin.exists(request.body.urn, request.body.includeSoftDelete ?? true),
    }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'listUrns' },
      schema: {
        summary: 'URNs of an entity type, in URN order',
        tags: ['entities'],
        querystring: action('listUrns'),
        body: ListUrnsBodySchema,
        response: { 200: ListUrnsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      value: await admin.listUrns(request.body.entity, request.body.start, request.body.count),
    }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'batchGetTotalEntityCount' },
      schema: {
        summary: 'Number of entities of each type',
        tags: ['entities'],
        querystring: action('batchGetTotalEntityCount'),
        body: EntityCountsBodySchema,
        response: { 200: Type.Object({ value: Type.Record(Type.String(), Type.Integer()) }), ...errors },
      },
    },
    async (request) => ({ value: await admin.entityCounts(request.body.entities) }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'deleteReferences' },
      schema: {
        summary: 'Remove the references other entities hold to an entity (new aspect versions)',
        description: 'With `dryRun` only counts and lists the referring aspects.',
        tags: ['entities'],
        querystring: action('deleteReferences'),
        body: DeleteReferencesBodySchema,
        response: { 200: DeleteReferencesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      value: await references.deleteReferences(
        request.body.urn,
        request.body.dryRun ?? false,
        request.actor ?? ROOT_ACTOR,
      ),
    }),
  )
}
