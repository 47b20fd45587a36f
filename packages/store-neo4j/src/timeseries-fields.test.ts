import type { TimeseriesFilter } from '@catalog/store'
import t from 'tap'
import { TIMESERIES_QUERY, TIMESERIES_SORTED } from './cypher-timeseries.js'
import {
  type CriterionParam,
  fieldPath,
  filterParam,
  type TimeseriesFields,
  timeseriesBytes,
  timeseriesFields,
} from './timeseries-fields.js'

t.test('values flatten into parallel lists of scalars by dotted path; arrays are transparent', async (t) => {
  const fields = timeseriesFields({
    timestampMillis: 100,
    rowCount: 5,
    eventGranularity: { unit: 'DAY', multiple: 1 },
    tags: ['a', 'b'],
    flag: false,
    nothing: null,
    empty: [],
    fieldProfiles: [
      { fieldPath: 'x', nullCount: 0 },
      { fieldPath: 'y', sampleValues: ['1', '2'] },
    ],
  })
  t.same(fields.textPaths, [
    'eventGranularity.unit',
    'tags',
    'tags',
    'fieldProfiles.fieldPath',
    'fieldProfiles.fieldPath',
    'fieldProfiles.sampleValues',
    'fieldProfiles.sampleValues',
  ])
  t.same(fields.textValues, ['DAY', 'a', 'b', 'x', 'y', '1', '2'])
  t.same(fields.numberPaths, [
    'timestampMillis',
    'rowCount',
    'eventGranularity.multiple',
    'fieldProfiles.nullCount',
  ])
  t.same(fields.numberValues, [100, 5, 1, 0])
  t.same([fields.booleanPaths, fields.booleanValues], [['flag'], [false]])
  t.same(
    [...(fields.fieldPaths ?? [])].sort(),
    [
      'eventGranularity',
      'eventGranularity.multiple',
      'eventGranularity.unit',
      'fieldProfiles',
      'fieldProfiles.fieldPath',
      'fieldProfiles.nullCount',
      'fieldProfiles.sampleValues',
      'flag',
      'rowCount',
      'tags',
      'timestampMillis',
    ],
    'every path holding a non-null scalar, and its parents; not null or empty ones',
  )
  t.same(
    timeseriesFields({}),
    {
      fieldPaths: null,
      textPaths: null,
      textValues: null,
      numberPaths: null,
      numberValues: null,
      booleanPaths: null,
      booleanValues: null,
    },
    'no empty list is stored',
  )
  const odd = timeseriesFields({ 'a.b': 1, c: { d: 2 } })
  t.same(odd.fieldPaths, ['a.b', 'c', 'c.d'], 'a key with a dot is one path; no phantom parent')
})

t.test('row bytes count keys, value and system metadata in UTF-8', async (t) => {
  const row = { urn: 'urn:é', entityType: 'dataset', aspect: 'p', timestampMillis: 1, value: {} }
  t.equal(timeseriesBytes(row, { partition: 'pp', messageId: '' }, '{}', null), 6 + 2 + 0 + 2 + 8)
  t.equal(timeseriesBytes(row, { partition: '', messageId: 'm' }, '{}', '{"a":1}'), 6 + 1 + 2 + 7 + 8)
})

t.test('fields must be plain dotted paths', async (t) => {
  t.equal(fieldPath('eventGranularity.unit'), 'eventGranularity.unit')
  for (const bad of ['a"b', 'a\\b', '', 'a..b', '.a', 'a.']) {
    t.throws(() => fieldPath(bad), { name: 'InvalidInputError' }, JSON.stringify(bad))
  }
  t.throws(() => fieldPath(5 as unknown as string), { name: 'InvalidInputError' })
})

t.test('criteria become typed parameters', async (t) => {
  const [[eq, gt, ge, lt, text, exists, neg] = []] = filterParam([
    [
      { field: 'rowCount', condition: 'EQUAL', values: ['3742', 'true', 'x'] },
      { field: 'rowCount', condition: 'GREATER_THAN', values: ['6'] },
      { field: 'rowCount', condition: 'GREATER_THAN_OR_EQUAL_TO', values: ['-1.5e2'] },
      { field: 'rowCount', condition: 'LESS_THAN', values: ['7'] },
      { field: 'label', condition: 'LESS_THAN_OR_EQUAL_TO', values: ['m'] },
      { field: 'label', condition: 'EXISTS', values: [] },
      { field: 'label', condition: 'EXISTS', values: [], negated: true },
    ],
  ])
  t.match(eq, { texts: ['3742', 'true', 'x'], numbers: [3742], booleans: [true], compare: false })
  t.match(gt, { compare: true, numeric: true, bound: 6, above: true, inclusive: false })
  t.match(ge, { bound: -150, above: true, inclusive: true })
  t.match(lt, { bound: 7, above: false, inclusive: false })
  t.match(text, { numeric: false, bound: 'm', above: false, inclusive: true })
  t.match(exists, { exists: true, negated: false })
  t.match(neg, { exists: true, negated: true })
  t.same(filterParam(undefined), [])
  t.same(filterParam([[]]), [[]], 'an empty group matches every row')
  for (const bad of [
    [[{ field: 'a', condition: 'EQUAL', values: [] }]],
    [[{ field: 'a', condition: 'GREATER_THAN', values: [] }]],
    [[{ field: 'a', condition: 'LIKE', values: ['x'] }]],
    [[{ field: 'a"b', condition: 'EXISTS', values: [] }]],
  ] as unknown as TimeseriesFilter[]) {
    t.throws(() => filterParam(bad), { name: 'InvalidInputError' }, JSON.stringify(bad))
  }
})

