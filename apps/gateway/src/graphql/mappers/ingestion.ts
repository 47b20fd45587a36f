import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { stringMapEntries } from './assertion.js'
import { type Mapped, num, obj, ref, str } from './common.js'
import type { EntityMapping } from './types.js'

export const REQUEST_INPUT = 'dataHubExecutionRequestInput'
const REQUEST_RESULT = 'dataHubExecutionRequestResult'
/** A string map as `[StringMapEntry]`; null when absent. */
export function mapEntries(v: unknown): Mapped[] | null {
  return obj(v) ? stringMapEntries(v) : null
}

/** DataHub's `ExecutionRequestMapper` of the request's input. */
function requestInput(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const source = obj(v.source)
  return {
    task: str(v.task),
    source: { type: str(source?.type), ingestionSource: str(source?.ingestionSource) },
    arguments: mapEntries(v.args),
    requestedAt: num(v.requestedAt) ?? 0,
    actorUrn: str(v.actorUrn),
    actor: ref(v.actorUrn, ['corpuser']) ?? null,
    executorId: str(v.executorId),
  }
}

function requestResult(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const report = obj(v.structuredReport)
  return {
    status: str(v.status),
    startTimeMs: num(v.startTimeMs),
    durationMs: num(v.durationMs),
    report: str(v.report),
    structuredReport: report
      ? {
          type: str(report.type),
          serializedValue: str(report.serializedValue),
          contentType: str(report.contentType),
        }
      : null,
  }
}

/**
 * `ExecutionRequest` as DataHub's ExecutionRequestMapper: its id, input (task, source, arguments,
 * request time, actor, executor) and result (status, times, report); `source`, the ingestion
 * source it ran, has its own resolver.
 */
function mapExecutionRequest(e: LoadedEntity): Mapped {
  const input = e.aspects[REQUEST_INPUT]
  return {
    urn: e.urn,
    id: e.urn.slice('urn:li:dataHubExecutionRequest:'.length),
    input: requestInput(input),
    result: requestResult(e.aspects[REQUEST_RESULT]),
  }
}

export const EXECUTION_REQUEST_MAPPING: EntityMapping = {
  typeName: 'ExecutionRequest',
  entityType: 'EXECUTION_REQUEST',
  aspects: [REQUEST_INPUT, REQUEST_RESULT],
  map: mapExecutionRequest,
}
