/**
 * The search index contract: every adapter runs this suite (`runSearchContract`) and must pass
 * it unchanged. It pins merging of aspect contributions, idempotent replay and the durable
 * cursor, query semantics (ranking, prefix, typos, `field:value`, `*`), every filter
 * condition, facets, soft delete, browse paging, autocomplete and `clear()`.
 */
import type { Test } from 'tap'
import { browseCases } from './contract-browse.js'
import { browseV2Cases } from './contract-browse-v2.js'
import { filterCases } from './contract-filters.js'
import { ContractFixture, ds, seed, tag } from './contract-fixtures.js'
import { queryCases } from './contract-queries.js'
import type { SearchIndex } from './port.js'
import type { SearchSchema } from './search-schema.js'

export interface SearchIndexFactory {
  /** A fresh, empty index. */
  open(schema: SearchSchema): Promise<SearchIndex>
  /** Reopens the index last returned by `open` after it was closed (persistence), when supported. */
  reopen?(schema: SearchSchema): Promise<SearchIndex>
}

export function runSearchContract(t: Test, name: string, factory: SearchIndexFactory): void {
  t.test(`${name}: search index contract`, async (t) => {
    let index: SearchIndex
    let fx: ContractFixture
    t.beforeEach(async () => {
      fx = new ContractFixture()
      index = await factory.open(fx.schema)
    })
    t.afterEach(async () => {
      await index.close()
    })
    const ctx = () => ({ index, fx })

    t.test('contributions of several aspects merge into one document; deletes remove them', async (t) => {
      const urn = ds('merge_me')
      await fx.apply(index, [
        fx.upsert(urn, 'datasetKey', {
          platform: 'urn:li:dataPlatform:hive',
          name: 'merge_me',
          origin: 'PROD',
        }),
        fx.upsert(urn, 'datasetProperties', { description: 'first words' }),
        fx.upsert(urn, 'globalTags', tag('Legacy')),
        fx.upsert(urn, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' }),
      ])
      let doc = await index.document(urn)
      t.equal(doc?.entityType, 'dataset')
      t.same(doc?.fields.platform, ['urn:li:dataPlatform:hive'], 'a field fed by two aspects holds the union')
      t.same(doc?.fields.id, ['merge_me'], 'key fields come from the URN')
      t.same(doc?.fields.tags, ['urn:li:tag:Legacy'])
      t.same(doc?.fields.hasTags, [true])
      t.same(doc?.aspects, ['dataPlatformInstance', 'datasetKey', 'datasetProperties', 'globalTags'])

      await fx.apply(index, [fx.upsert(urn, 'datasetProperties', { description: 'second words' })])
      doc = await index.document(urn)
      t.same(doc?.fields.description, ['second words'], 'a new value replaces the aspect contribution')
      t.same(await fx.urns(index, 'first'), [], 'the old words are gone')
      t.same(await fx.urns(index, 'second'), [urn])

      await fx.apply(index, [fx.remove(urn, 'globalTags')])
      doc = await index.document(urn)
      t.equal(doc?.fields.tags, undefined, 'deleting an aspect removes its contribution')
      t.same(doc?.fields.description, ['second words'], 'other aspects stay')
      t.same(await fx.urns(index, 'tags:Legacy'), [])

      await fx.apply(index, [fx.remove(urn, 'datasetKey', true)])
      t.equal(await index.document(urn), undefined, 'deleting the key aspect removes the document')
      t.same(await fx.urns(index, '*'), [])
    })
    t.test('applying the same entries again changes nothing; the cursor never moves back', async (t) => {
      const entries = seed(fx)
      const first = await fx.apply(index, entries)
      t.ok(first.documentsChanged >= 4)
      const before = await fx.search(index, 'orders')
      const again = await fx.apply(index, entries)
      t.equal(again.documentsChanged, 0, 'a replay rewrites no document')
      t.same(await fx.search(index, 'orders'), before)
      t.equal(await index.cursor(), entries.at(-1)?.seq)
      const back = await index.apply([], 1)
      t.equal(back.cursor, entries.at(-1)?.seq, 'an older cursor is ignored')
      t.equal(await index.cursor(), entries.at(-1)?.seq)
      t.equal((await index.stats()).documents, 4)
    })
    if (factory.reopen) {
      const reopen = factory.reopen
      t.test('documents and cursor survive a close and reopen', async (t) => {
        const entries = seed(fx)
        await fx.apply(index, entries)
        await index.close()
        index = await reopen(fx.schema)
        t.equal(await index.cursor(), entries.at(-1)?.seq)
        t.same((await fx.urns(index, 'customers')).slice(0, 1), [ds('customers')])
        t.equal((await index.stats()).documents, 4)
      })
    }
    t.test('soft-deleted documents are hidden unless the filter names removed', async (t) => {
      await fx.apply(index, [...seed(fx), fx.upsert(ds('customers'), 'status', { removed: true })])
      t.notOk((await fx.urns(index, 'customers')).includes(ds('customers')), 'search')
      t.equal((await fx.search(index, '*')).total, 3)
      const ac = await index.autocomplete(
        fx.requests.autocomplete({ query: 'Custo', entityType: 'dataset', limit: 5 }),
      )
      t.same(ac.suggestions, [], 'autocomplete')
      const removed = await fx.urns(index, '*', {
        filter: { or: [{ and: [{ field: 'removed', value: 'true' }] }] },
      })
      t.same(removed, [ds('customers')], 'a filter on removed finds it')
      t.equal((await fx.search(index, '*', { includeSoftDeleted: true })).total, 4)
      await fx.apply(index, [fx.upsert(ds('customers'), 'status', { removed: false })])
      t.equal((await fx.urns(index, 'customers'))[0], ds('customers'), 'restored')
    })
    t.test('clear() wipes documents and keeps the cursor', async (t) => {
      const entries = seed(fx)
      await fx.apply(index, entries)
      await index.clear()
      t.equal((await index.stats()).documents, 0)
      t.same(await fx.urns(index, '*'), [])
      t.same(await fx.urns(index, 'orders'), [])
      t.equal(await index.cursor(), entries.at(-1)?.seq, 'the cursor stays')
      await fx.apply(index, entries)
      t.equal((await index.stats()).documents, 4, 're-announced values rebuild it')
      t.same((await fx.urns(index, 'stcok')).length, 1, 'typo matching works after a rebuild')
    })

    queryCases(t, ctx)
    filterCases(t, ctx)
    browseCases(t, ctx)
    browseV2Cases(t, ctx)
  })
}
