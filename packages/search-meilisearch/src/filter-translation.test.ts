/**
 * Filter and query translation without a server: the pure functions from validated requests
 * to Meilisearch filter strings, lookups and `q`, including injection attempts.
 */
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t from 'tap'
import { fieldCatalog } from './attributes.js'
import {
  and,
  FALSE,
  type FilterExpr,
  inList,
  isFalse,
  type Lookup,
  lookupsOf,
  not,
  or,
  quote,
  render,
  resolveLookups,
  TRUE,
} from './filter-expr.js'
import { fieldClause, lookupMatches, scopeFilter, translateFilter } from './filter-translator.js'
import { pageWindow } from './pagination.js'
import { MAX_BRANCHES, planQuery, renderQ } from './query-plan.js'
import { exactToken, keyToken, nodeToken, pkOf } from './tokens.js'

const fx = new ContractFixture()
const catalog = fieldCatalog(fx.schema)
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex')

/** The filter of a `filter.or[].and[]` input, as the search would send it (lookups left in). */
function filterOf(and: Array<Record<string, unknown>>, entity = 'dataset'): FilterExpr {
  const req = fx.requests.search({
    input: '*',
    entityTypes: [entity],
    start: 0,
    count: 1,
    filter: { or: [{ and: and as never }] },
  })
  return translateFilter(req.filter, catalog)
}

const text = (e: FilterExpr) => (e.k === 'const' ? e.value : render(e))

t.test('quote() keeps every value one literal', async (t) => {
  t.equal(quote('plain'), '"plain"')
  t.equal(quote('a"b'), '"a\\"b"')
  t.equal(quote('a\\b'), '"a\\\\b"')
  t.equal(quote('ends with \\'), '"ends with \\\\"', 'a trailing backslash cannot escape the closing quote')
  t.equal(quote('" OR _removed = true OR x = "'), '"\\" OR _removed = true OR x = \\""')
  for (const evil of ['"', '\\"', '\\', '"]', "' OR 1", 'a\nb', '\\\\"']) {
    const q = quote(evil)
    // Unescape as Meilisearch's parser does: the literal must run to the last character.
    let i = 1
    while (i < q.length && q[i] !== '"') i += q[i] === '\\' ? 2 : 1
    t.equal(i, q.length - 1, `${JSON.stringify(evil)} cannot close the literal early`)
  }
})

t.test('EQUAL and IN are exact, case-sensitive token lists', async (t) => {
  t.equal(
    text(filterOf([{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }])),
    `_f_platform = "${hex('urn:li:dataPlatform:kafka')}"`,
  )
  t.equal(
    text(filterOf([{ field: 'origin', value: 'PROD,DEV' }])),
    `_f_origin IN ["${hex('PROD')}", "${hex('DEV')}"] OR _f_env IN ["${hex('PROD')}", "${hex('DEV')}"]`,
    'a comma list in value; origin expands to env',
  )
  t.equal(
    text(filterOf([{ field: 'typeNames', values: ['prod'] }])),
    `_f_typeNames = "${hex('prod')}"`,
    'case is kept: prod is not PROD',
  )
  t.equal(
    text(filterOf([{ field: 'env', value: 'DEV' }])),
    `_f_env = "${hex('DEV')}" OR _f_origin = "${hex('DEV')}"`,
    'env expands to origin',
  )
  t.equal(
    text(filterOf([{ field: 'platform', value: 'urn:li:dataPlatform:kafka', negated: true }])),
    `NOT _f_platform = "${hex('urn:li:dataPlatform:kafka')}"`,
  )
})

