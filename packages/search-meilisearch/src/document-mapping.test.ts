/**
 * Document mapping, index settings and tokens without a server.
 */
import { ContractFixture, ds, tag } from '@catalog/search/contract-fixtures'
import t from 'tap'
import { fieldCatalog } from './attributes.js'
import type { MeiliBackend } from './backend.js'
import { browseTokens, browseV2Tokens, fromStored, keysOf, toMeiliDocument } from './document-mapper.js'
import { decodeFacets, typoVariants } from './hits.js'
import {
  deriveSettings,
  layoutFingerprint,
  MAX_TOTAL_HITS,
  MAX_VALUES_PER_FACET,
  settingsDiffer,
} from './index-settings.js'
import { compareSortValues } from './search-query.js'
import {
  childToken,
  decodeChild,
  decodeExact,
  decodeKey,
  exactToken,
  keyToken,
  nodeToken,
  pkOf,
  sha256,
} from './tokens.js'

const fx = new ContractFixture()
const catalog = fieldCatalog(fx.schema)

/** A document built the way `apply` builds it: through the deriver, contributions ordered. */
function documentOf(name: string, aspects: Record<string, Record<string, unknown>>) {
  const urn = ds(name)
  const parts: Record<string, Record<string, unknown[]>> = {}
  for (const c of fx.deriver.changes(fx.dataset(name, aspects)))
    if (c.kind === 'upsert') parts[c.aspect] = c.fields as Record<string, unknown[]>
  const ordered = Object.fromEntries(
    Object.entries(parts).sort(([a], [b]) =>
      a === 'datasetKey' ? -1 : b === 'datasetKey' ? 1 : a.localeCompare(b),
    ),
  )
  return toMeiliDocument(urn, 'dataset', ordered as never, catalog)
}

