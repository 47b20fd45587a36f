import t from 'tap'
import { InvalidInputError } from './errors.js'
import { checkAspectLimits } from './limits.js'
import { checkWritableUrn, MAX_URN_LENGTH, parseUrn } from './urn.js'

t.test('parseUrn refuses what could never be stored and read back', async (t) => {
  const bad: Array<[string, RegExp]> = [
    [`urn:li:tag:${'x'.repeat(MAX_URN_LENGTH)}`, /the limit is 4096 \(max urn length\)/],
    ['urn:li:tag:a\ud800', /lone UTF-16 surrogate/],
    ['urn:li:tag:\udc00a', /lone UTF-16 surrogate/],
    ['urn:li:tag:a)', /unbalanced parentheses/],
    ['urn:li:tag:a(b', /unbalanced parentheses/],
    ['urn:li:dataset:(a,(b,c)', /unbalanced parentheses/],
  ]
  for (const [raw, message] of bad) t.throws(() => parseUrn(raw), { name: 'InvalidInputError', message })
  t.equal(
    parseUrn('urn:li:tag:smile \ud83d\ude00').parts[0],
    'smile \ud83d\ude00',
    'surrogate pairs are fine',
  )
  t.equal(parseUrn('urn:li:corpuser:jane (contractor)').parts[0], 'jane (contractor)')
  t.ok(parseUrn(`urn:li:tag:${'x'.repeat(40_000)}`.slice(0, MAX_URN_LENGTH)), 'the longest urn parses')
  try {
    parseUrn(`urn:li:tag:${'z'.repeat(1_000_000)}`)
    t.fail('a 1 MB urn parses')
  } catch (err) {
    t.ok(err instanceof InvalidInputError && err.message.length < 400, 'the message does not echo a megabyte')
  }
})

t.test("checkWritableUrn applies DataHub's write-time rules", async (t) => {
  const encodedLimit = (id: string) => () => checkWritableUrn(parseUrn(`urn:li:tag:${id}`))
  // 'urn:li:tag:' takes 17 bytes encoded (each ':' takes 3), leaving 495 for the id.
  t.doesNotThrow(encodedLimit('a'.repeat(495)), '512 bytes exactly')
  t.throws(encodedLimit('a'.repeat(496)), /longer than 512 bytes \(when URL encoded\)/)
  t.throws(encodedLimit('/'.repeat(166)), /longer than 512 bytes/, "'/' takes 3 bytes encoded")
  t.doesNotThrow(encodedLimit('/'.repeat(165)))
  t.throws(encodedLimit('\u20ac'.repeat(56)), /longer than 512/, 'a 3-byte character takes 9')
  t.doesNotThrow(encodedLimit('\u20ac'.repeat(55)))
  t.doesNotThrow(encodedLimit('a b'.repeat(165)), "a space takes one byte ('+')")
  t.doesNotThrow(
    () => checkWritableUrn(parseUrn(`urn:li:schemaField:(urn:li:dataset:x,${'f'.repeat(2000)})`)),
    'schemaField URNs are exempt, as in DataHub',
  )
  t.throws(() => checkWritableUrn(parseUrn('urn:li:tag:a ')), /leading or trailing whitespace/)
  t.throws(() => checkWritableUrn(parseUrn('urn:li:tag:a\u241fb')), /cannot contain/)
})

t.test('checkAspectLimits names the limit and never overflows the stack', async (t) => {
  let deep: unknown = 1
  for (let i = 0; i < 100_000; i++) deep = [deep]
  t.throws(() => checkAspectLimits('x', { a: deep }), /nests deeper than the limit of 64 levels/)
  let ok: unknown = 'leaf'
  for (let i = 0; i < 63; i++) ok = { a: ok }
  t.doesNotThrow(() => checkAspectLimits('x', ok), '64 levels are fine')
  const limits = { maxAspectDepth: 64, maxArrayItems: 10, maxAspectChars: 100 }
  t.throws(
    () => checkAspectLimits('x', { l: Array(11).fill(1) }, limits),
    /array of 11 items; the limit is 10/,
  )
  t.doesNotThrow(() => checkAspectLimits('x', { l: Array(10).fill(1) }, limits))
  t.throws(
    () => checkAspectLimits('x', { s: 'y'.repeat(100) }, limits),
    /larger than the limit of 100 characters/,
  )
  const value = { a: 'b'.repeat(50), n: [1, 2, 3], o: { k: true } }
  t.doesNotThrow(() =>
    checkAspectLimits('x', value, { ...limits, maxAspectChars: JSON.stringify(value).length }),
  )
  t.throws(() =>
    checkAspectLimits('x', value, { ...limits, maxAspectChars: JSON.stringify(value).length - 15 }),
  )
})
