import { randomBytes } from 'node:crypto'
import { InvalidInputError, type Registry, ValidationError } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { TraceResponse } from '../schemas/openapi.js'

const TRACE_ID = /^[0-9a-f]{32}$/i

/** The W3C `traceparent` of a write answered now: the trace id starts with the time in µs, as DataHub's does. */
export function newTraceparent(nowMillis = Date.now()): string {
  const micros = BigInt(nowMillis) * 1000n
  const traceId = micros.toString(16).padStart(16, '0').slice(-16) + randomBytes(8).toString('hex')
  return `00-${traceId}-${randomBytes(8).toString('hex')}-01`
}

/**
 * `POST /openapi/v1/trace/write/{traceId}`. Writes here are synchronous and durable: a write
 * whose answer carried a trace id was in the store (and, in one process, in search) before
 * that answer. So a trace reports what the store holds now, judged against the time in the
 * trace id: the latest row written at or before it is `ACTIVE_STATE`, a newer row means the
 * traced value was overwritten (`HISTORIC_STATE`), and no row (deleted since, or never
 * written) is `UNKNOWN`. Nothing is ever `PENDING`.
 */
export class WriteTraceService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  async status(
    traceId: string,
    aspects: Readonly<Record<string, readonly string[]>>,
    onlyIncludeErrors: boolean,
  ): Promise<TraceResponse> {
    const tracedMillis = traceMillis(traceId)
    const out: TraceResponse = {}
    for (const [urn, names] of Object.entries(aspects)) {
      let entity: ReturnType<Registry['resolveUrn']>['entity']
      try {
        entity = this.registry.resolveUrn(urn).entity
      } catch (err) {
        if (err instanceof ValidationError) throw new InvalidInputError(err.message)
        throw err
      }
      const latest = (await this.store.latest([urn], names)).get(urn) ?? []
      const statuses: TraceResponse[string] = {}
      for (const name of names) {
        const spec = this.registry.findAspect(entity, name)
        if (!spec) throw new InvalidInputError(`Unknown aspect ${name} for entity ${entity.name}`)
        let state: string
        let message: string | undefined
        if (spec.timeseries) {
          const rows = await this.store.timeseries({ urn, entityType: entity.name, aspect: name, limit: 1 })
          state = rows.length > 0 ? 'ACTIVE_STATE' : 'UNKNOWN'
          if (state === 'UNKNOWN') message = 'no time-series row for this aspect'
        } else {
          const row = latest.find((r) => r.aspect === name)
          if (!row) {
            state = 'UNKNOWN'
            message = 'no row for this aspect now (deleted since, or never written)'
          } else state = row.created.time <= tracedMillis ? 'ACTIVE_STATE' : 'HISTORIC_STATE'
        }
        if (onlyIncludeErrors) continue
        const storage = { writeStatus: state, ...(message ? { writeMessage: message } : {}) }
        statuses[name] = { success: true, primaryStorage: storage, searchStorage: { ...storage } }
      }
      if (Object.keys(statuses).length > 0) out[urn] = statuses
    }
    return out
  }
}

/** The time a trace id was made (its first 16 hex digits are µs since the epoch). */
function traceMillis(traceId: string): number {
  if (!TRACE_ID.test(traceId)) throw new InvalidInputError(`Invalid trace id: ${traceId}`)
  return Number(BigInt(`0x${traceId.slice(0, 16)}`) / 1000n)
}
