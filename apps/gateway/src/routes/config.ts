import '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

/**
 * The version DataHub clients read from `/config`. It stays below 1.0.1 so the Python and
 * Java clients keep using the Rest.li endpoints this server speaks.
 */
export const GMS_COMPAT_VERSION = 'v0.14.1'

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
