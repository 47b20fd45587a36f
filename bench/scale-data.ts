/**
 * The scale benchmark's synthetic catalog: dataset `i` as DataHub MCPs (JSON lines) for
 * `catalog import`. Three aspects each (datasetProperties, schemaMetadata, upstreamLineage);
 * with DataHub's four default aspects (datasetKey, browsePaths, browsePathsV2,
 * dataPlatformInstance) that is 7 aspect rows per dataset. Names, descriptions and columns use
 * the search benchmark's vocabulary, so broad words match hundreds of thousands of datasets.
 * Lineage is a DAG: dataset `i` has 1 to 5 upstreams (3 on average) among the
 * {@link LINEAGE_WINDOW} datasets before it, so every dataset also has about 3 downstreams and
 * multi-hop walks fan out both ways.
 */
import { createWriteStream } from 'node:fs'
import { COLUMNS, DOMAINS, KINDS, PLATFORMS, THINGS } from './vocabulary.js'

export const LINEAGE_WINDOW = 2_000
const STAMP = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

const TAGS = ['PII', 'Legacy', 'Gold', 'Silver', 'GDPR', 'Certified']

/**
 * A small deterministic PRNG (mulberry32): every run builds the same catalog. Unlike a bare
 * linear congruential step modulo small numbers, successive picks are independent.
 */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) % n
  }
}

interface Naming {
  readonly platform: string
  readonly domain: string
  readonly thing: string
  readonly kind: string
  readonly table: string
  readonly name: string
  readonly origin: string
}

/** The parts of dataset `i`'s URN, from their own PRNG stream (so a URN is cheap to compute). */
function naming(i: number): Naming {
  const r = rng(i * 2 + 1)
  const pick = <T>(a: readonly T[]) => a[r(a.length)] as T
  const [domain, thing, kind] = [pick(DOMAINS), pick(THINGS), pick(KINDS)]
  const table = `${kind}_${thing}_${i}`
  const origin = r(10) < 8 ? 'PROD' : r(2) ? 'DEV' : 'STG'
  return {
    platform: PLATFORMS[i % PLATFORMS.length] as string,
    domain,
    thing,
    kind,
    table,
    name: `${domain}_db.${pick(DOMAINS)}_${pick(KINDS)}.${table}`,
    origin,
  }
}

/** The dataset name (the `id` search field) of dataset `i`. */
export const datasetName = (i: number): string => naming(i).name

/** The table name (`datasetProperties.name`, the `name` search field) of dataset `i`. */
export const datasetTable = (i: number): string => naming(i).table

/** The URN of dataset `i`. */
export function datasetUrn(i: number): string {
  const n = naming(i)
  return `urn:li:dataset:(urn:li:dataPlatform:${n.platform},${n.name},${n.origin})`
}

/** The indexes of dataset `i`'s upstreams: 1 to 5 distinct earlier datasets (fewer near 0). */
export function upstreamsOf(i: number): number[] {
  const r = rng(i * 2 + 2)
  const window = Math.min(i, LINEAGE_WINDOW)
  const want = Math.min(window, 1 + r(5))
  const out = new Set<number>()
  while (out.size < want) out.add(i - 1 - r(window))
  return [...out]
}

/** The three aspects of dataset `i`. */
function aspectsOf(i: number): Record<string, unknown> {
  const n = naming(i)
  const r = rng(i * 2 + 2_000_000_001)
  const pick = <T>(a: readonly T[]) => a[r(a.length)] as T
  const fields = Array.from({ length: 4 + r(9) }, (_, k) => {
    const column = `${pick(COLUMNS)}${k >= 4 ? `_${k}` : ''}`
    const tag = r(6) === 0 ? { globalTags: { tags: [{ tag: `urn:li:tag:${pick(TAGS)}` }] } } : {}
    return {
      fieldPath: column,
      nativeDataType: 'varchar',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      ...(r(2) ? { description: `The ${column.replace(/_/g, ' ')} of the ${n.thing.slice(0, -1)}` } : {}),
      ...tag,
    }
  })
  return {
    datasetProperties: {
      name: n.table,
      description: `${n.kind} ${n.thing} of the ${n.domain} team, refreshed ${pick(KINDS)}; used to track ${pick(THINGS)}.`,
      customProperties: { team: n.domain },
    },
    schemaMetadata: {
      schemaName: n.name,
      platform: `urn:li:dataPlatform:${n.platform}`,
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields,
    },
    upstreamLineage: {
      upstreams: upstreamsOf(i).map((u) => ({
        dataset: datasetUrn(u),
        type: 'TRANSFORMED',
        auditStamp: STAMP,
      })),
    },
  }
}

/** Dataset `i` as JSON lines of MCPs, newline-terminated. */
export function datasetLines(i: number): string {
  const urn = datasetUrn(i)
  let text = ''
  for (const [aspectName, json] of Object.entries(aspectsOf(i)))
    text += `${JSON.stringify({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { json, contentType: 'application/json' },
      systemMetadata: { lastObserved: STAMP.time, runId: 'bench-scale' },
    })}\n`
  return text
}

/** Writes datasets `0..n-1` to `file`; returns the number of lineage edges in it. */
export async function writeDatasetFile(file: string, n: number): Promise<number> {
  const out = createWriteStream(file)
  let edges = 0
  let buffer = ''
  for (let i = 0; i < n; i++) {
    buffer += datasetLines(i)
    edges += upstreamsOf(i).length
    if (buffer.length < 1 << 20) continue
    if (!out.write(buffer)) await new Promise<void>((r) => out.once('drain', () => r()))
    buffer = ''
  }
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject)
    out.end(buffer, () => resolve())
  })
  return edges
}
