/**
 * `node --import tsx bench/mem-wire.ts`: the cost of handing one large write batch to the SQLite
 * writer thread (packages/store-sqlite/src/sqlite-write-wire.ts), for repo copies side by side
 * (BENCH_WIRE_VARIANTS, `;`-separated repo copies, default `.`). The batch is what a
 * 1,000-proposal `ingestProposalBatch` of new datasets makes (as bench/ingest.ts sends): 1,000
 * upserts with their value as text and the default aspects of 1,000 new entities. Per variant, in
 * turns (A B A B ..., BENCH_WIRE_ROUNDS rounds, default 7, each BENCH_WIRE_BATCHES batches,
 * default 200): CPU per batch on the event loop's side (`batchToWire`, then `v8.serialize` as
 * `postMessage` does) and on the writer's side (`v8.deserialize`, `batchFromWire`), and the bytes
 * the event loop's side allocates per batch (V8's sampling heap profiler, garbage included).
 * At the end: medians per variant. Bytes allocated are not the whole story: a wire of 2,000 small
 * texts allocated 3.05 against 4.75 MB per batch here, yet in bench/ingest-rss.ts the event loop
 * ran ~10 % more scavenges and held ~5 MB more heap, since the texts of batches waiting their turn
 * outlived scavenges where one large text did not move; weigh a change there too.
 */
import { Session } from 'node:inspector/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import v8 from 'node:v8'
import { Registry } from '@catalog/core'
import type { WriteBatch } from '@catalog/store'
import { LazyDefaults } from '../apps/metadata-service/src/services/lazy-defaults.js'
import { benchProperties, benchUrn } from './ingest-proposal.js'
import { fmt, median } from './lib.js'

const VARIANTS = (process.env.BENCH_WIRE_VARIANTS ?? '.').split(';').filter(Boolean)
const ROUNDS = Number(process.env.BENCH_WIRE_ROUNDS ?? 7)
const BATCHES = Number(process.env.BENCH_WIRE_BATCHES ?? 200)
const SIZE = 1000

interface Wire {
  batchToWire(batch: WriteBatch): Promise<unknown>
  batchFromWire(wire: unknown): WriteBatch
}

const registry = new Registry()

/** A batch shaped as the metadata service makes it for 1,000 proposals of new datasets. */
function batchOf(offset: number): WriteBatch {
  const created = { time: 1_795_757_339_108, actor: 'urn:li:corpuser:datahub' }
  const mutations = []
  const defaults = []
  for (let k = 0; k < SIZE; k++) {
    const i = offset + k
    const urn = benchUrn(i)
    const valueJson = benchProperties(i)
    mutations.push({
      kind: 'upsert' as const,
      urn,
      entityType: 'dataset',
      aspect: 'datasetProperties',
      value: JSON.parse(valueJson) as Record<string, unknown>,
      valueJson,
      created,
      edges: [],
    })
    // The defaults the metadata service makes (made here once, so no run times their making).
    const ref = registry.resolveUrn(urn)
    defaults.push(new LazyDefaults(registry, ref, ref.entity).toJSON())
  }
  return { mutations, defaults, created }
}

const cpuUs = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

const session = new Session()
session.connect()

/** Bytes allocated by `work` (sampled every 4 KB, objects collected since included). */
async function allocated(work: () => Promise<unknown>): Promise<number> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never)
  await work()
  const { profile } = await session.post('HeapProfiler.stopSampling')
  const total = (node: typeof profile.head): number =>
    node.selfSize + node.children.reduce((sum, child) => sum + total(child), 0)
  return total(profile.head)
}

const wires = new Map<string, Wire>()
for (const v of VARIANTS)
  wires.set(
    v,
    (await import(
      pathToFileURL(join(resolve(v), 'packages/store-sqlite/src/sqlite-write-wire.ts')).href
    )) as Wire,
  )
const batches = Array.from({ length: 8 }, (_, k) => batchOf(3_000_000_000 + k * SIZE))
const results = new Map<string, Array<{ send: number; receive: number; bytes: number }>>(
  VARIANTS.map((v) => [v, []]),
)
for (let round = 0; round < ROUNDS; round++)
  for (const [variant, wire] of wires) {
    let send = 0
    let receive = 0
    for (let n = 0; n < BATCHES; n++) {
      const t0 = cpuUs()
      const buffer = v8.serialize(await wire.batchToWire(batches[n % batches.length] as WriteBatch))
      const t1 = cpuUs()
      const back = wire.batchFromWire(v8.deserialize(buffer))
      const t2 = cpuUs()
      if (back.mutations.length !== SIZE) throw new Error('the batch did not come back whole')
      send += t1 - t0
      receive += t2 - t1
    }
    const bytes = await allocated(async () => {
      for (let n = 0; n < 20; n++)
        v8.serialize(await wire.batchToWire(batches[n % batches.length] as WriteBatch))
    })
    const out = { send: send / BATCHES, receive: receive / BATCHES, bytes: bytes / 20 }
    results.get(variant)?.push(out)
    process.stdout.write(
      `round ${round + 1} ${variant}: event loop ${fmt(out.send)} µs, writer ${fmt(out.receive)} µs per batch; allocated ${fmt(out.bytes / 1e6, 2)} MB per batch\n`,
    )
  }
for (const [variant, outs] of results)
  process.stdout.write(
    `median ${variant}: event loop ${fmt(median(outs.map((o) => o.send)))} µs, writer ${fmt(
      median(outs.map((o) => o.receive)),
    )} µs per batch; allocated ${fmt(median(outs.map((o) => o.bytes)) / 1e6, 2)} MB per batch\n`,
  )
session.disconnect()
