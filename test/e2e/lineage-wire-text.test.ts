/**
 * `POST /relationships?action=getLineage` writes its answer with JSON.stringify, `GET /lineage`
 * with the response schema's serializer: the two texts of the same walk are the same bytes
 * (members in the same order, an optional `partialReason` last), partial answers included.
 */
import t from 'tap'
import { DELETED, KAFKA } from '../helpers/bootstrap-urns.js'
import { build, ingestExamples } from '../helpers/build.js'

t.test('getLineage answers the text the response schema writes', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const cases = [
    { urn: DELETED, direction: 'UPSTREAM' },
    { urn: DELETED, direction: 'UPSTREAM', maxHops: 10, start: 2, count: 3 },
    { urn: KAFKA, direction: 'DOWNSTREAM', maxHops: 3 },
    { urn: KAFKA, direction: 'UPSTREAM', maxHops: 2 },
  ]
  let partial = 0
  for (const body of cases) {
    const post = await app.inject({
      method: 'POST',
      url: '/relationships?action=getLineage',
      payload: body,
    })
    const query = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]))
    const get = await app.inject({ method: 'GET', url: `/lineage?${query}` })
    t.equal(post.statusCode, 200)
    t.equal(post.headers['content-type'], 'application/json; charset=utf-8')
    t.equal(post.body, `{"value":${get.body}}`, JSON.stringify(body))
    if (JSON.parse(post.body).value.partialReason) partial++
  }
  t.ok(partial >= 2, `${partial} of the answers are partial`)
})
