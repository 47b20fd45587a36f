import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidInputError } from '@catalog/core'

/** One REST call that ingests one record, as DataHub's Python REST emitter sends it. */
export interface IngestCall {
  readonly url: '/entities?action=ingest' | '/aspects?action=ingestProposal'
  readonly body: Record<string, unknown>
  readonly urn: string
}

/** A record of a DataHub metadata file: an MCE (`proposedSnapshot`) or an MCP. */
export type MetadataRecord = Record<string, unknown>

/**
 * The Python client's `pre_json_transform`: `com.linkedin.pegasus2avro.` becomes
 * `com.linkedin.` in keys, and `None` members are dropped.
 */
export function preJsonTransform(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(preJsonTransform)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue
    out[k.replace('com.linkedin.pegasus2avro.', 'com.linkedin.')] = preJsonTransform(v)
  }
  return out
}

/** The call that ingests a record: MCEs through `/entities?action=ingest`, MCPs through `ingestProposal`. */
export function toIngestCall(record: MetadataRecord): IngestCall {
  const r = preJsonTransform(record) as Record<string, unknown>
  if (r.proposedSnapshot && typeof r.proposedSnapshot === 'object') {
    const snapshot = r.proposedSnapshot as Record<string, { urn?: unknown }>
    const urn = Object.values(snapshot)[0]?.urn
    return {
      url: '/entities?action=ingest',
      body: {
        entity: { value: snapshot },
        ...(r.systemMetadata ? { systemMetadata: r.systemMetadata } : {}),
      },
      urn: typeof urn === 'string' ? urn : '(no urn)',
    }
  }
  const aspect = (r.aspect ?? {}) as { json?: unknown; value?: string; contentType?: string }
  const value = aspect.value ?? JSON.stringify(aspect.json)
  const proposal: Record<string, unknown> = {
    entityType: r.entityType,
    entityUrn: r.entityUrn,
    changeType: r.changeType,
    aspectName: r.aspectName,
    aspect: { value, contentType: aspect.contentType ?? 'application/json' },
  }
  if (r.systemMetadata) proposal.systemMetadata = r.systemMetadata
  if (r.headers) proposal.headers = r.headers
  return {
    url: '/aspects?action=ingestProposal',
    body: { proposal, async: 'false' },
    urn: typeof r.entityUrn === 'string' ? r.entityUrn : '(no urn)',
  }
}

/** The records of a JSON text: an array of records, or one record. */
export function parseRecords(text: string, source: string): MetadataRecord[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw new InvalidInputError(`${source} is not JSON: ${(err as Error).message}`)
  }
  const list = Array.isArray(parsed) ? parsed : [parsed]
  list.forEach((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) {
      throw new InvalidInputError(`${source}: record ${i} is not an object`)
    }
  })
  return list as MetadataRecord[]
}

/** The `.json` files of a path: the file itself, or every `.json` file under a directory, sorted. */
export function jsonFilesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(path, f))
}

/** Reads one file's records. */
export function readRecordsFile(file: string): MetadataRecord[] {
  return parseRecords(readFileSync(file, 'utf8'), file)
}
