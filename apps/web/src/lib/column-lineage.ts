/** One column-level edge: a field of an upstream dataset feeding a field of a downstream one. */
export interface ColumnEdge {
  readonly from: string
  readonly fromField: string
  readonly to: string
  readonly toField: string
}

const PREFIX = 'urn:li:schemaField:('

/** `urn:li:schemaField:(<dataset urn>,<field path>)` → its dataset and field; null for another URN. */
export function parseSchemaFieldUrn(urn: string): { dataset: string; field: string } | null {
  if (!urn.startsWith(PREFIX) || !urn.endsWith(')')) return null
  const inner = urn.slice(PREFIX.length, -1)
  const comma = inner.lastIndexOf(',')
  if (comma <= 0 || comma === inner.length - 1) return null
  return { dataset: inner.slice(0, comma), field: inner.slice(comma + 1) }
}

interface FineGrained {
  upstreams?: unknown
  downstreams?: unknown
}

const urnsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((u): u is string => typeof u === 'string') : []

/**
 * The column edges of one `upstreamLineage` value's `fineGrainedLineages`: every upstream
 * field to every downstream field of each entry (dataset-level members have no field and are
 * left out).
 */
export function columnEdges(upstreamLineage: unknown): ColumnEdge[] {
  const entries = (upstreamLineage as { fineGrainedLineages?: unknown } | null)?.fineGrainedLineages
  if (!Array.isArray(entries)) return []
  const out: ColumnEdge[] = []
  for (const entry of entries as FineGrained[]) {
    const ups = urnsOf(entry.upstreams).flatMap((u) => parseSchemaFieldUrn(u) ?? [])
    const downs = urnsOf(entry.downstreams).flatMap((u) => parseSchemaFieldUrn(u) ?? [])
    for (const u of ups)
      for (const d of downs)
        out.push({ from: u.dataset, fromField: u.field, to: d.dataset, toField: d.field })
  }
  return out
}
