import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  UsageBatchIngestBodySchema,
  UsageQueryBodySchema,
  UsageQueryRangeBodySchema,
  UsageQueryResponseSchema,
} from '../schemas/usage.js'
import type { UsageService } from '../services/usage-service.js'

const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }
const action = (name: string) => Type.Object({ action: Type.Literal(name) })

/** `/usageStats?action=`: DataHub's deprecated usage resource (`batchIngest`, `query`, `queryRange`). */
export async function usageRoutes(
  app: CatalogServer,
  { usage }: { readonly usage: UsageService },
): Promise<void> {
  app.post(
    '/usageStats',
    {
      constraints: { action: 'batchIngest' },
      schema: {
        summary: 'Ingest usage buckets (stored as datasetUsageStatistics time-series values)',
        description: 'Answers 200 with an empty body, as a Rest.li void action.',
        tags: ['usage'],
        querystring: action('batchIngest'),
        body: UsageBatchIngestBodySchema,
      },
    },
    async (request, reply) => {
      await usage.batchIngest(request.body.buckets, request.actor ?? ROOT_ACTOR)
      return reply.status(200).send()
    },
  )

  app.post(
    '/usageStats',
    {
      constraints: { action: 'query' },
      schema: {
        summary: 'Usage of a resource in a time range: buckets and aggregations',
        tags: ['usage'],
        querystring: action('query'),
        body: UsageQueryBodySchema,
        response: { 200: UsageQueryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { resource, duration, startTime, endTime } = request.body
      return { value: await usage.query(resource, duration, startTime, endTime) }
    },
  )

  app.post(
    '/usageStats',
    {
      constraints: { action: 'queryRange' },
      schema: {
        summary: 'Usage of a resource over a range ending now',
        tags: ['usage'],
        querystring: action('queryRange'),
        body: UsageQueryRangeBodySchema,
        response: { 200: UsageQueryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { resource, duration, rangeFromEnd } = request.body
      return { value: await usage.queryRange(resource, duration, rangeFromEnd) }
    },
  )
}
