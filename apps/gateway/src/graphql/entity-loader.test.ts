import { Registry } from '@catalog/core'
import t from 'tap'
import type { EntityAspects, MetadataClient } from './clients/metadata-client.js'
import { EntityLoader } from './entity-loader.js'
import type { TurnPacer } from './turn-pacer.js'

const registry = new Registry()
const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,table_${i},PROD)`

t.test('a page of entities is read in steps, one per event-loop turn, sized by the pacer', async (t) => {
  // The loader's one dependency, recording the event-loop turn and size of each read (no entity exists).
  let turns = 0
  const reads: Array<{ turn: number; size: number }> = []
  const client = {
    getEntities: async (urns: readonly string[]) => {
      reads.push({ turn: turns, size: urns.length })
      return new Map<string, EntityAspects>(
        urns.map((u) => [u, { urn: u, entityType: 'dataset', aspects: {} }]),
      )
    },
  } as unknown as MetadataClient
  // A ticker counting turns: an immediate that queues itself runs once per turn of the loop.
  let running = true
  const tick = () => {
    turns++
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  const sizes = [20, 200, 7]
  const pacer = { next: () => sizes.shift() ?? 100 } as TurnPacer
  const loader = new EntityLoader(client, registry, () => ['datasetProperties'], pacer)
  const loaded = await Promise.all(Array.from({ length: 450 }, (_, i) => loader.load(urn(i))))
  running = false
  t.equal(loaded.length, 450)
  t.same(loaded[449]?.key, { platform: 'urn:li:dataPlatform:hive', name: 'table_449', origin: 'PROD' })
  t.same(
    reads.map((r) => r.size),
    [20, 200, 7, 100, 100, 23],
    'each step reads as many as the pacer gives',
  )
  for (let i = 1; i < reads.length; i++)
    t.ok((reads[i]?.turn ?? 0) > (reads[i - 1]?.turn ?? 0), `read ${i + 1} a turn after read ${i}`)
})

t.test('each URN is read once per request, until cleared', async (t) => {
  let reads = 0
  const client = {
    getEntities: async (urns: readonly string[]) => {
      reads += urns.length
      return new Map<string, EntityAspects>()
    },
  } as unknown as MetadataClient
  const loader = new EntityLoader(client, registry, () => [])
  await Promise.all([loader.load(urn(1)), loader.load(urn(1)), loader.load(urn(2))])
  await loader.load(urn(1))
  t.equal(reads, 2)
  loader.clear()
  await loader.load(urn(1))
  t.equal(reads, 3)
  await t.rejects(loader.load('urn:li:dataset:oops'), 'a malformed URN rejects')
})
