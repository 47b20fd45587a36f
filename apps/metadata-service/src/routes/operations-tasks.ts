import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import type { OperationsService } from '../services/operations-service.js'

const TaskStatusSchema = Type.Object(
  {
    completed: Type.Boolean(),
    taskId: Type.String(),
    runTimeNanos: Type.Integer(),
    status: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Counters as Elasticsearch reports them (total, updated, deleted, batches, noops, ...)',
    }),
    failure: Type.Optional(Type.String()),
    timedOut: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
)

/**
 * DataHub's OpenAPI task status, `GET /openapi/operations/elasticSearch/getTaskStatus?task=`:
 * the same tasks as `/operations?action=getEsTaskStatus` (truncations, and restoreIndices runs
 * while they run), answered as an object rather than a JSON string.
 */
export async function operationsTaskRoutes(
  app: CatalogServer,
  { operations }: { readonly operations: OperationsService },
): Promise<void> {
  app.get(
    '/openapi/operations/elasticSearch/getTaskStatus',
    {
      schema: {
        summary: 'Status of a task (a truncation, or a running restoreIndices)',
        tags: ['operations'],
        querystring: Type.Object({ task: Type.String({ description: '`<nodeId>:<taskId>`' }) }),
        response: { 200: TaskStatusSchema, 400: RestliErrorSchema, 404: RestliErrorSchema },
      },
    },
    async (request) => operations.taskStatusObject(request.query.task),
  )
}
