import t from 'tap'
import { ValueAnalysis } from './value-analysis.js'

t.test('memos of any size give the same analysis as a fresh one, across their generations', async (t) => {
  const types = new Set(['dataset'])
  const tiny = new ValueAnalysis(types, 2)
  const values = [
    'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
    'urn:li:corpuser:jdoe',
    'daily_orders',
    'urn:li:dataPlatform:kafka',
    'Customer events',
  ]
  // Each value three times, in turns: every one is evicted and analysed again in between.
  for (let round = 0; round < 3; round++)
    for (const v of values) {
      const fresh = new ValueAnalysis(types)
      t.same(tiny.words(v), fresh.words(v), `words of ${v}`)
      t.equal(tiny.text(v), fresh.text(v), `text of ${v}`)
      t.same(tiny.keys(v), fresh.keys(v), `keys of ${v}`)
    }
})
