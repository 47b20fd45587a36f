import t from 'tap'
import { SeenOnce } from './seen-once.js'

t.test('SeenOnce: keys noted until deleted; past its budget of characters all are dropped', async (t) => {
  const seen = new SeenOnce(10)
  t.notOk(seen.has('abc'))
  seen.add('abc')
  seen.add('abc')
  t.ok(seen.has('abc'))
  seen.delete('abc')
  t.notOk(seen.has('abc'), 'deleted')
  seen.add('abcd')
  seen.add('efgh')
  t.ok(seen.has('abcd') && seen.has('efgh'), '8 characters fit')
  seen.add('ijk')
  t.ok(seen.has('ijk'), 'the new key is kept')
  t.notOk(seen.has('abcd') || seen.has('efgh'), 'the older keys were dropped to stay within 10')
  seen.delete('ijk')
  seen.add('0123456789')
  t.ok(seen.has('0123456789'), 'deleted keys gave their characters back')
})
