import t from 'tap'
import { ValidationError } from '../errors.js'
import { Registry } from './registry.js'
import { parseTestDefinition } from './test-definition.js'
import { compileTestRegex } from './test-regex.js'

const registry = new Registry()

t.test('a definition parses to its typed form, values as strings', async (t) => {
  const def = parseTestDefinition(
    JSON.stringify({
      on: {
        types: ['dataset', 'chart'],
        conditions: { property: 'urn', operator: 'starts_with', value: 'urn:li:' },
      },
      rules: {
        and: [
          { not: { property: 'status.removed', operator: 'is_true' } },
          { property: 'datasetProperties.customProperties.rows', operator: 'greater_than', values: [10] },
        ],
      },
    }),
    registry,
  )
  t.same(def.on.types, ['dataset', 'chart'])
  t.same(def.on.conditions, { property: 'urn', operator: 'starts_with', values: ['urn:li:'] })
  t.same(def.rules, {
    and: [
      { not: { property: 'status.removed', operator: 'is_true', values: [] } },
      { property: 'datasetProperties.customProperties.rows', operator: 'greater_than', values: ['10'] },
    ],
  })
})

t.test('an aspect only one of the types has is fine; one none has is refused', async (t) => {
  const on = { types: ['dataset', 'chart'] }
  t.doesNotThrow(() =>
    parseTestDefinition(
      JSON.stringify({ on, rules: { property: 'chartInfo.title', operator: 'exists' } }),
      registry,
    ),
  )
  t.throws(
    () =>
      parseTestDefinition(
        JSON.stringify({ on, rules: { property: 'mlModelProperties.x', operator: 'exists' } }),
        registry,
      ),
    ValidationError,
  )
})

t.test('limits: depth and size', async (t) => {
  let rules: unknown = { property: 'urn', operator: 'exists' }
  for (let i = 0; i < 20; i++) rules = { not: rules }
  t.throws(
    () => parseTestDefinition(JSON.stringify({ on: { types: ['dataset'] }, rules }), registry),
    /deeper than 16/,
  )
  const many = { or: Array.from({ length: 300 }, () => ({ property: 'urn', operator: 'exists' })) }
  t.throws(
    () => parseTestDefinition(JSON.stringify({ on: { types: ['dataset'] }, rules: many }), registry),
    /at most 256 predicates/,
  )
})

t.test('regexes: unsafe patterns are refused, safe ones compile to a linear-time matcher', async (t) => {
  const unsafe = [
    '(a+)+$',
    '(a*)*',
    '(.*)*x',
    '(\\w+\\s?)*$',
    '(a|aa)*',
    '(a|a?)+',
    '((ab)*c)+',
    '(x+x+)+y',
    '([a-z]+)*$',
    '(?:a+){2,}',
  ]
  for (const p of unsafe) t.throws(() => compileTestRegex(p), /could run away/, p)
  const invalid = ['(?=a)', '(a)\\1', '(unclosed', '[z-a]']
  for (const p of invalid) t.throws(() => compileTestRegex(p), /is not valid/, p)
  const safe = [
    '^ord[a-z]+$',
    '(ab|cd)+',
    '(foo)?bar',
    '\\d{3}-\\d{4}',
    '(a+)?b',
    '[(]+a',
    '\\(a+\\)+',
    '^.*a.*b.*c$',
    '(?i)hive',
  ]
  for (const p of safe) t.doesNotThrow(() => compileTestRegex(p), p)
  const slow = compileTestRegex('^.*a.*b.*c$')
  const started = Date.now()
  t.equal(slow.matcher('ab'.repeat(20_000)).find(), false)
  t.ok(Date.now() - started < 2000, 'a polynomial pattern stays fast on RE2')
})