t.test('injection attempts become hex tokens, never filter syntax', async (t) => {
  for (const evil of [
    '" OR _removed = true OR _f_x = "',
    'x") OR (_entityType EXISTS',
    'back\\slash\\',
    "it's",
    'NOT EXISTS',
  ]) {
    const f = text(filterOf([{ field: 'typeNames', values: [evil] }]))
    t.equal(f, `_f_typeNames = "${hex(evil)}"`, evil)
  }
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:x,a"b\\c,PROD)'
  t.equal(text(filterOf([{ field: 'urn', value: urn }])), `_pk = "${pkOf(urn)}"`)
  t.equal(
    text(fieldClause('typeNames', 'x" OR _removed = true', false)),
    `_k_typeNames = "${keyToken('x" or _removed = true')}"` +
      ` OR (_k_typeNames = "x" AND _k_typeNames = "or" AND _k_typeNames = "removed" AND _k_typeNames = "true")`,
    'a quoted key is hashed; words are plain',
  )
  t.match(keyToken('x" or _removed = true'), /^#[0-9a-f]{64}$/)
})

t.test('ranges, EXISTS and IS_NULL', async (t) => {
  t.equal(
    text(filterOf([{ field: 'createdAt', condition: 'GREATER_THAN', value: '1000' }])),
    'createdAt > 1000',
  )
  t.equal(
    text(filterOf([{ field: 'createdAt', condition: 'LESS_THAN_OR_EQUAL_TO', values: ['20', '1.5'] }])),
    'createdAt <= 20 OR createdAt <= 1.5',
  )
  t.equal(
    text(filterOf([{ field: 'tags', condition: 'EXISTS' }])),
    '_f_tags EXISTS OR _f_fieldTags EXISTS OR _f_editedFieldTags EXISTS',
  )
  t.equal(text(filterOf([{ field: 'owners', condition: 'IS_NULL' }])), 'NOT _f_owners EXISTS')
  t.equal(text(filterOf([{ field: 'owners', condition: 'IS_NULL', negated: true }])), '_f_owners EXISTS')
  const onText = filterOf([{ field: 'name', condition: 'GREATER_THAN', value: 'm' }])
  t.same(lookupsOf(onText), [{ kind: 'exact', field: 'name', attr: '_f_name', op: 'gt', values: ['m'] }])
  const notNumber = filterOf([{ field: 'createdAt', condition: 'GREATER_THAN', value: 'abc' }])
  t.equal(lookupsOf(notNumber)[0]?.op, 'gt', 'a range with a non-number on a numeric field is a lookup')
})

t.test('CONTAIN, START_WITH, END_WITH and IEQUAL are lookups, resolved to IN lists', async (t) => {
  const f = filterOf([
    { field: 'name', condition: 'CONTAIN', value: 'ORDERS' },
    { field: 'description', condition: 'END_WITH', value: 'hand', negated: true },
  ])
  t.same(lookupsOf(f), [
    { kind: 'exact', field: 'name', attr: '_f_name', op: 'contain', values: ['ORDERS'] },
    { kind: 'exact', field: 'description', attr: '_f_description', op: 'end', values: ['hand'] },
    { kind: 'exact', field: 'editedDescription', attr: '_f_editedDescription', op: 'end', values: ['hand'] },
  ])
  t.throws(() => render(f), /unresolved lookup/)
  const values: Record<string, string[]> = {
    name: ['Orders Daily', 'Customers'],
    description: ['curated by hand'],
    editedDescription: [],
  }
  const resolve = async (l: Lookup) =>
    inList(
      l.attr,
      (values[l.field] ?? [])
        .filter((v) => l.values.some((x) => lookupMatches(l.op, v, x)))
        .map((v) => exactToken(v)),
    )
  t.equal(
    render(await resolveLookups(f, resolve)),
    `_f_name = "${hex('Orders Daily')}" AND NOT _f_description = "${hex('curated by hand')}"`,
    'no matching value folds to FALSE and away',
  )
  const none = await resolveLookups(
    filterOf([{ field: 'name', condition: 'START_WITH', value: 'zz' }]),
    resolve,
  )
  t.ok(isFalse(none), 'nothing matching is FALSE')
  t.same(lookupsOf(filterOf([{ field: 'origin', condition: 'IEQUAL', value: 'prod' }]))[0]?.op, 'ieq')
  t.ok(lookupMatches('contain', 'Orders Daily', 'ORDERS'))
  t.ok(lookupMatches('start', 'Customers', 'cust'))
  t.ok(lookupMatches('end', 'Inventory levels', 'LEVELS'))
  t.ok(lookupMatches('ieq', 'PROD', 'prod'))
  t.notOk(lookupMatches('contain', 'Orders', 'rdx'))
  t.ok(lookupMatches('contain', 'Crème brûlée', 'creme'), 'accents are folded')
  t.ok(lookupMatches('gt', 'b', 'a'))
  t.notOk(lookupMatches('lte', 'b', 'a'))
})

t.test('_entityType, removed and urn criteria', async (t) => {
  t.equal(text(filterOf([{ field: '_entityType', value: 'DATASET' }])), '_entityType = "dataset"')
  t.equal(
    text(filterOf([{ field: '_entityType', values: ['dataset', 'CHART', 'nope'] }])),
    '_entityType IN ["dataset", "chart"]',
  )
  t.equal(text(filterOf([{ field: '_entityType', value: 'nope' }])), false, 'an unknown type matches nothing')
  t.equal(text(filterOf([{ field: 'removed', value: 'true' }])), '_removed = true')
  t.equal(
    text(filterOf([{ field: 'removed', values: ['true', 'false'] }])),
    '_removed = true OR _removed = false',
  )
  t.equal(text(filterOf([{ field: 'urn', value: ds('a') }])), `_pk = "${pkOf(ds('a'))}"`)
  t.equal(text(filterOf([{ field: 'urn', condition: 'EXISTS' }])), true)
  t.same(lookupsOf(filterOf([{ field: 'urn', condition: 'CONTAIN', value: 'kafka' }])), [
    { kind: 'urn', field: 'urn', attr: '_pk', op: 'contain', values: ['kafka'] },
  ])
})

t.test('OR of AND groups and the scope', async (t) => {
  const req = fx.requests.search({
    input: '*',
    entityTypes: ['dataset'],
    start: 0,
    count: 1,
    filter: {
      or: [
        { and: [{ field: 'typeNames', value: 'DEV' }] },
        {
          and: [
            { field: 'owners', value: 'urn:li:corpuser:jdoe' },
            { field: 'platform', value: 'urn:li:dataPlatform:hive' },
          ],
        },
      ],
    },
  })
  t.equal(
    render(and(scopeFilter(req.entityTypes, req.includeRemoved), translateFilter(req.filter, catalog))),
    `_entityType = "dataset" AND _removed = false AND (_f_typeNames = "${hex('DEV')}" OR (_f_owners = "${hex('urn:li:corpuser:jdoe')}" AND _f_platform = "${hex('urn:li:dataPlatform:hive')}"))`,
  )
  t.equal(render(scopeFilter(['dataset', 'chart'], true)), '_entityType IN ["dataset", "chart"]')
  t.equal(render(translateFilter({ or: [] }, catalog) as FilterExpr), undefined, 'no filter is TRUE')
})

t.test('constants fold', async (t) => {
  const a = inList('_f_a', ['x'])
  t.same(and(TRUE, a), a)
  t.same(and(FALSE, a), FALSE)
  t.same(or(TRUE, a), TRUE)
  t.same(or(FALSE, a), a)
  t.same(not(not(a)), a)
  t.same(not(TRUE), FALSE)
  t.same(inList('_f_a', []), FALSE)
  t.throws(() => render(FALSE))
  t.throws(() => inList('bad name', ['x']), /cannot be used/)
})

t.test('field:value clauses', async (t) => {
  t.equal(
    render(fieldClause('tags', 'Legacy', false)),
    '_k_tags = "legacy" OR _k_fieldTags = "legacy" OR _k_editedFieldTags = "legacy"',
  )
  t.equal(render(fieldClause('platform', 'kafka', false)), '_k_platform = "kafka"')
  t.equal(
    render(fieldClause('name', 'Orders Daily', false)),
    `_k_name = "${keyToken('orders daily')}" OR (_k_name = "orders" AND _k_name = "daily")`,
    'a value with a space is hashed as a whole, and matches its words',
  )
  t.equal(render(fieldClause('urn', ds('a'), false)), `_pk = "${pkOf(ds('a'))}"`)
  t.same(lookupsOf(fieldClause('name', 'Ord', true)), [
    { kind: 'key', field: 'name', attr: '_k_name', op: 'start', values: ['ord'] },
  ])
})

t.test('queries plan as alternatives', async (t) => {
  const plan = (input: string) =>
    planQuery(fx.requests.search({ input, entityTypes: ['dataset'], start: 0, count: 1 }).query)
  t.same(plan('*'), [{ texts: [], negated: [], filter: TRUE }])
  const two = plan('orders daily')
  t.equal(two.length, 2, 'free words joined by OR are two alternatives')
  t.same(two.map(renderQ), ['orders', 'daily'])
  const one = plan('platform:kafka stock')
  t.equal(one.length, 1)
  t.equal(renderQ(one[0] as never), 'stock')
  t.equal(render(one[0]?.filter as FilterExpr), '_k_platform = "kafka"')
  const ors = plan('owners:jdoe OR owners:alice')
  t.equal(ors.length, 1, 'field-only alternatives merge into one filter')
  t.equal(render(ors[0]?.filter as FilterExpr), '_k_owners = "jdoe" OR _k_owners = "alice"')
  const neg = plan('platform:kafka -owners:jdoe')
  t.equal(render(neg[0]?.filter as FilterExpr), '_k_platform = "kafka" AND NOT _k_owners = "jdoe"')
  const notWord = plan('orders -daily')
  t.same(notWord.map(renderQ), ['-daily orders'])
  t.same(plan('"orders daily"').map(renderQ), ['"orders daily"'])
  t.same(plan('warehouse_id').map(renderQ), ['warehouse id'], 'one word with parts')
  t.same(plan('-"a b" c').map(renderQ), ['-"a b" c'])
  const nested = plan('(orders OR daily) AND platform:kafka')
  t.same(nested.map(renderQ), ['orders', 'daily'])
  t.ok(nested.every((b) => render(b.filter) === '_k_platform = "kafka"'))
  t.same(plan('+orders +daily').map(renderQ), ['orders daily'], 'required words are one alternative')
  const many = Array.from({ length: 5 }, (_, i) => `(a${i} OR b${i})`).join(' AND ')
  t.throws(() => plan(many), /more than 16 alternatives/)
  t.equal(MAX_BRANCHES, 16)
})

t.test('page windows', async (t) => {
  t.same(pageWindow(0, 10), { pages: [{ page: 1, hitsPerPage: 10 }], skip: 0, take: 10 })
  t.same(pageWindow(20, 10), { pages: [{ page: 3, hitsPerPage: 10 }], skip: 0, take: 10 })
  t.same(pageWindow(2, 10), {
    pages: [
      { page: 1, hitsPerPage: 10 },
      { page: 2, hitsPerPage: 10 },
    ],
    skip: 2,
    take: 10,
  })
  t.same(pageWindow(5, 0), { pages: [{ page: 1, hitsPerPage: 0 }], skip: 0, take: 0 })
  t.same(pageWindow(1, 2).pages.length, 2)
})

t.test('a browsePathV2 filter matches the node and the paths under it', async (t) => {
  const node = '\u241Furn:li:container:db'
  t.equal(
    text(filterOf([{ field: 'browsePathV2', values: [node] }])),
    render(or(inList('_f_browsePathV2', [exactToken(node)]), inList('_bv2', [nodeToken(node)]))),
  )
  t.equal(
    filterOf([{ field: 'browsePathV2', values: [node], condition: 'START_WITH' }]).k,
    'lookup',
    'other conditions compare the value only',
  )
})
