import '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

/**
 * The version DataHub clients read from `/config`. From 1.0.1 on, DataHub's Python SDK (client
 * mode SDK) writes through `/openapi/v3/entity` and may wait on `/openapi/v1/trace/write`;
 * the CLI and ingestion keep using Rest.li. Both surfaces are served here.
 */
export const GMS_COMPAT_VERSION = 'v1.0.1'

/** `GET /config`, answering as GMS does (`noCode: "true"`, server version, capabilities). */
export async function configRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/config',
    { schema: { summary: 'Server configuration, as GMS answers it', tags: ['gms'] } },
    async () => ({
      noCode: 'true',
      versions: {
        'acryldata/datahub': { version: GMS_COMPAT_VERSION, commit: 'datahub-compatible-catalog' },
        'linkedin/datahub': { version: GMS_COMPAT_VERSION, commit: 'datahub-compatible-catalog' },
      },
      statefulIngestionCapable: true,
      patchCapable: true,
      supportsImpactAnalysis: true,
      retention: 'false',
      timeZone: 'GMT',
      datasetUrnNameCasing: false,
      models: {},
      managedIngestion: { enabled: false, defaultCliVersion: '' },
      telemetry: { enabledCli: false, enabledIngestion: false },
    }),
  )
}
