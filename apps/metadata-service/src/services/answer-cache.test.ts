import type { ChangeLogEntry } from '@catalog/core'
import t from 'tap'
import { AnswerCache } from './answer-cache.js'

/** A change log to append to, as writes do. */
function fakeLog() {
  const log: ChangeLogEntry[] = []
  return {
    reader: {
      head: async () => log.at(-1)?.seq ?? 0,
      changes: async (after: number, limit: number) => log.filter((e) => e.seq > after).slice(0, limit),
    },
    write(urn: string) {
      log.push({
        seq: log.length + 1,
        urn,
        entityType: 'dataset',
        aspect: 'status',
        change: 'UPSERT',
        created: { time: 1, actor: 'urn:li:corpuser:a' },
      })
    },
  }
}

t.test('an answer asked for twice is remembered until the next write, within its budget', async (t) => {
  const log = fakeLog()
  const cache = new AnswerCache(log.reader, 16 * 100)
  let computed = 0
  const ask = (key: string, size = 10) => cache.get(key, async () => `${++computed}`.padEnd(size, '.'))
  t.equal(await ask('a'), '1.........')
  t.equal(await ask('a'), '2.........', 'an answer asked for once is not kept')
  t.equal(await ask('a'), '2.........', 'from the second time on it is')
  log.write('urn:li:dataset:x')
  t.equal(await ask('a'), '3.........', 'any write drops it')
  t.equal(await ask('a'), '4.........')
  t.equal(await ask('a'), '4.........')
  // 16 × 100 characters: answers of 99 (+ a key of 1) fit 16 at once, the oldest dropped first.
  for (let i = 0; i < 20; i++) await ask(`k${i % 10}`, 98)
  for (let i = 0; i < 40; i++) await ask(`${i % 20}`.padStart(2, '_'), 98)
  const before = computed
  await ask('19'.padStart(2, '_'), 98)
  t.equal(computed, before, 'the newest answers are kept')
  await ask('k0', 98)
  t.equal(computed, before + 1, 'the oldest were dropped to stay within the budget')
  await ask('big', 200)
  await ask('big', 200)
  t.equal(computed, before + 3, 'an answer over a sixteenth of the budget is never kept')
})

t.test('an answer asked for the first time is computed without reading the change log', async (t) => {
  const log = fakeLog()
  let heads = 0
  const head = () => {
    heads++
    return log.reader.head()
  }
  const cache = new AnswerCache({ ...log.reader, head })
  let computed = 0
  const ask = (key: string) => cache.get(key, async () => `${++computed}`)
  await ask('a')
  await ask('b')
  t.equal(heads, 0, 'first asks do not read the log')
  t.equal(await ask('a'), '3')
  t.equal(heads, 1, 'the second, whose answer is kept, reads it first')
  log.write('urn:li:dataset:x')
  t.equal(await ask('a'), '4', 'a write after it was kept drops it')
  t.equal(heads, 2)
})
