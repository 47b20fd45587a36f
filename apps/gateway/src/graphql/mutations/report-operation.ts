import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { resolveInput, upsert, write } from './support.js'

interface ReportOperationInput {
  readonly urn: string
  readonly operationType: string
  readonly customOperationType?: string | null
  readonly sourceType: string
  readonly customProperties?: ReadonlyArray<{ readonly key: string; readonly value: string }> | null
  readonly partition?: string | null
  readonly numAffectedRows?: number | null
  readonly timestampMillis?: number | null
}

/** The entity types DataHub's ReportOperationResolver reports operations on. */
const SUPPORTED = ['dataset']

/**
 * DataHub's ReportOperationResolver: one `operation` time-series value of the dataset (the
 * caller as its actor, `timestampMillis` or now as both its time and last update), as an
 * orchestrator or a data-quality tool reports an insert, update or custom operation. Answers
 * `"true"`: DataHub's resolver returns a boolean for a field the schema types as a string.
 */
async function reportOperation(
  _: unknown,
  { input }: { input: ReportOperationInput },
  ctx: CatalogContext,
): Promise<string> {
  const entity = resolveInput(ctx, input.urn)
  if (!SUPPORTED.includes(entity.entity.name)) {
    throw new InvalidInputError(
      `Unable to report operation. Invalid entity type ${entity.entity.name} provided.`,
    )
  }
  const timestampMillis = input.timestampMillis ?? Date.now()
  const operation: AspectValue = {
    timestampMillis,
    lastUpdatedTimestamp: timestampMillis,
    actor: ctx.actor,
    operationType: input.operationType,
    sourceType: input.sourceType,
  }
  if (input.customOperationType != null) operation.customOperationType = input.customOperationType
  if (input.numAffectedRows != null) operation.numAffectedRows = input.numAffectedRows
  if (input.partition != null) operation.partitionSpec = { type: 'PARTITION', partition: input.partition }
  if (input.customProperties != null) {
    operation.customProperties = Object.fromEntries(input.customProperties.map((p) => [p.key, p.value]))
  }
  await write(ctx, [upsert(entity, 'operation', operation)])
  return 'true'
}

export const operationMutations = { reportOperation }
