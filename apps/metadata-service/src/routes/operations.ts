import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  OperationResultSchema,
  RestoreIndicesBodySchema,
  TaskStatusBodySchema,
  TruncateBodySchema,
} from '../schemas/operations.js'
import type { OperationsService } from '../services/operations-service.js'
import type { TaskRunner } from '../services/tasks-service.js'

export interface OperationRoutesOptions {
  readonly operations: OperationsService
  readonly tasks: TaskRunner
}

/** Where DataHub serves the operations resource: GMS's root, the Cloud `/gms` prefix and the front proxy's. */
const PREFIXES = ['', '/gms', '/api/gms'] as const
const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }
const action = (name: string) => Type.Object({ action: Type.Literal(name) })

/**
 * `/operations?action=...`: truncateTimeseriesAspect, getEsTaskStatus, getIndexSizes and
 * restoreIndices (also `/aspects?action=restoreIndices`). Truncation tasks left running by a
 * previous process resume when the server is ready, and stop (resumably) when it closes.
 */
export async function operationRoutes(
  app: CatalogServer,
  { operations, tasks }: OperationRoutesOptions,
): Promise<void> {
  app.addHook('onReady', async () => tasks.resume(app.log))
  app.addHook('onClose', async () => tasks.stop())
  // Every parameter of restoreIndices is optional: a bare POST is an empty parameter object.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {}
  })
  // An action without parameters may come with `Content-Type: application/json` and no body.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if ((body as string).trim() === '') return done(null, {})
    try {
      done(null, JSON.parse(body as string))
    } catch (err) {
      done(Object.assign(new Error(`Invalid JSON body: ${(err as Error).message}`), { statusCode: 400 }))
    }
  })

  for (const prefix of PREFIXES) {
    const tag = { tags: ['operations'], ...(prefix === '/api/gms' ? { hide: true } : {}) }
    app.post(
      `${prefix}/operations`,
      {
        constraints: { action: 'truncateTimeseriesAspect' },
        schema: {
          ...tag,
          summary: 'Delete time-series rows up to a time: a dry run reports, a real run returns a task id',
          querystring: action('truncateTimeseriesAspect'),
          body: TruncateBodySchema,
          response: { 200: OperationResultSchema, ...errors },
        },
      },
      async (request) => ({ value: await operations.truncate(request.body) }),
    )

    app.post(
      `${prefix}/operations`,
      {
        constraints: { action: 'getEsTaskStatus' },
        schema: {
          ...tag,
          summary: 'Status of a truncation task (a JSON string)',
          querystring: action('getEsTaskStatus'),
          body: TaskStatusBodySchema,
          response: { 200: OperationResultSchema, ...errors },
        },
      },
      async (request) => ({ value: await operations.taskStatus(request.body) }),
    )

    app.post(
      `${prefix}/operations`,
      {
        constraints: { action: 'getIndexSizes' },
        schema: {
          ...tag,
          summary: 'Sizes of the time-series indices (a JSON string {indexSizes: [...]})',
          querystring: action('getIndexSizes'),
          response: { 200: OperationResultSchema },
        },
      },
      async () => ({ value: JSON.stringify({ indexSizes: await operations.indexSizes() }) }),
    )
  }

  for (const path of [...PREFIXES.map((p) => `${p}/operations`), '/aspects']) {
    app.post(
      path,
      {
        constraints: { action: 'restoreIndices' },
        schema: {
          tags: ['operations'],
          ...(path === '/operations' ? {} : { hide: true }),
          summary: 'Re-derive edges and search documents from the stored aspects',
          querystring: action('restoreIndices'),
          body: RestoreIndicesBodySchema,
          response: { 200: OperationResultSchema, ...errors },
        },
      },
      async (request) => ({
        value: await operations.restoreIndices(request.body, request.actor ?? ROOT_ACTOR),
      }),
    )
  }
}
