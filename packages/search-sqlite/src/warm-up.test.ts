import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'
import { Vocabulary } from './vocabulary.js'
import { WorkerSearchIndex } from './worker/worker-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-warm-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const fx = new ContractFixture()

/** A closed index file of `count` datasets on two platforms, some tagged, one soft-deleted in 7. */
async function filledFile(count: number): Promise<string> {
  const file = join(dir, `filled-${n++}.db`)
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  const entries = []
  for (let i = 0; i < count; i++)
    entries.push(
      ...fx.dataset(
        `table_${i}`,
        {
          datasetProperties: { description: `orders customers line ${i % 97}` },
          globalTags: { tags: [{ tag: `urn:li:tag:t${i % 3}` }] },
          ...(i % 7 === 0 ? { status: { removed: true } } : {}),
        },
        i % 2 === 0 ? 'hive' : 'kafka',
      ),
    )
  await fx.apply(index, entries)
  await index.close()
  return file
}

/** A search's total, page and facets, comparable across indexes. */
async function answer(index: SqliteSearchIndex | WorkerSearchIndex, input: string) {
  const page = await fx.search(index, input)
  return {
    total: page.total,
    urns: page.hits.map((h) => h.urn),
    facets: page.facets
      .map((f) => ({ field: f.field, values: f.values.map((v) => `${v.value}=${v.count}`).sort() }))
      .sort((a, b) => a.field.localeCompare(b.field)),
  }
}

const QUERIES = ['*', 'orders', 'ordrs', 'custom', 'platform:kafka', 'tags:t1', 'line 42']

t.test('warmed in small steps, the first queries load nothing and answer as a cold load does', async (t) => {
  const file = await filledFile(3000)
  const cold = new SqliteSearchIndex({ file, schema: fx.schema })
  const warm = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(async () => {
    await cold.close()
    await warm.close()
  })
  t.same(warm.cacheState(), { warm: false, queryLoads: 0 }, 'nothing loaded at open')
  let steps = 1
  while (!warm.warmStep(0)) steps++
  t.ok(steps >= 4, `loaded in ${steps} steps, not at once`)
  t.same(warm.cacheState(), { warm: true, queryLoads: 0 })
  for (const q of QUERIES) t.same(await answer(warm, q), await answer(cold, q), `${q}: the same answer`)
  t.same(warm.cacheState(), { warm: true, queryLoads: 0 }, 'no query loaded a cache')
  t.ok(cold.cacheState().queryLoads >= 2, 'while the cold index loaded its caches on the query path')
})

t.test('writes between the steps of a warm-up are in the caches it ends with', async (t) => {
  const file = await filledFile(3000)
  const warm = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => warm.close())
  t.notOk(warm.warmStep(0), 'a first step')
  // A document read already changes platform and tag, one is deleted, a new one is added.
  await fx.apply(warm, [
    ...fx.dataset('table_1', { globalTags: { tags: [{ tag: 'urn:li:tag:fresh' }] } }, 'hive'),
    fx.remove(ds('table_2'), 'datasetKey', true),
    ...fx.dataset('brand_new', { datasetProperties: { description: 'orders ordinal' } }, 'kafka'),
  ])
  while (!warm.warmStep(0)) {
    // Writes on either side of every step.
    await fx.apply(warm, fx.dataset(`late_${n++}`, { datasetProperties: { description: 'zymurgy' } }))
  }
  const cold = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => cold.close())
  for (const q of [...QUERIES, 'tags:fresh', 'zymurgy', 'zymurgi', 'brand_new'])
    t.same(await answer(warm, q), await answer(cold, q), `${q}: as a fresh load of the file`)
  t.equal(warm.cacheState().queryLoads, 0, 'the warm-up loaded everything')
})

t.test('a query before the end of the warm-up finishes the load itself', async (t) => {
  const file = await filledFile(3000)
  const warm = new SqliteSearchIndex({ file, schema: fx.schema })
  const cold = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(async () => {
    await warm.close()
    await cold.close()
  })
  warm.warmStep(0)
  warm.warmStep(0)
  t.same(await answer(warm, 'ordrs'), await answer(cold, 'ordrs'))
  t.same(warm.cacheState(), { warm: true, queryLoads: 2 }, 'the facets and the words, finished by the query')
})

t.test('the search worker warms its caches after it opens: its first query loads none', async (t) => {
  const file = await filledFile(3000)
  const worker = await WorkerSearchIndex.open({ file, queryBudgetMs: 60_000 })
  t.teardown(() => worker.close())
  await worker.whenWarm()
  t.same(await worker.cacheState(), { warm: true, queryLoads: 0 }, 'warm before any query')
  const cold = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => cold.close())
  for (const q of QUERIES) t.same(await answer(worker, q), await answer(cold, q), `${q}: answered`)
  t.same(await worker.cacheState(), { warm: true, queryLoads: 0 }, 'no query loaded a cache')

  const unwarmed = await WorkerSearchIndex.open({ file, warmup: false })
  t.teardown(() => unwarmed.close())
  await answer(unwarmed, 'ordrs')
  t.same(
    await unwarmed.cacheState(),
    { warm: true, queryLoads: 2 },
    'without warm-up, the first query loads them',
  )
})

t.test('words written while the vocabulary loads page by page are in it', async (t) => {
  const words = Array.from({ length: 3000 }, (_, i) => `term${i.toString(36).padStart(3, '0')}`).sort()
  const pages: string[] = []
  const v = new Vocabulary((after, limit) => {
    const page = words.filter((w) => w > after).slice(0, limit)
    pages.push(after)
    return page.map((w) => [w, 1] as const)
  })
  t.notOk(v.warm(0), 'one page read')
  // One before the pages read so far, one after them, one that is already indexed.
  v.add(['aaanew', 'zzznew', 'term001'])
  while (!v.warm(0));
  t.ok(pages.length >= 3, `read in ${pages.length} pages`)
  t.same(v.completions('aaan', 10), ['aaanew'])
  t.same(v.completions('zzzn', 10), ['zzznew'])
  t.same(v.completions('term00', 100)?.length, 36, 'each paged word once')
  t.same(v.variants('zzznow', 1), ['zzznew'])
  t.equal(v.queryLoads, 0)
})
