/**
 * Synthetic lineage graph for `bench/lineage.ts`, written straight into a SQLite store file in
 * the store's own table layout (key aspect rows in `metadata_aspect_v2`, `DownstreamOf` rows in
 * `edges`, a few `status` rows marking soft-deleted datasets). It bypasses the HTTP ingest path
 * on purpose: ingesting millions of edges through the API would take far longer than the
 * benchmark itself, and the benchmark measures reads. No change-log rows are written, so the
 * search index is not fed, and `upstreamLineage` aspect rows are not written (the edges carry
 * that aspect name): `restoreIndices` would not re-derive them.
 *
 * Shape at scale 1: 10 layers of 100,000 datasets (1,000,000 entities). Every dataset of
 * layer k >= 1 is `DownstreamOf` 3 random datasets of layer k-1; in each layer 23 hubs have
 * 1,500 extra downstreams each in the next layer; 1,000 back edges from layer 0 to layer 9 close
 * cycles across the whole depth; 0.2% of datasets are soft-deleted. About 3,010,000 edges.
 */

import { SqliteMetadataStore } from '@catalog/store-sqlite'
import Database from 'better-sqlite3'

const LAYERS = 10
const UPSTREAMS_PER_NODE = 3
const HUB_FANOUT = 1500
const ACTOR = 'urn:li:corpuser:bench'
const ASPECT = 'upstreamLineage'

export interface LineageGraph {
  readonly entities: number
  readonly edges: number
  readonly softDeleted: number
  /** Indexes of the hubs in every layer but the last (each with 1,500+ downstreams at scale 1). */
  readonly hubIndexes: readonly number[]
  readonly layers: number
  readonly perLayer: number
  /** The URN of dataset `index` of `layer`. */
  readonly urn: (layer: number, index: number) => string
  /** Seconds spent writing rows, and building the store's indexes afterwards. */
  readonly writeSeconds: number
  readonly indexSeconds: number
}

/** A small deterministic PRNG (mulberry32), so every run builds the same graph. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

/** Builds the graph of `scale` (1 = 1,000,000 entities) into the store file `file`. */
export async function generateLineageGraph(file: string, scale: number): Promise<LineageGraph> {
  const perLayer = Math.max(200, Math.round((1_000_000 * scale) / LAYERS))
  const fanout = Math.min(perLayer, HUB_FANOUT)
  const hubsPerLayer = Math.max(1, Math.ceil(perLayer / 3 / fanout))
  const hubStride = Math.floor(perLayer / hubsPerLayer)
  const backEdges = Math.max(10, Math.round(1000 * scale))
  const width = String(perLayer).length
  const urn = (layer: number, index: number) =>
    `urn:li:dataset:(urn:li:dataPlatform:hive,bench.l${String(layer).padStart(2, '0')}.t${String(index).padStart(width, '0')},PROD)`
  const hubIndex = (h: number) => h * hubStride

  // Let the store create its tables (and the data dir), then load without secondary indexes.
  await new SqliteMetadataStore({ file, durability: 'normal' }).close()
  const started = process.hrtime.bigint()
  const db = new Database(file)
  db.pragma('journal_mode = OFF')
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -262144')
  // `urns_by_urn` stays: the `edges` and `metadata_aspect_v2` views write each URN once through it.
  const indexes = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND name != 'urns_by_urn'",
    )
    .all() as Array<{ name: string }>
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`)

  const insertAspect = db.prepare(
    'INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, systemmetadata, createdon, createdby) VALUES (?, ?, 0, ?, ?, ?, ?)',
  )
  const insertEdge = db.prepare(
    "INSERT OR IGNORE INTO edges (source, type, destination, aspect) VALUES (?, 'DownstreamOf', ?, ?)",
  )
  const now = Date.now()
  const systemMetadata = JSON.stringify({
    lastObserved: now,
    lastRunId: 'no-run-id-provided',
    runId: 'bench',
  })
  const random = prng(42)
  const backSources = new Map<number, number>()
  for (let i = 0; i < backEdges; i++) {
    backSources.set(Math.floor(random() * perLayer), Math.floor(random() * perLayer))
  }
  let softDeleted = 0
  const writeLayer = db.transaction((layer: number) => {
    for (let j = 0; j < perLayer; j++) {
      const source = urn(layer, j)
      const name = source.slice(source.indexOf(',') + 1, source.lastIndexOf(','))
      insertAspect.run(
        source,
        'datasetKey',
        `{"name":"${name}","origin":"PROD","platform":"urn:li:dataPlatform:hive"}`,
        systemMetadata,
        now,
        ACTOR,
      )
      if (random() < 0.002 && j % hubStride !== 0) {
        insertAspect.run(source, 'status', '{"removed":true}', systemMetadata, now, ACTOR)
        softDeleted++
      }
      const upstreams: string[] = []
      if (layer === 0) {
        const back = backSources.get(j)
        if (back !== undefined) upstreams.push(urn(LAYERS - 1, back))
      } else {
        for (let u = 0; u < UPSTREAMS_PER_NODE; u++)
          upstreams.push(urn(layer - 1, Math.floor(random() * perLayer)))
        const h = Math.floor(j / fanout)
        if (h < hubsPerLayer) upstreams.push(urn(layer - 1, hubIndex(h)))
      }
      for (const destination of [...new Set(upstreams)].sort()) {
        insertEdge.run(source, destination, ASPECT)
      }
    }
  })
  for (let layer = 0; layer < LAYERS; layer++) writeLayer(layer)
  // Counted in the table: a write through the `edges` view reports no changes.
  const edges = db
    .prepare("SELECT COUNT(*) FROM edge_rows WHERE type = 'DownstreamOf'")
    .pluck()
    .get() as number
  db.close()
  const written = process.hrtime.bigint()
  // Reopening through the store recreates its indexes (its DDL runs at every open).
  await new SqliteMetadataStore({ file, durability: 'normal' }).close()
  const indexed = process.hrtime.bigint()
  return {
    entities: perLayer * LAYERS,
    edges,
    softDeleted,
    hubIndexes: Array.from({ length: hubsPerLayer }, (_, h) => hubIndex(h)),
    layers: LAYERS,
    perLayer,
    urn,
    writeSeconds: Number(written - started) / 1e9,
    indexSeconds: Number(indexed - written) / 1e9,
  }
}
