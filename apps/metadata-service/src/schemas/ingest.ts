import { WRITE_LIMITS } from '@catalog/core'
import { type Static, Type } from 'typebox'

export const SystemMetadataSchema = Type.Object(
  {
    lastObserved: Type.Optional(Type.Integer()),
    runId: Type.Optional(Type.String()),
    lastRunId: Type.Optional(Type.String()),
    pipelineName: Type.Optional(Type.String()),
    registryName: Type.Optional(Type.String()),
    registryVersion: Type.Optional(Type.String()),
    properties: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: true, description: 'com.linkedin.mxe.SystemMetadata' },
)

export const GenericAspectSchema = Type.Object({
  value: Type.String({ description: 'The aspect serialized as a JSON string' }),
  contentType: Type.Optional(Type.String({ default: 'application/json' })),
})

export const ProposalSchema = Type.Object(
  {
    entityType: Type.String({ examples: ['dataset'] }),
    entityUrn: Type.Optional(
      Type.String({ examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'] }),
    ),
    entityKeyAspect: Type.Optional(GenericAspectSchema),
    changeType: Type.String({ description: 'UPSERT | CREATE | UPDATE | RESTATE | DELETE' }),
    aspectName: Type.Optional(Type.String({ examples: ['datasetProperties'] })),
    aspect: Type.Optional(GenericAspectSchema),
    systemMetadata: Type.Optional(SystemMetadataSchema),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    auditHeader: Type.Optional(Type.Unknown()),
  },
  { description: 'com.linkedin.mxe.MetadataChangeProposal' },
)
export type Proposal = Static<typeof ProposalSchema>

const AsyncFlag = Type.Optional(
  Type.String({ description: '"true" | "false" | "unset"; writes are always synchronous here' }),
)

export const IngestProposalBodySchema = Type.Object({ proposal: ProposalSchema, async: AsyncFlag })
export const IngestProposalBatchBodySchema = Type.Object({
  proposals: Type.Array(ProposalSchema, { maxItems: WRITE_LIMITS.maxBatchItems }),
  async: AsyncFlag,
})

export const SnapshotEntitySchema = Type.Object(
  {
    value: Type.Record(Type.String(), Type.Unknown(), {
      description: '{ "com.linkedin.metadata.snapshot.<Kind>Snapshot": { urn, aspects } }',
    }),
  },
  { description: 'com.linkedin.entity.Entity' },
)
export type SnapshotEntity = Static<typeof SnapshotEntitySchema>

export const IngestBodySchema = Type.Object({
  entity: SnapshotEntitySchema,
  systemMetadata: Type.Optional(SystemMetadataSchema),
})
export const BatchIngestBodySchema = Type.Object({
  entities: Type.Array(SnapshotEntitySchema, { maxItems: WRITE_LIMITS.maxBatchItems }),
  systemMetadata: Type.Optional(Type.Array(SystemMetadataSchema)),
})

export const StringValueSchema = Type.Object({ value: Type.String() })

/**
 * The UTF-8 bytes of a proposal's aspect text, when the caller has them already (the JSON body
 * worker made them while parsing a large body): the large-aspect worker takes those instead of
 * the string being encoded again on the event loop.
 */
export type AspectTextUtf8 = (aspect: NonNullable<Proposal['aspect']>) => Uint8Array | undefined