t.test('tokens', async (t) => {
  t.equal(exactToken('PROD'), '50524f44')
  t.equal(decodeExact(exactToken('Crème "x" \\ y')), 'Crème "x" \\ y')
  const long = 'x'.repeat(151)
  t.match(exactToken(long), /^#[0-9a-f]{64}$/, 'long values are hashed')
  t.equal(decodeExact(exactToken(long)), undefined)
  t.not(exactToken('prod'), exactToken('PROD'), 'case is kept')
  t.equal(keyToken('legacy'), 'legacy')
  t.equal(decodeKey('legacy'), 'legacy')
  for (const unsafe of ['has space', 'quo"te', "it's", 'back\\slash', '#hash', 'Upper', 'ﬁ', ''])
    t.match(keyToken(unsafe), /^#[0-9a-f]{64}$/, `${JSON.stringify(unsafe)} is hashed`)
  t.equal(decodeKey(keyToken('has space')), undefined)
  t.equal(pkOf('urn:li:x'), sha256('urn:li:x'))
  t.match(pkOf(ds('a')), /^[0-9a-f]{64}$/, 'a valid Meilisearch document id')
  const child = childToken('/prod', 'kafka1')
  t.equal(decodeChild(child, '/prod'), 'kafka1')
  t.equal(decodeChild(child, '/dev'), null, 'another parent')
  t.equal(decodeChild(childToken('/prod', 'y'.repeat(200)), '/prod'), undefined, 'a long segment')
  t.not(nodeToken('/prod'), nodeToken('/Prod'))
})

t.test('a document holds its contributions and every representation of its fields', async (t) => {
  const doc = documentOf('orders_daily', {
    datasetProperties: { name: 'Orders Daily', description: 'Daily snapshot', created: { time: 1000 } },
    globalTags: tag('Legacy'),
    browsePaths: { paths: ['/prod/hive'] },
  })
  t.equal(doc._pk, pkOf(ds('orders_daily')))
  t.equal(doc.urn, ds('orders_daily'))
  t.equal(doc._entityType, 'dataset')
  t.equal(doc._removed, false)
  t.same(doc.name, ['Orders Daily'], 'raw values')
  t.same(doc.createdAt, [1000])
  t.same(doc._f_name, [exactToken('Orders Daily')], 'exact tokens')
  t.same(doc._f_createdAt, [exactToken('1000')])
  t.same(doc._t_name, ['orders daily'], 'analysed text')
  t.same(doc._t_id, ['orders daily'], 'ids split on punctuation')
  t.same(doc._t_platform, ['hive'], 'a URN says its members')
  t.same(doc._t_tags, ['legacy'])
  t.same(doc._k_tags, [keyToken('urn:li:tag:legacy'), 'legacy'], 'whole folded value, URN key')
  t.same(doc._k_name, [keyToken('orders daily'), 'orders', 'daily'], 'whole value and words')
  t.equal(doc._k_description?.toString(), 'daily,snapshot', 'free text keeps words only')
  t.equal(doc._t_description?.toString(), 'daily snapshot')
  t.same(doc._bu, [nodeToken(''), nodeToken('/prod')])
  t.same(doc._bc0, [childToken('', 'prod')])
  t.same(doc._bc1, [childToken('/prod', 'hive')])
  const stored = fromStored(doc)
  t.same(stored.fields.tags, ['urn:li:tag:Legacy'])
  t.same(stored.fields.hasTags, [true])
  t.same(stored.aspects, [...stored.aspects].sort())
  t.ok(stored.aspects.includes('globalTags'))
  t.equal(stored.removed, false)
  const again = documentOf('orders_daily', {
    datasetProperties: { name: 'Orders Daily', description: 'Daily snapshot', created: { time: 1000 } },
    globalTags: tag('Legacy'),
    browsePaths: { paths: ['/prod/hive'] },
  })
  t.same(again, doc, 'the same contributions give the same document')
})

t.test('soft-deleted documents carry the flag', async (t) => {
  const doc = documentOf('gone', { status: { removed: true } })
  t.equal(doc._removed, true)
  t.same(doc.removed, [true])
  t.equal(fromStored(doc).removed, true)
})

t.test('keys of field:value', async (t) => {
  t.same(keysOf('platform', 'urn:li:dataPlatform:kafka', catalog), ['urn:li:dataplatform:kafka', 'kafka'])
  t.same(keysOf('owners', 'urn:li:corpuser:jdoe', catalog), ['urn:li:corpuser:jdoe', 'jdoe'])
  t.same(keysOf('description', 'Stock per warehouse', catalog), ['stock', 'per', 'warehouse'])
  t.same(keysOf('origin', 'PROD', catalog), ['prod'])
  t.same(keysOf('createdAt', 1000, catalog), ['1000'])
})

t.test('browse tokens', async (t) => {
  const b = browseTokens(['/prod/kafka1', '/prod/kafka2', '//prod/'])
  t.same(b.under, [nodeToken(''), nodeToken('/prod')])
  t.same(b.children.get(0), [childToken('', 'prod')])
  t.same(b.children.get(1), [childToken('/prod', 'kafka1'), childToken('/prod', 'kafka2')])
  const deep = browseTokens([`/${Array.from({ length: 20 }, (_, i) => `s${i}`).join('/')}`])
  t.equal(deep.under.length, 20)
  t.equal(deep.children.size, 16, 'groups are kept as facets to depth 16')
})

t.test('settings derived from the registry', async (t) => {
  const s = deriveSettings(fx.schema)
  const searchable = s.searchableAttributes as string[]
  t.ok(searchable.indexOf('_t_name') < searchable.indexOf('_t_description'), 'boost 10 before boost 1')
  t.ok(searchable.indexOf('_t_description') < searchable.indexOf('_t_fieldDescriptions'), '1 before 0.1')
  t.notOk(searchable.includes('_t_owners'), 'fields not searched by default are not searchable')
  const filterable = s.filterableAttributes as string[]
  for (const a of [
    '_pk',
    '_entityType',
    '_removed',
    '_bu',
    '_bc0',
    '_bc15',
    '_f_platform',
    '_k_tags',
    'createdAt',
  ])
    t.ok(filterable.includes(a), `${a} is filterable`)
  t.notOk(filterable.includes('name'), 'raw strings are not filterable')
  const sortable = s.sortableAttributes as string[]
  t.ok(sortable.includes('urn') && sortable.includes('createdAt') && sortable.includes('name'))
  t.notOk(sortable.includes('description'), 'free-text fields are not sortable')
  t.same(s.rankingRules, ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness'])
  t.same(s.typoTolerance?.minWordSizeForTypos, { oneTypo: 5, twoTypos: 9 })
  t.same(s.faceting, { maxValuesPerFacet: MAX_VALUES_PER_FACET, sortFacetValuesBy: { '*': 'count' } })
  t.same(s.pagination, { maxTotalHits: MAX_TOTAL_HITS })
  t.notOk(
    settingsDiffer({ ...s, filterableAttributes: [...filterable].reverse() }, s),
    'order of sets ignored',
  )
  t.ok(
    settingsDiffer({ ...s, searchableAttributes: [...searchable].reverse() }, s),
    'searchable order counts',
  )
  t.ok(settingsDiffer({ ...s, typoTolerance: { enabled: true } }, s))
  t.ok(settingsDiffer({}, s), 'a new index needs settings')
  t.equal(layoutFingerprint(fx.schema), layoutFingerprint(new ContractFixture().schema), 'stable')
})

t.test('facets decode tokens and order buckets', async (t) => {
  const long = `urn:li:container:${'c'.repeat(200)}`
  const backend = {
    documents: async () => ({ results: [{ container: [long] }], total: 1 }),
  } as unknown as MeiliBackend
  const facets = await decodeFacets(
    {
      _f_origin: { [exactToken('PROD')]: 3, [exactToken('DEV')]: 1 },
      _f_platform: { [exactToken('b')]: 2, [exactToken('a')]: 2, [exactToken('c')]: 1 },
      _entityType: { dataset: 4, chart: 1 },
      _f_container: { [exactToken(long)]: 2 },
    },
    [
      { field: 'origin', displayName: 'Environment' },
      { field: 'platform', displayName: 'Platform' },
      { field: 'owners', displayName: 'Owned By' },
      { field: '_entityType', displayName: 'Type' },
      { field: 'container', displayName: 'Container' },
    ],
    2,
    backend,
    catalog,
  )
  t.same(facets, [
    {
      field: 'origin',
      displayName: 'Environment',
      values: [
        { value: 'PROD', count: 3 },
        { value: 'DEV', count: 1 },
      ],
    },
    {
      field: 'platform',
      displayName: 'Platform',
      values: [
        { value: 'a', count: 2 },
        { value: 'b', count: 2 },
      ],
    },
    {
      field: '_entityType',
      displayName: 'Type',
      values: [
        { value: 'dataset', count: 4 },
        { value: 'chart', count: 1 },
      ],
    },
    { field: 'container', displayName: 'Container', values: [{ value: long, count: 2 }] },
  ])
})

t.test('typo variants for matchedFields and sort order of the union', async (t) => {
  const variants = typoVariants({ description: ['Stock per warehouse'], name: ['Inventory'] }, [
    'name',
    'description',
  ])
  t.same(variants('stcok'), ['stock'])
  t.same(variants('imventorx'), ['inventory'])
  t.same(variants('stok'), [], 'no typo under 5 characters')
  t.same(variants('warehuos'), ['warehouse'], 'a typo in a prefix')
  t.equal(compareSortValues([1], [2], false) < 0, true)
  t.equal(compareSortValues([1], [2], true) > 0, true)
  t.equal(compareSortValues([], [2], false), 1, 'missing values last')
  t.equal(compareSortValues([], [2], true), 1, 'missing values last, descending too')
  t.equal(compareSortValues([1, 5], [3], false) < 0, true, 'smallest value ascending')
  t.equal(compareSortValues([1, 5], [3], true) < 0, true, 'largest value descending')
  t.equal(compareSortValues([9], ['a'], false) < 0, true, 'numbers before strings')
})

t.test('browseV2 tokens: every node a browsePathV2 lies strictly under, the root included', async (t) => {
  const D = '\u241F'
  t.same(browseV2Tokens([`${D}urn:li:container:db${D}schema`]), [
    nodeToken(''),
    nodeToken(`${D}urn:li:container:db`),
  ])
  t.same(browseV2Tokens(['not-joined']), [], 'values not in the joined form give none')
  t.same(browseV2Tokens(undefined), [])
  const doc = documentOf('db.schema.t', {
    browsePathsV2: { path: [{ id: 'urn:li:container:db', urn: 'urn:li:container:db' }] },
  })
  t.same(doc._bv2, [nodeToken('')])
  t.same(doc.browsePathV2, [`${D}urn:li:container:db`])
  t.ok(deriveSettings(fx.schema).filterableAttributes?.includes('_bv2'), 'filterable')
})
