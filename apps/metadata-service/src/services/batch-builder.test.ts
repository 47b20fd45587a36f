import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type EntityRef, Registry } from '@catalog/core'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t, { type Test } from 'tap'
import { IngestService } from './ingest-service.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,builder.defaults,PROD)'
const ACTOR = 'urn:li:corpuser:datahub'

/** The registry, counting how often an entity's default aspects are made. */
class CountingRegistry extends Registry {
  made = 0
  override defaultAspects(ref: EntityRef) {
    this.made++
    return super.defaultAspects(ref)
  }
}

async function open(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'batch-builder-'))
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  t.teardown(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const registry = new CountingRegistry()
  return { store, registry, ingest: new IngestService(registry, store) }
}

const properties = (description: string) => ({
  entityType: 'dataset',
  entityUrn: DS,
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { value: JSON.stringify({ description }), contentType: 'application/json' },
})

t.test('a new entity gets its default aspects; a write to an existing one does not make them', async (t) => {
  const { store, registry, ingest } = await open(t)
  await ingest.ingestProposals([properties('first')], ACTOR)
  const first = (await store.latest([DS])).get(DS)?.map((a) => a.aspect)
  t.same(
    first?.sort(),
    ['browsePaths', 'browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'datasetProperties'],
    'the new entity is stored with its key and default aspects',
  )
  t.equal(registry.made, 1, 'made once, for the new entity')
  await ingest.ingestProposals([properties('second')], ACTOR)
  await ingest.ingestProposals([properties('second'), properties('third')], ACTOR)
  t.equal(registry.made, 1, 'not made again for writes to the existing entity')
  const props = (await store.latest([DS], ['datasetProperties'])).get(DS)?.[0]
  t.same(props?.value, { description: 'third' }, 'the writes landed')
  t.equal((await store.latest([DS])).get(DS)?.length, 5, 'no aspect added or lost')
})

t.test('an entity deleted earlier in the same call gets its default aspects again', async (t) => {
  const { store, registry, ingest } = await open(t)
  await ingest.ingestProposals([properties('before')], ACTOR)
  await ingest.ingestProposals(
    [
      { entityType: 'dataset', entityUrn: DS, changeType: 'DELETE', aspectName: 'datasetKey' },
      properties('after'),
    ],
    ACTOR,
  )
  t.equal(registry.made, 2, 'made again: the store finds the entity new after the delete')
  const aspects = (await store.latest([DS])).get(DS)?.map((a) => a.aspect)
  t.same(
    aspects?.sort(),
    ['browsePaths', 'browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'datasetProperties'],
    'written again with its default aspects',
  )
})

t.test('default aspects cross to the writer thread with a batch written there', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'batch-builder-thread-'))
  // Weight 0: every write is a large one, serialized for the writer thread.
  const store = new SqliteMetadataStore({
    file: join(dir, 'metadata.db'),
    durability: 'normal',
    largeWriteWeight: 0,
  })
  t.teardown(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  const registry = new CountingRegistry()
  const ingest = new IngestService(registry, store)
  await ingest.ingestProposals([properties('on the thread')], ACTOR)
  const latest = (await store.latest([DS])).get(DS) ?? []
  t.same(
    latest.map((a) => a.aspect).sort(),
    ['browsePaths', 'browsePathsV2', 'dataPlatformInstance', 'datasetKey', 'datasetProperties'],
    'the new entity is stored with its key and default aspects',
  )
  t.same(
    latest.find((a) => a.aspect === 'datasetKey')?.value,
    { name: 'builder.defaults', origin: 'PROD', platform: 'urn:li:dataPlatform:hive' },
    'the key aspect as the event loop makes it',
  )
  t.equal(registry.made, 1, 'made once')
})
