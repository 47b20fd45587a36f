import { SEARCH_LIMITS } from '@catalog/search'
import t from 'tap'
import { build, ingestExamples, postJson } from '../helpers/build.js'

/**
 * Search inputs that once held the server for seconds or answered 500: each is refused with a
 * 400 naming the limit before any work starts, and the catalog keeps answering.
 */
t.test('oversized searches get 400 naming the limit, and the server stays healthy', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i % 10}`).join(' ')
  const search = (body: Record<string, unknown>) =>
    postJson(app, '/entities?action=search', { entity: 'dataset', start: 0, count: 10, ...body })
  const criterion = { field: 'platform', values: ['urn:li:dataPlatform:hive'] }

  const cases: Array<[string, () => ReturnType<typeof postJson>, RegExp]> = [
    ['300 words', () => search({ input: words(300) }), /terms in the search query .*: 300, the limit is 32/],
    ['1,000 words', () => search({ input: words(1000) }), /characters in the search query: 2999/],
    ['a 1 MB query', () => search({ input: 'a'.repeat(1 << 20) }), /characters in the search query/],
    [
      "'abcdefghij ' x 10,000",
      () => search({ input: 'abcdefghij '.repeat(10_000) }),
      /characters in the search query/,
    ],
    ['100 quoted phrases', () => search({ input: '"a b" '.repeat(100) }), /terms in the search query/],
    [
      'parentheses 400 deep',
      () => search({ input: `${'('.repeat(400)}x${')'.repeat(400)}` }),
      /nested groups and operators in the search query/,
    ],
    ['NOT x 200', () => search({ input: `${'NOT '.repeat(200)}x` }), /nested groups and operators/],
    ['- x 900', () => search({ input: `${'-'.repeat(900)}x` }), /nested groups and operators/],
    [
      '5,000 filter groups',
      () =>
        search({ input: '*', filter: { or: Array.from({ length: 5000 }, () => ({ and: [criterion] })) } }),
      /filter groups: 5000, the limit is 64/,
    ],
    [
      '5,000 criteria',
      () => search({ input: '*', filter: { or: [{ and: Array.from({ length: 5000 }, () => criterion) }] } }),
      /filter criteria/,
    ],
    [
      '200,000 values',
      () =>
        search({
          input: '*',
          filter: { or: [{ and: [{ field: 'platform', values: Array.from({ length: 200_000 }, String) }] }] },
        }),
      /values in one filter criterion: 200000/,
    ],
    [
      'values spread over criteria',
      () =>
        search({
          input: '*',
          filter: {
            or: Array.from({ length: 8 }, () => ({
              and: [{ field: 'platform', values: Array.from({ length: 1000 }, String) }],
            })),
          },
        }),
      /filter values: 8000, the limit is 4096/,
    ],
    [
      'autocomplete of 100 words',
      () =>
        postJson(app, '/entities?action=autocomplete', { query: words(100), entity: 'dataset', limit: 5 }),
      /words in the autocomplete query/,
    ],
  ]
  for (const [name, send, message] of cases) {
    const { status, body } = await send()
    t.equal(status, 400, `${name}: 400`)
    t.match(body.message, message, `${name}: the message names the limit`)
    const health = await app.inject({ method: 'GET', url: '/health' })
    t.equal(health.statusCode, 200, `${name}: still healthy`)
  }

  t.test('the largest allowed query still answers', async (t) => {
    const { status, body } = await search({ input: words(SEARCH_LIMITS.maxQueryTerms) })
    t.equal(status, 200)
    t.equal(body.value.numEntities, 0)
    const sample = await search({ input: `sample ${words(SEARCH_LIMITS.maxQueryTerms - 1)}` })
    t.equal(sample.status, 200)
  })
})
