import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, restliList, urnFromPath } from '@catalog/http-kit'
import { Type } from 'typebox'
import { BatchIngestBodySchema, IngestBodySchema } from '../schemas/ingest.js'
import { SNAPSHOT_JSON_TEXT } from '../schemas/large-values.js'
import type { IngestService } from '../services/ingest-service.js'
import type { ReadService } from '../services/read-service.js'

export interface EntityRoutesOptions {
  readonly ingest: IngestService
  readonly reads: ReadService
}

/** `/entities`: legacy snapshot ingest (MCEs) and snapshot reads. */
export async function entityRoutes(
  app: CatalogServer,
  { ingest, reads }: EntityRoutesOptions,
): Promise<void> {
  app.post(
    '/entities',
    {
      constraints: { action: 'ingest' },
      config: SNAPSHOT_JSON_TEXT.ingest,
      schema: {
        summary:
          'Ingest a snapshot (deprecated, still used by DataHub clients); all its aspects in one transaction',
        description: 'Answers 200 with an empty body, as a Rest.li void action.',
        tags: ['entities'],
        querystring: Type.Object({ action: Type.Literal('ingest') }),
        body: IngestBodySchema,
      },
    },
    async (request, reply) => {
      const sm = request.body.systemMetadata
      await ingest.ingestSnapshots(
        [request.body.entity],
        sm && Object.keys(sm).length > 0 ? [sm] : [],
        request.actor ?? ROOT_ACTOR,
      )
      return reply.status(200).send()
    },
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'batchIngest' },
      config: SNAPSHOT_JSON_TEXT.batchIngest,
      schema: {
        summary: 'Ingest several snapshots in one transaction',
        tags: ['entities'],
        querystring: Type.Object({ action: Type.Literal('batchIngest') }),
        body: BatchIngestBodySchema,
      },
    },
    async (request, reply) => {
      await ingest.ingestSnapshots(
        request.body.entities,
        request.body.systemMetadata ?? [],
        request.actor ?? ROOT_ACTOR,
      )
      return reply.status(200).send()
    },
  )

  app.get(
    '/entities/*',
    {
      schema: {
        summary: 'Read an entity as a legacy snapshot (key aspect first)',
        tags: ['entities'],
        querystring: Type.Object({
          aspects: Type.Optional(Type.Unknown({ description: 'List(<record name>,...)' })),
        }),
        response: { 200: Type.Object({ value: Type.Record(Type.String(), Type.Unknown()) }) },
      },
    },
    async (request) =>
      (await reads.snapshot(urnFromPath(request.url, '/entities/'), restliList(request.url, 'aspects'))) as {
        value: Record<string, unknown>
      },
  )
}
