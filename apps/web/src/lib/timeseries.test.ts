import t from 'tap'
import { numericSeries, perDay, scalarColumns, scalePoints } from './timeseries.js'

t.test('numericSeries: one series per measure, oldest first, time fields left out', async (t) => {
  const events = [
    { timestampMillis: 2000, rowCount: 20, columnCount: 5, lastUpdatedTimestamp: 9, partitionSpec: {} },
    { timestampMillis: 1000, rowCount: 10, columnCount: 4 },
    { rowCount: 99 },
  ]
  t.same(numericSeries(events), [
    {
      field: 'rowCount',
      points: [
        { t: 1000, v: 10 },
        { t: 2000, v: 20 },
      ],
    },
    {
      field: 'columnCount',
      points: [
        { t: 1000, v: 4 },
        { t: 2000, v: 5 },
      ],
    },
  ])
  t.same(numericSeries([]), [])
})

t.test('perDay counts events by UTC day', async (t) => {
  const day = 86_400_000
  t.same(perDay([{ timestampMillis: 3 * day + 5 }, { timestampMillis: day }, { timestampMillis: 3 * day }]), [
    { t: day, v: 1 },
    { t: 3 * day, v: 2 },
  ])
})

t.test('scalarColumns lists scalar fields in first-seen order', async (t) => {
  t.same(
    scalarColumns([{ timestampMillis: 1, operationType: 'CREATE', partitionSpec: {} }, { actor: 'x' }]),
    ['timestampMillis', 'operationType', 'actor'],
  )
})

t.test('scalePoints maps time to x and value to y, the axis from zero', async (t) => {
  t.same(
    scalePoints(
      [
        { t: 0, v: 0 },
        { t: 10, v: 5 },
        { t: 20, v: 10 },
      ],
      100,
      50,
    ),
    [
      { x: 0, y: 50 },
      { x: 50, y: 25 },
      { x: 100, y: 0 },
    ],
  )
  t.same(scalePoints([{ t: 7, v: 3 }], 100, 50), [{ x: 50, y: 0 }], 'one point: centred, at its value')
  t.same(scalePoints([], 100, 50), [])
})
