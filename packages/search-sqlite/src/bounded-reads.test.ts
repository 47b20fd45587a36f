import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t, { type Test } from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

/**
 * The index reads its word lists only up to a bound (the rank window's last id, the last
 * autocomplete match scanned), stopping at the first id past it. These cases put strong
 * matches just past the bound: read past it, they would come first.
 */
const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-bounded-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

function open(t: Test, rankWindow?: number) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({
    file: join(dir, `bounded-${Math.random()}.db`),
    schema: fx.schema,
    ...(rankWindow === undefined ? {} : { rankWindow }),
  })
  t.teardown(() => index.close())
  return { fx, index }
}

t.test(
  'words are scored only up to the rank window; a better match past it follows in id order',
  async (t) => {
    const { fx, index } = open(t, 3)
    for (const name of ['a', 'b', 'c'])
      await fx.apply(index, fx.dataset(name, { datasetProperties: { description: `the alpha of ${name}` } }))
    await fx.apply(index, fx.dataset('alpha_beta_gamma', { datasetProperties: { description: 'all three' } }))
    await fx.apply(index, fx.dataset('e', { datasetProperties: { description: 'alpha and beta' } }))
    const page = await fx.search(index, 'alpha beta gamma')
    t.equal(page.total, 5)
    t.same(
      page.hits.map((h) => h.urn),
      [ds('a'), ds('b'), ds('c'), ds('alpha_beta_gamma'), ds('e')],
      'the window (a, b, c) first, then the rest in id order',
    )
    const wide = open(t, 5)
    for (const name of ['a', 'b', 'c'])
      await wide.fx.apply(
        wide.index,
        wide.fx.dataset(name, { datasetProperties: { description: `the alpha of ${name}` } }),
      )
    await wide.fx.apply(
      wide.index,
      wide.fx.dataset('alpha_beta_gamma', { datasetProperties: { description: 'all three' } }),
    )
    await wide.fx.apply(
      wide.index,
      wide.fx.dataset('e', { datasetProperties: { description: 'alpha and beta' } }),
    )
    t.same(
      await wide.fx.urns(wide.index, 'alpha beta gamma'),
      [ds('alpha_beta_gamma'), ds('e'), ds('a'), ds('b'), ds('c')],
      'inside the window: all three words in the name, then two, then one',
    )
  },
)

t.test('a page deeper than the quick pick is ranked as the first one', async (t) => {
  const { fx, index } = open(t)
  const entries = Array.from({ length: 300 }, (_, i) =>
    fx.dataset(`t${String(i).padStart(3, '0')}`, {
      datasetProperties: { description: i % 7 === 0 ? 'gadget gizmo' : 'gadget' },
    }),
  ).flat()
  await fx.apply(index, entries)
  const first = await fx.urns(index, 'gadget gizmo', { count: 50 })
  const deep = await fx.urns(index, 'gadget gizmo', { start: 40, count: 260 })
  t.equal(first.length, 50)
  t.same(first.slice(40), deep.slice(0, 10), 'the pages agree where they overlap')
  const both = Array.from({ length: 300 }, (_, i) => i)
    .filter((i) => i % 7 === 0)
    .map((i) => ds(`t${String(i).padStart(3, '0')}`))
  t.same(first.slice(0, both.length), both, 'documents with both words first, in id order')
  t.equal(new Set([...first, ...deep]).size, 300, 'every match once')
})

t.test('autocomplete takes a best-field match after matches in other fields', async (t) => {
  const { fx, index } = open(t)
  for (const name of ['x1', 'x2', 'x3', 'x4'])
    await fx.apply(index, fx.dataset(name, { datasetProperties: { description: 'n/a' } }, 'kafka'))
  await fx.apply(index, fx.dataset('kafkaesque_events', { datasetProperties: { description: 'n/a' } }))
  const ac = await index.autocomplete(
    fx.requests.autocomplete({ query: 'kafk', entityType: 'dataset', limit: 3 }),
  )
  t.equal(ac.suggestions[0]?.urn, ds('kafkaesque_events'), 'the name match comes first')
  t.equal(ac.suggestions.length, 3)
  const none = await index.autocomplete(
    fx.requests.autocomplete({ query: 'kafkaesque zzz', entityType: 'dataset', limit: 3 }),
  )
  t.same(none.suggestions, [], 'no document has both words')
})
