import { ContractFixture, ds, owners, tag } from '@catalog/search/contract-fixtures'
import t, { type Test } from 'tap'
import { fieldHits } from './field-hits.js'
import { countedHits, queryScope, scopeWhere } from './search-query.js'
import { type QueryContext, SqliteSearchIndex } from './sqlite-search-index.js'

/** The index and a check that a lone `field:value` gives, from memory, the SQL's hits. */
function open(t: Test) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file: ':memory:', schema: fx.schema })
  t.teardown(() => index.close())
  const internals = index as unknown as { queryContext(): QueryContext; read<T>(fn: () => T): T }
  /** The URNs of the hits of `input`, after checking that memory and SQL agree on them. */
  const hits = async (t: Test, input: string, entity = 'dataset') => {
    const req = fx.requests.search({ input, entityTypes: [entity], start: 0, count: 100 })
    if (req.query.kind !== 'field') throw new Error(`${input} is not a field query`)
    const node = req.query
    const [memory, sql] = internals.read(() => {
      const ctx = internals.queryContext()
      const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
      return [fieldHits(ctx, req, node), countedHits(ctx, req, where, queryScope(fx.schema, req.entityTypes))]
    })
    t.ok(memory, `${input}: answered from memory`)
    t.same(memory, sql, `${input}: the same hits as the SQL`)
    const page = await fx.search(index, input, { entity })
    t.equal(page.total, sql.length, `${input}: the total counts them`)
    return page.hits.map((h) => h.urn).sort()
  }
  return { fx, index, hits }
}

const removed = { status: { removed: true } }

t.test('a lone exact field:value reads posting lists, kept current by writes', async (t) => {
  const { fx, index, hits } = open(t)
  await fx.apply(index, [
    ...fx.dataset('a', { globalTags: tag('PII') }),
    // Not the tag PII, but its words hold `pii`: matched through the field's FTS column.
    ...fx.dataset('b', { globalTags: tag('pii_data') }),
    ...fx.dataset('c', { globalTags: tag('Gold'), ownership: owners('jdoe', 'ann') }),
    ...fx.dataset('d', { globalTags: tag('PII'), ...removed }),
    ...fx.dataset('f', { globalTags: tag('PII') }, 'kafka', 'DEV'),
  ])
  const [a, b, c, f] = [ds('a'), ds('b'), ds('c'), ds('f', 'kafka', 'DEV')]
  t.same(
    await hits(t, 'tags:PII'),
    [a, b, f].sort(),
    'the tag, a tag with the word, not the soft-deleted one',
  )
  t.same(await hits(t, 'tags:pii'), [a, b, f].sort(), 'case does not matter')
  t.same(await hits(t, 'tags:urn:li:tag:Gold'), [c], 'the whole URN')
  t.same(await hits(t, 'platform:kafka'), [f], 'a URN member')
  t.same(await hits(t, 'origin:dev'), [f], 'an enum value, any case')
  t.same(await hits(t, 'env:DEV'), [f], 'a field that expands to another')
  t.same(await hits(t, 'owners:JDoe'), [c], 'a URN id, only as a URN key (owners have no FTS column)')
  t.same(await hits(t, 'tags:Silver'), [], 'a value no document has')

  await fx.apply(index, [
    fx.upsert(a, 'globalTags', tag('Gold')),
    fx.upsert(c, 'globalTags', { tags: [{ tag: 'urn:li:tag:Gold' }, { tag: 'urn:li:tag:PII' }] }),
    fx.upsert(ds('g'), 'globalTags', tag('PII')),
  ])
  t.same(await hits(t, 'tags:PII'), [b, c, f, ds('g')].sort(), 'a tag taken off, one added, a new document')
  t.same(await hits(t, 'tags:Gold'), [a, c].sort(), 'the other value too')
  await fx.apply(index, [fx.upsert(f, 'status', { removed: true }), fx.remove(ds('g'), 'datasetKey', true)])
  t.same(await hits(t, 'tags:PII'), [b, c].sort(), 'soft-deleted and deleted documents leave')
  await fx.apply(index, [fx.upsert(f, 'status', { removed: false })])
  t.same(await hits(t, 'tags:PII'), [b, c, f].sort(), 'and come back when restored')
})

t.test('the SQL serves what memory cannot: prefixes, filters, URNs', async (t) => {
  const { fx, index } = open(t)
  await fx.apply(index, fx.dataset('a', { globalTags: tag('PII') }))
  const internals = index as unknown as { queryContext(): QueryContext; read<T>(fn: () => T): T }
  const memory = (input: string, filter?: Parameters<typeof fx.requests.search>[0]['filter']) => {
    const req = fx.requests.search({
      input,
      entityTypes: ['dataset'],
      start: 0,
      count: 10,
      ...(filter ? { filter } : {}),
    })
    return internals.read(() =>
      req.query.kind === 'field' ? fieldHits(internals.queryContext(), req, req.query) : 'not a field query',
    )
  }
  t.equal(memory('tags:PI*'), undefined, 'a prefix')
  t.equal(memory(`urn:"${ds('a')}"`), undefined, 'the URN')
  t.equal(
    memory('tags:PII', { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive' }] }] }),
    undefined,
    'a filter',
  )
  t.equal((await fx.search(index, 'tags:PI*')).total, 1, 'and answers them')
})
