import { ROOT_ACTOR } from '@catalog/core'
import {
  type CatalogServer,
  largeStringUtf8,
  queryParam,
  RestliErrorSchema,
  restliError,
  sendJsonText,
  UrlMemo,
  urnFromPath,
} from '@catalog/http-kit'
import { Type } from 'typebox'
import { GetCountSchema } from '../schemas/entity-actions.js'
import {
  type AspectTextUtf8,
  IngestProposalBatchBodySchema,
  IngestProposalBodySchema,
  StringValueSchema,
} from '../schemas/ingest.js'
import { PROPOSAL_LARGE_STRINGS } from '../schemas/large-values.js'
import type { EntityAdminService } from '../services/entity-admin-service.js'
import type { IngestService } from '../services/ingest-service.js'
import { AspectNotFoundError, type ReadService } from '../services/read-service.js'

export interface AspectRoutesOptions {
  readonly ingest: IngestService
  readonly reads: ReadService
  readonly admin: EntityAdminService
}

/** A proposal's aspect text's bytes, when the JSON body worker made them (see `PROPOSAL_LARGE_STRINGS`). */
const aspectTextUtf8: AspectTextUtf8 = (aspect) => largeStringUtf8(aspect, 'value')

/** `/aspects`: propose aspect changes (MCPs) and read versioned aspects. */
export async function aspectRoutes(
  app: CatalogServer,
  { ingest, reads, admin }: AspectRoutesOptions,
): Promise<void> {
  // The URN and aspect name of a read's URL, worked out once per URL.
  const parsed = new UrlMemo<{ urn: string; aspect: string }>()
  const getCount = {
    summary: 'Number of latest rows of an aspect, optionally of URNs matching a SQL LIKE pattern',
    tags: ['aspects'],
    querystring: Type.Object({ action: Type.Literal('getCount') }),
    response: { 200: Type.Object({ value: Type.Integer() }) },
  }
  app.post(
    '/aspects',
    { constraints: { action: 'getCount' }, schema: { ...getCount, body: GetCountSchema } },
    async (request) => ({ value: await admin.countAspect(request.body.aspect, request.body.urnLike) }),
  )
  app.get(
    '/aspects',
    {
      constraints: { action: 'getCount' },
      schema: {
        ...getCount,
        querystring: Type.Object({ action: Type.Literal('getCount'), ...GetCountSchema.properties }),
      },
    },
    async (request) => ({ value: await admin.countAspect(request.query.aspect, request.query.urnLike) }),
  )

  app.post(
    '/aspects',
    {
      constraints: { action: 'ingestProposal' },
      config: PROPOSAL_LARGE_STRINGS.ingestProposal,
      schema: {
        summary: 'Propose an aspect change (UPSERT or DELETE)',
        tags: ['aspects'],
        querystring: Type.Object({ action: Type.Literal('ingestProposal') }),
        body: IngestProposalBodySchema,
        response: { 200: StringValueSchema },
      },
    },
    async (request) => {
      await ingest.ingestProposals([request.body.proposal], request.actor ?? ROOT_ACTOR, aspectTextUtf8)
      return { value: request.body.proposal.entityUrn ?? '' }
    },
  )

  app.post(
    '/aspects',
    {
      constraints: { action: 'ingestProposalBatch' },
      config: PROPOSAL_LARGE_STRINGS.ingestProposalBatch,
      schema: {
        summary: 'Propose several aspect changes, all or nothing',
        tags: ['aspects'],
        querystring: Type.Object({ action: Type.Literal('ingestProposalBatch') }),
        body: IngestProposalBatchBodySchema,
        response: { 200: StringValueSchema },
      },
    },
    async (request) => {
      await ingest.ingestProposals(request.body.proposals, request.actor ?? ROOT_ACTOR, aspectTextUtf8)
      return { value: 'success' }
    },
  )

  app.get(
    '/aspects/*',
    {
      schema: {
        summary: 'Read one version of an aspect (0 is the latest)',
        tags: ['aspects'],
        querystring: Type.Object({
          aspect: Type.String({ examples: ['datasetProperties'] }),
          version: Type.Optional(Type.Integer({ default: 0 })),
        }),
        response: {
          200: Type.Object({ version: Type.Integer(), aspect: Type.Record(Type.String(), Type.Unknown()) }),
          404: RestliErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { urn, aspect } = parsed.get(request.url, () => ({
        urn: urnFromPath(request.url, '/aspects/'),
        aspect: queryParam(request.url, 'aspect') ?? request.query.aspect,
      }))
      try {
        const json = await reads.versionedJson(urn, aspect, request.query.version ?? 0)
        return sendJsonText(reply, json)
      } catch (err) {
        if (!(err instanceof AspectNotFoundError)) throw err
        return reply
          .status(404)
          .send(restliError(404, undefined, 'com.linkedin.metadata.restli.NonExceptionHttpErrorResponse'))
      }
    },
  )
}
