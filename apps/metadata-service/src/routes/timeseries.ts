import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import { TimeseriesValuesBodySchema, TimeseriesValuesResponseSchema } from '../schemas/timeseries.js'
import type { TimeseriesService } from '../services/timeseries-service.js'

/** `POST /aspects?action=getTimeseriesAspectValues`: time-series values, newest first. */
export async function timeseriesRoutes(
  app: CatalogServer,
  { timeseries }: { readonly timeseries: TimeseriesService },
): Promise<void> {
  app.post(
    '/aspects',
    {
      constraints: { action: 'getTimeseriesAspectValues' },
      schema: {
        summary: 'Time-series values of an entity in an inclusive time range, newest first',
        tags: ['aspects'],
        querystring: Type.Object({ action: Type.Literal('getTimeseriesAspectValues') }),
        body: TimeseriesValuesBodySchema,
        response: { 200: TimeseriesValuesResponseSchema, 400: RestliErrorSchema, 422: RestliErrorSchema },
      },
    },
    async (request) => ({ value: await timeseries.values(request.body) }),
  )
}
