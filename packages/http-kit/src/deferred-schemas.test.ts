import t from 'tap'
import { Type } from 'typebox'
import { createServer, warmRouteSchemas } from './create-server.js'

/** A server with the route shapes the catalog uses: a querystring, a body with defaults, a response schema. */
function server() {
  const app = createServer({ admission: false })
  app.post(
    '/items',
    {
      schema: {
        querystring: Type.Object({
          count: Type.Integer({ maximum: 100 }),
          tags: Type.Optional(Type.Array(Type.String())),
        }),
        body: Type.Object({ name: Type.String(), kind: Type.String({ default: 'table' }) }),
        response: {
          200: Type.Object({
            name: Type.String(),
            kind: Type.String(),
            count: Type.Integer(),
            tags: Type.Array(Type.String()),
          }),
        },
      },
    },
    async (request) => {
      const { name, kind } = request.body
      const { count, tags = [] } = request.query
      // Typed as what the handler may answer; the response schema drops the extra field.
      return { name, kind, count, tags, secret: 'left out by the response schema' } as {
        name: string
        kind: string
        count: number
        tags: string[]
      }
    },
  )
  app.get('/other', { schema: { querystring: Type.Object({ n: Type.Integer() }) } }, async () => ({
    ok: true,
  }))
  return app
}

t.test('schemas compiled at first use validate, coerce, default and serialize as at start', async (t) => {
  const app = server()
  await app.ready()
  t.teardown(() => app.close())
  const ok = await app.inject({ method: 'POST', url: '/items?count=5&tags=pii', payload: { name: 'orders' } })
  t.equal(ok.statusCode, 200)
  t.same(
    ok.json(),
    { name: 'orders', kind: 'table', count: 5, tags: ['pii'] },
    'coerced, defaulted, and the response schema applied',
  )
  const missing = await app.inject({ method: 'POST', url: '/items?count=5', payload: {} })
  t.equal(missing.statusCode, 400)
  t.match(missing.json().message, /Parameter 'name' is required/)
  const tooMany = await app.inject({ method: 'POST', url: '/items?count=500', payload: { name: 'x' } })
  t.equal(tooMany.statusCode, 400)
  t.match(tooMany.json().message, /Invalid query parameter 'count': must be <= 100/)
  const notNumber = await app.inject({ method: 'GET', url: '/other?n=abc' })
  t.equal(notNumber.statusCode, 400)
  t.match(notNumber.json().message, /Invalid query parameter 'n': must be integer/)
})

t.test('a warm-up compiles what no request compiled, once', async (t) => {
  const app = server()
  await app.ready()
  t.teardown(() => app.close())
  await app.inject({ method: 'GET', url: '/other?n=1' })
  const first = await warmRouteSchemas(app)
  // The POST route's querystring, body and response, and the querystring of the HEAD route
  // fastify adds beside GET /other (the GET's own was compiled by its request).
  t.same(first, { compiled: 4, failed: 0 })
  t.same(await warmRouteSchemas(app), { compiled: 0, failed: 0 }, 'nothing left')
})

t.test('a schema that cannot compile is reported by the warm-up and its route answers 500', async (t) => {
  const app = createServer({ admission: false })
  app.get(
    '/broken',
    { schema: { querystring: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } } },
    async () => ({}),
  )
  await app.ready()
  t.teardown(() => app.close())
  t.same(await warmRouteSchemas(app), { compiled: 0, failed: 2 }, 'the GET route and its HEAD twin')
  const res = await app.inject({ method: 'GET', url: '/broken?a=1' })
  t.equal(res.statusCode, 500)
})