/**
 * The filter as `cypher-timeseries.ts` evaluates it (criterion semantics documented on
 * `CriterionParam`), over the stored fields: with it, the store contract's filter cases can
 * check the flattening and the encoding without a server.
 */
function passes(f: TimeseriesFields, filter: CriterionParam[][]): boolean {
  const at = <T>(paths: string[] | null, values: T[] | null, path: string) =>
    (paths ?? []).flatMap((p, i) => (p === path ? [values?.[i] as T] : []))
  const bound = <T extends string | number>(x: T, c: CriterionParam) =>
    c.above
      ? x > (c.bound as T) || (c.inclusive && x === c.bound)
      : x < (c.bound as T) || (c.inclusive && x === c.bound)
  const holds = (c: CriterionParam) =>
    (c.exists && (f.fieldPaths ?? []).includes(c.path)) ||
    at(f.textPaths, f.textValues, c.path).some(
      (x) => c.texts.includes(x) || (c.compare && !c.numeric && bound(x, c)),
    ) ||
    at(f.numberPaths, f.numberValues, c.path).some(
      (x) => c.numbers.includes(x) || (c.compare && c.numeric && bound(x, c)),
    ) ||
    at(f.booleanPaths, f.booleanValues, c.path).some((x) => c.booleans.includes(x))
  return filter.length === 0 || filter.some((g) => g.every((c) => c.negated !== holds(c)))
}

t.test('the encoding gives the store contract filter results', async (t) => {
  const rows = [
    { ts: 100, value: { rowCount: 5, eventGranularity: { unit: 'DAY' }, tags: ['a', 'b'] } },
    { ts: 200, value: { rowCount: 50, eventGranularity: { unit: 'HOUR' }, flag: true } },
    { ts: 300, value: { rowCount: 7, eventGranularity: { unit: 'DAY' }, flag: false } },
    { ts: 400, value: { rowCount: 3742, label: 'zeta' } },
  ].map((r) => ({ ts: r.ts, fields: timeseriesFields({ timestampMillis: r.ts, ...r.value }) }))
  const ts = (filter: TimeseriesFilter) => {
    const param = filterParam(filter)
    return rows
      .filter((r) => passes(r.fields, param))
      .map((r) => r.ts)
      .reverse()
  }
  t.same(ts([[{ field: 'eventGranularity.unit', condition: 'EQUAL', values: ['DAY'] }]]), [300, 100])
  t.same(ts([[{ field: 'rowCount', condition: 'GREATER_THAN', values: ['6'] }]]), [400, 300, 200])
  t.same(ts([[{ field: 'rowCount', condition: 'LESS_THAN_OR_EQUAL_TO', values: ['7'] }]]), [300, 100])
  t.same(ts([[{ field: 'rowCount', condition: 'EQUAL', values: ['3742'] }]]), [400])
  t.same(ts([[{ field: 'tags', condition: 'EQUAL', values: ['b'] }]]), [100])
  t.same(ts([[{ field: 'flag', condition: 'EQUAL', values: ['false'] }]]), [300])
  t.same(ts([[{ field: 'label', condition: 'EXISTS', values: [] }]]), [400])
  t.same(ts([[{ field: 'label', condition: 'EXISTS', values: [], negated: true }]]), [300, 200, 100])
  t.same(
    ts([[{ field: 'label', condition: 'GREATER_THAN', values: ['m'] }]]),
    [400],
    'strings compare as text',
  )
  t.same(
    ts([[{ field: 'eventGranularity', condition: 'EXISTS', values: [] }]]),
    [300, 200, 100],
    'an object path',
  )
  t.same(
    ts([
      [
        { field: 'eventGranularity.unit', condition: 'EQUAL', values: ['DAY'] },
        { field: 'rowCount', condition: 'GREATER_THAN', values: ['5'] },
      ],
      [{ field: 'label', condition: 'IN', values: ['x', 'zeta'] }],
    ]),
    [400, 300],
  )
})

t.test('the statements take the filter and the sort field as parameters', async (t) => {
  t.match(TIMESERIES_QUERY.text, /any\(g IN \$filter WHERE all\(c IN g WHERE/)
  t.match(TIMESERIES_QUERY.text, /ORDER BY t\.timestampMillis DESC LIMIT \$limit/)
  t.match(
    TIMESERIES_SORTED.ASCENDING.text,
    /ORDER BY \(n IS NOT NULL OR s IS NOT NULL\) ASC, s IS NOT NULL ASC, n ASC, s ASC/,
  )
  t.match(TIMESERIES_SORTED.DESCENDING.text, /n DESC, s DESC, t\.timestampMillis DESC/)
  t.equal(
    TIMESERIES_SORTED.ASCENDING.text.replace(/ASC/g, 'DESC'),
    TIMESERIES_SORTED.DESCENDING.text.replace(/ASC/g, 'DESC'),
    'only the order differs',
  )
  t.ok(TIMESERIES_SORTED.ASCENDING.params.includes('sortField'))
})
