import { canonicalJson } from '@catalog/core'
import type { UpsertAspect } from '@catalog/store'
import { SqliteMetadataStore } from './sqlite-store.js'

/**
 * The writer of sqlite-write-thread-crash.long-test.ts, run as its own process: writes without end
 * to the store at argv[2] (durability full), large writes (on the writer thread) between small
 * ones, 4 at a time, printing `acked <i>` for each acknowledged write, until it is killed. With
 * `small` after the file, only small writes, 16 at a time (see `small` below).
 */
const file = process.argv[2] as string
/** `small`: only small writes (2 KB), 16 at a time, the writer thread up first so that it runs every WAL checkpoint. */
const small = process.argv[3] === 'small'
const store = new SqliteMetadataStore({ file })
const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
if (small) await store.warmWriterThread()

/** Write `i`: every third one a 3,000-field schema (about 300 KB, 3,000 edges), else a small aspect. */
function mutation(i: number): UpsertAspect {
  const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${i},PROD)`
  if (small)
    return {
      kind: 'upsert',
      urn,
      entityType: 'dataset',
      aspect: 'datasetProperties',
      value: { description: `write ${i} ${'x'.repeat(2_000)}` },
      created,
      edges: [],
    }
  if (i % 3 !== 0)
    return {
      kind: 'upsert',
      urn,
      entityType: 'dataset',
      aspect: 'status',
      value: { removed: false },
      created,
      edges: [],
    }
  const fields = Array.from({ length: 3_000 }, (_, k) => ({
    fieldPath: `write_${i}_column_${k}`,
    description: `column ${k} of write ${i}, described at some length to weigh`,
    globalTags: { tags: [{ tag: `urn:li:tag:t${k}` }] },
  }))
  const value = { schemaName: `crash_${i}`, fields }
  return {
    kind: 'upsert',
    urn,
    entityType: 'dataset',
    aspect: 'schemaMetadata',
    value,
    valueJson: canonicalJson(value),
    created,
    edges: fields.map((f) => ({
      type: 'SchemaFieldTaggedWith',
      destination: f.globalTags.tags[0]?.tag ?? '',
    })),
  }
}

let next = 0
async function writer(): Promise<void> {
  for (;;) {
    const i = next++
    await store.write({ mutations: [mutation(i)], created })
    process.stdout.write(`acked ${i}\n`)
  }
}
await Promise.all(Array.from({ length: small ? 16 : 4 }, writer))
