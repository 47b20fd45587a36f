import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import { EvaluateBodySchema, EvaluateResponseSchema } from '../schemas/metadata-tests.js'
import type { MetadataTestsService } from '../services/metadata-tests-service.js'

/** `POST /gms/test?action=evaluate` (also `/test` and `/api/gms/test`): run metadata tests on an entity. */
export async function metadataTestRoutes(
  app: CatalogServer,
  { metadataTests }: { readonly metadataTests: MetadataTestsService },
): Promise<void> {
  for (const path of ['/gms/test', '/test', '/api/gms/test']) {
    app.post(
      path,
      {
        constraints: { action: 'evaluate' },
        schema: {
          summary: 'Evaluate metadata tests against an entity; push stores the results (testResults)',
          tags: ['tests'],
          ...(path === '/gms/test' ? {} : { hide: true }),
          querystring: Type.Object({ action: Type.Literal('evaluate') }),
          body: EvaluateBodySchema,
          response: {
            200: EvaluateResponseSchema,
            400: RestliErrorSchema,
            404: RestliErrorSchema,
            422: RestliErrorSchema,
          },
        },
      },
      async (request) => ({
        value: await metadataTests.evaluate(request.body, request.actor ?? ROOT_ACTOR),
      }),
    )
  }
}
