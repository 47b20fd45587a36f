import { Type } from 'typebox'

export const DeleteAllBodySchema = Type.Object({
  registryId: Type.Optional(
    Type.String({
      description: '`name:version` of a model registry',
      examples: ['mycompany-dq-model:0.0.1'],
    }),
  ),
  dryRun: Type.Optional(Type.Boolean({ default: false })),
  soft: Type.Optional(
    Type.Boolean({ description: 'Sent by the CLI and ignored, as DataHub does (entities are soft-deleted)' }),
  ),
})

export const DeleteAllResponseSchema = Type.Object({
  value: Type.Object(
    {
      entitiesAffected: Type.Integer(),
      entitiesDeleted: Type.Integer(),
      aspectsAffected: Type.Integer(),
      aspectRowSummaries: Type.Array(
        Type.Object({
          runId: Type.String(),
          aspectName: Type.String(),
          urn: Type.String(),
          timestamp: Type.Integer(),
          keyAspect: Type.Boolean(),
        }),
      ),
    },
    { description: 'com.linkedin.metadata.run.RollbackResponse' },
  ),
})
