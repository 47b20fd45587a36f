import t from 'tap'
import { createServer } from './create-server.js'

t.test('a body read as bytes is not searched for parameters that are not finite numbers', async (t) => {
  const app = createServer({ admission: false })
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, new Float64Array(Uint8Array.from(body as Buffer).buffer)),
  )
  app.post('/bytes', async (req) => ({ length: (req.body as Float64Array).length }))
  app.post('/json', async () => ({ ok: true }))
  t.teardown(() => app.close())
  const bytes = await app.inject({
    method: 'POST',
    url: '/bytes',
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(new Float64Array([Number.NaN, 1]).buffer),
  })
  t.same([bytes.statusCode, bytes.json()], [200, { length: 2 }], 'its NaN is data, not a parameter')
  const json = await app.inject({
    method: 'POST',
    url: '/json',
    payload: '{"count": 1e400}',
    headers: { 'content-type': 'application/json' },
  })
  t.equal(json.statusCode, 400, 'a JSON parameter that is not finite is still refused')
  t.match(json.json().message, "Invalid parameter 'count': must be a finite number")
})
