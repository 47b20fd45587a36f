/**
 * Client errors and failed tasks become domain errors, the original kept as `cause`.
 */
import { InvalidInputError, NotFoundError, OverloadedError, statusOf, UnavailableError } from '@catalog/core'
import {
  MeilisearchApiError,
  MeilisearchRequestError,
  MeilisearchRequestTimeOutError,
  MeilisearchTaskTimeOutError,
} from 'meilisearch'
import t from 'tap'
import { taskError, translateError } from './errors.js'

const api = (status: number, code: string, type: string) =>
  new MeilisearchApiError(new Response(null, { status }), {
    message: `message of ${code}`,
    code,
    type,
    link: `https://docs.meilisearch.com/errors#${code}`,
  })

t.test('API errors', async (t) => {
  const filter = api(400, 'invalid_search_filter', 'invalid_request')
  const e = translateError(filter, 'search')
  t.type(e, InvalidInputError)
  t.equal(statusOf(e), 400)
  t.equal(e.cause, filter, 'the client error is the cause')
  t.match(e.message, /search.*message of invalid_search_filter.*\[invalid_search_filter\]/)
  t.type(translateError(api(400, 'invalid_search_sort', 'invalid_request'), 'search'), InvalidInputError)
  for (const [status, code, type] of [
    [401, 'missing_authorization_header', 'auth'],
    [403, 'invalid_api_key', 'auth'],
  ] as const) {
    const err = translateError(api(status, code, type), 'search')
    t.type(err, UnavailableError, code)
    t.match(err.message, /MEILI_KEY/)
  }
  t.type(translateError(api(404, 'index_not_found', 'invalid_request'), 'search'), UnavailableError)
  t.type(translateError(api(500, 'internal', 'internal'), 'write documents'), UnavailableError)
  t.type(translateError(api(422, 'no_space_left_on_device', 'system'), 'write'), UnavailableError)
  const busy = translateError(api(429, 'too_many_search_requests', 'system'), 'search')
  t.type(busy, OverloadedError)
  t.equal(statusOf(busy), 429)
  t.ok(busy.cause instanceof MeilisearchApiError)
})

t.test('network errors and timeouts', async (t) => {
  const refused = new MeilisearchRequestError(
    'http://localhost:1/indexes',
    new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') }),
  )
  const e = translateError(refused, 'search')
  t.type(e, UnavailableError)
  t.match(e.message, /unreachable.*ECONNREFUSED/)
  t.equal(e.cause, refused)
  const slow = translateError(new MeilisearchRequestTimeOutError(30_000, {}), 'search')
  t.type(slow, UnavailableError)
  t.match(slow.message, /30000 ms/)
  const task = translateError(new MeilisearchTaskTimeOutError(42, 5000), 'write documents')
  t.type(task, UnavailableError)
  t.match(task.message, /task 42/)
})

t.test('failed tasks', async (t) => {
  const failed = taskError(
    {
      uid: 7,
      status: 'failed',
      error: { message: 'too big', code: 'payload_too_large', type: 'invalid_request', link: '' },
    },
    'write documents',
  )
  t.type(failed, UnavailableError, 'a rejected write is not the caller’s input')
  t.match(failed.message, /task 7.*too big/)
  t.type(
    taskError(
      {
        uid: 8,
        status: 'failed',
        error: { message: 'bad', code: 'invalid_document_filter', type: 'invalid_request', link: '' },
      },
      'clear',
    ),
    InvalidInputError,
  )
  t.type(taskError({ uid: 9, status: 'canceled', error: null }, 'write'), UnavailableError)
})

t.test('domain errors and other errors pass through', async (t) => {
  const nf = new NotFoundError('x')
  t.equal(translateError(nf, 'read'), nf)
  const bug = new TypeError('bug')
  t.equal(translateError(bug, 'read'), bug)
  t.type(translateError('text', 'read'), Error)
})
