import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  DescribeRunBodySchema,
  DescribeRunResponseSchema,
  ListRunsBodySchema,
  ListRunsResponseSchema,
  RollbackBodySchema,
  RollbackResponseSchema,
} from '../schemas/runs.js'
import type { RunsService } from '../services/runs-service.js'

const errors = { 400: RestliErrorSchema }
const action = (name: string) => Type.Object({ action: Type.Literal(name) })

/** `/runs?action=`: list, describe and rollback ingestion runs (`datahub ingest list-runs/show/rollback`). */
export async function runRoutes(app: CatalogServer, { runs }: { readonly runs: RunsService }): Promise<void> {
  // The CLI posts `list` with every parameter optional; a bare POST is an empty object.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {}
  })

  app.post(
    '/runs',
    {
      constraints: { action: 'list' },
      schema: {
        summary: 'Ingestion runs, newest first',
        tags: ['runs'],
        querystring: action('list'),
        body: ListRunsBodySchema,
        response: { 200: ListRunsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { pageOffset = 0, pageSize = 100, includeSoft = false } = request.body
      return { value: await runs.list(pageOffset, pageSize, includeSoft) }
    },
  )

  app.post(
    '/runs',
    {
      constraints: { action: 'describe' },
      schema: {
        summary: 'The aspects a run wrote last',
        tags: ['runs'],
        querystring: action('describe'),
        body: DescribeRunBodySchema,
        response: { 200: DescribeRunResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { runId, start, count, includeSoft = false, includeAspect = false } = request.body
      return {
        value: await runs.describe(runId, { start, count, includeSoftDeleted: includeSoft }, includeAspect),
      }
    },
  )

  app.post(
    '/runs',
    {
      constraints: { action: 'rollback' },
      schema: {
        summary: 'Roll back a run: restore the aspects it changed, delete the entities it created',
        tags: ['runs'],
        querystring: action('rollback'),
        body: RollbackBodySchema,
        response: { 200: RollbackResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { runId, dryRun = false, hardDelete, safe } = request.body
      const options = {
        dryRun,
        ...(hardDelete !== undefined ? { hardDelete } : {}),
        ...(safe !== undefined ? { safe } : {}),
      }
      return { value: await runs.rollback(runId, options, request.actor ?? ROOT_ACTOR) }
    },
  )
}
