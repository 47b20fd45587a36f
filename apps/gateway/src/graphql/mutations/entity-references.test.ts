import { ConflictError, Registry } from '@catalog/core'
import t from 'tap'
import type { AspectValue, EntityAspects, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { writeWithReferences } from './entity-references.js'
import { deleteEntity } from './support.js'

const registry = new Registry()
const TAG = 'urn:li:tag:doomed'
const ASSET = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)'

/**
 * A metadata client holding one asset's `globalTags`, applying writes as the store does: a
 * generic PATCH's `test` of the whole value refuses a changed value (a lost race). `beforeWrite`
 * runs once, just before the first write: an edit made by another caller meanwhile.
 */
function storeOf(initial: AspectValue, beforeWrite: (set: (v: AspectValue) => void) => void) {
  let globalTags = initial
  let edited = false
  const writes: MetadataProposal[][] = []
  const client = {
    relationships: async () => ({ relationships: [{ type: 'TaggedWith', entity: ASSET }], total: 1 }),
    getEntities: async (urns: readonly string[]) =>
      new Map<string, EntityAspects>(
        urns.map((u): [string, EntityAspects] => [
          u,
          { urn: u, entityType: 'dataset', aspects: u === ASSET ? { globalTags } : {} },
        ]),
      ),
    ingestProposals: async (proposals: readonly MetadataProposal[]) => {
      if (!edited) {
        edited = true
        beforeWrite((v) => {
          globalTags = v
        })
      }
      writes.push([...proposals])
      const rewrite = proposals.find((p) => p.entityUrn === ASSET)
      if (!rewrite?.aspect) return
      const value = JSON.parse(rewrite.aspect.value) as { patch?: { op: string; value: unknown }[] }
      if (!value.patch) {
        globalTags = value as AspectValue
        return
      }
      const test = value.patch.find((op) => op.op === 'test')
      if (JSON.stringify(test?.value) !== JSON.stringify(globalTags))
        throw new ConflictError('(test /) value differs')
      globalTags = value.patch.find((op) => op.op === 'add')?.value as AspectValue
    },
  }
  const ctx = {
    client,
    registry,
    actor: 'urn:li:corpuser:datahub',
    graph: { clear() {} },
  } as unknown as CatalogContext
  return { ctx, writes, current: () => globalTags }
}

t.test('an edit of a referring aspect made during a delete is not lost under its rewrite', async (t) => {
  const added = { tags: [{ tag: TAG }, { tag: 'urn:li:tag:added' }] }
  const store = storeOf({ tags: [{ tag: TAG }] }, (set) => set(added))
  const tag = registry.resolveUrn(TAG)
  await writeWithReferences(store.ctx, tag, [deleteEntity(tag)])
  t.same(store.current(), { tags: [{ tag: 'urn:li:tag:added' }] }, 'the tag added meanwhile is kept')
  t.equal(store.writes.length, 2, 'the first write lost the race, the references were read again')
})
