import {
  type AuditStamp,
  type EntityRef,
  type Registry,
  ROOT_ACTOR,
  type SystemMetadata,
  ValidationError,
} from '@catalog/core'
import { IngestBodySchema, IngestService, ProposalSchema } from '@catalog/metadata-service'
import type { EntityDefaults, MetadataStore, Mutation, WriteBatch } from '@catalog/store'
import type { BulkAspectRow } from '@catalog/store-sqlite'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'
import { toIngestCall } from '../records.js'

/** What one record (or one entity's run of aspect rows) turns into. */
export interface Converted {
  /** The store batch of the latest values (absent when nothing but history or failures). */
  readonly batch?: WriteBatch
  /** History rows of a `metadata_aspect_v2` export (version > 0). */
  readonly history: readonly BulkAspectRow[]
  /** Records that failed, with the reason; nothing of them is stored. */
  readonly failures: readonly string[]
}

/**
 * Turns input records into store batches exactly as the REST ingest path does: MCEs and MCPs go
 * through the same request schemas and the metadata service's own `IngestService` (validation,
 * normalization, default aspects, edges); its store is a sink that hands the batch back. Rows of
 * a `metadata_aspect_v2` export are validated with the same registry calls, one entity's run of
 * rows at a time, keeping their own audit stamps and version numbers.
 */
export class RecordConverter {
  private captured: WriteBatch[] = []
  private readonly ingest: IngestService

  constructor(
    private readonly registry: Registry,
    private readonly actor: string = ROOT_ACTOR,
  ) {
    const sink: Pick<MetadataStore, 'write'> = {
      write: async (batch) => {
        this.captured.push(batch)
        return { results: [], seq: 0 }
      },
    }
    // IngestService only ever calls `write` on its store.
    this.ingest = new IngestService(registry, sink as MetadataStore)
  }

  /** An MCE (`proposedSnapshot`) or MCP record, as `catalog ingest` would send it. */
  async metadataRecord(record: Record<string, unknown>): Promise<Converted> {
    this.captured = []
    const call = toIngestCall(record)
    try {
      if (call.url === '/entities?action=ingest') {
        checkSchema(IngestBodySchema, call.body)
        const body = call.body as { entity: never; systemMetadata?: SystemMetadata }
        const sm = body.systemMetadata
        await this.ingest.ingestSnapshots(
          [body.entity],
          sm && Object.keys(sm).length > 0 ? [sm] : [],
          this.actor,
        )
      } else {
        const proposal = (call.body as { proposal: unknown }).proposal
        checkSchema(ProposalSchema, proposal)
        await this.ingest.ingestProposals([proposal as never], this.actor)
      }
    } catch (err) {
      return { history: [], failures: [`${call.urn}: ${(err as Error).message}`] }
    }
    const batch = this.captured[0]
    return { ...(batch ? { batch } : {}), history: [], failures: [] }
  }

  /** The rows of one entity from a `metadata_aspect_v2` export (same urn, in file order). */
  aspectRows(rows: ReadonlyArray<Record<string, unknown>>): Converted {
    const failures: string[] = []
    const history: BulkAspectRow[] = []
    const mutations: Mutation[] = []
    let defaults: EntityDefaults | undefined
    let created: AuditStamp | undefined
    for (const row of rows) {
      try {
        const ref = this.registry.resolveUrn(String(row.urn))
        const spec = this.registry.aspect(ref.entity, String(row.aspect))
        const version = Number(row.version)
        if (!Number.isInteger(version) || version < 0)
          throw new ValidationError(`version ${String(row.version)} is not a whole number`)
        const value = this.registry.validateAspect(spec, parseJson(row.metadata, 'metadata'))
        const systemMetadata = parseSystemMetadata(row.systemmetadata)
        const stamp = { time: parseTime(row.createdon), actor: String(row.createdby || ROOT_ACTOR) }
        const base = { urn: ref.urn, aspect: spec.name, value, created: stamp }
        if (version > 0) {
          history.push({ ...base, version, ...(systemMetadata ? { systemMetadata } : {}) })
          continue
        }
        if (spec.timeseries) {
          mutations.push({
            kind: 'timeseries',
            row: {
              urn: ref.urn,
              entityType: ref.entity.name,
              aspect: spec.name,
              timestampMillis: value.timestampMillis as number,
              value,
              ...(systemMetadata ? { systemMetadata } : {}),
            },
          })
          continue
        }
        created ??= stamp
        defaults ??= this.defaultsOf(ref)
        mutations.push({
          kind: 'upsert',
          entityType: ref.entity.name,
          ...base,
          ...(systemMetadata ? { systemMetadata } : {}),
          edges: this.registry.edges(ref.entity, spec.name, value),
        })
      } catch (err) {
        failures.push(
          `${String(row.urn)} ${String(row.aspect)} v${String(row.version)}: ${(err as Error).message}`,
        )
      }
    }
    if (mutations.length === 0) return { history, failures }
    const batch: WriteBatch = {
      mutations,
      defaults: defaults ? [defaults] : [],
      created: created ?? { time: Date.now(), actor: this.actor },
    }
    return { batch, history, failures }
  }

  private defaultsOf(ref: EntityRef): EntityDefaults {
    return {
      urn: ref.urn,
      entityType: ref.entity.name,
      keyAspect: ref.entity.keyAspect,
      aspects: this.registry.defaultAspects(ref).map((d) => ({
        aspect: d.aspect,
        value: d.value,
        edges: this.registry.edges(ref.entity, d.aspect, d.value),
      })),
    }
  }
}

/** Whether a JSON record is a `metadata_aspect_v2` row rather than an MCE or MCP. */
export function isAspectRow(record: Record<string, unknown>): boolean {
  return typeof record.urn === 'string' && 'metadata' in record && 'aspect' in record
}

const compiled = new Map<TSchema, ReturnType<typeof Compile>>()

/** The request-body check the REST route makes, with the same wording as its 400 answer. */
function checkSchema(schema: TSchema, value: unknown): void {
  let check = compiled.get(schema)
  if (!check) {
    check = Compile(schema)
    compiled.set(schema, check)
  }
  if (check.Check(value)) return
  const errors = Value.Errors(schema, value)
  const message = errors
    .slice(0, 5)
    .map((e) => {
      const path = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(body)'
      return `Invalid parameter '${path}': ${e.message ?? e.keyword}`
    })
    .join('; ')
  throw new ValidationError(message)
}

function parseJson(text: unknown, column: string): unknown {
  if (typeof text !== 'string') return text
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new ValidationError(`${column} is not JSON: ${(err as Error).message}`)
  }
}

function parseSystemMetadata(text: unknown): SystemMetadata | undefined {
  if (text === undefined || text === null || text === '') return undefined
  const value = parseJson(text, 'systemmetadata')
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ValidationError('systemmetadata is not a JSON object')
  return value as SystemMetadata
}

/** `createdon`: epoch millis, or a SQL timestamp as MySQL and Postgres export it (UTC). */
function parseTime(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  const text = String(value ?? '').trim()
  if (/^\d+$/.test(text)) return Number(text)
  const iso = text.replace(' ', 'T')
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`)
  if (Number.isNaN(ms)) throw new ValidationError(`createdon ${text} is not a time`)
  return ms
}
