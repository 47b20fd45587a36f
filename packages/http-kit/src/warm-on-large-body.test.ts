import { loadConfig } from '@catalog/config'
import Fastify from 'fastify'
import t from 'tap'
import { createServer } from './create-server.js'
import { jsonBodyWorkerRunning, THREAD_BODY_BYTES } from './json-body-parser.js'
import { runServer } from './run.js'
import { warmOnLargeBody } from './warm-on-large-body.js'

t.test('warm runs before the body is read when a route with a body announces a large one', async (t) => {
  const app = createServer({ admission: false })
  const warmed: string[] = []
  warmOnLargeBody(app, 1000, () => warmed.push('warm'))
  app.post('/write', async (request) => {
    warmed.push(`handler ${(request.body as string).length}`)
    return {}
  })
  app.get('/read', async () => {
    warmed.push('read')
    return {}
  })
  await app.ready()
  t.teardown(() => app.close())
  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/write', headers: { 'content-type': 'text/plain' }, payload })
  t.equal((await post('x'.repeat(999))).statusCode, 200)
  t.same(warmed, ['handler 999'], 'a body under the size: not warmed')
  warmed.length = 0
  t.equal((await post('x'.repeat(1000))).statusCode, 200)
  t.same(warmed, ['warm', 'handler 1000'], 'a body of the size: warmed first')
  warmed.length = 0
  await app.inject({ method: 'GET', url: '/read', headers: { 'content-length': '5000' } })
  t.same(warmed, ['read'], 'routes without a body are not hooked')
})

t.test('the JSON body worker starts at the first large body, not with the server', async (t) => {
  const config = loadConfig({ CATALOG_LOG_LEVEL: 'warn', HOST: '127.0.0.1', CATALOG_AUTH: 'off' })
  const app = await runServer(config, {
    name: 'echo',
    port: 0,
    build: async (app) => {
      app.post('/echo', async (request) => ({ n: (request.body as { s: string }).s.length }))
      return async () => {}
    },
  })
  t.teardown(() => app.close())
  t.equal(jsonBodyWorkerRunning(), false, 'not started with the server')
  const small = await app.inject({ method: 'POST', url: '/echo', payload: { s: 'x' } })
  t.equal(small.json().n, 1)
  t.equal(jsonBodyWorkerRunning(), false, 'a small body is parsed on the event loop')
  const big = await app.inject({
    method: 'POST',
    url: '/echo',
    payload: { s: 'x'.repeat(THREAD_BODY_BYTES) },
  })
  t.equal(big.json().n, THREAD_BODY_BYTES)
  t.equal(jsonBodyWorkerRunning(), true, 'a large body starts it')
})

t.test('on a server not made by createServer, routes get a hook of their own', async (t) => {
  const app = Fastify()
  const warmed: string[] = []
  warmOnLargeBody(app, 1000, () => warmed.push('warm'))
  app.post('/write', async (request) => {
    warmed.push(`handler ${(request.body as string).length}`)
    return {}
  })
  await app.ready()
  t.teardown(() => app.close())
  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/write', headers: { 'content-type': 'text/plain' }, payload })
  await post('x'.repeat(999))
  await post('x'.repeat(1000))
  t.same(warmed, ['handler 999', 'warm', 'handler 1000'])
})

t.test('a route warms only at its own size, whatever other routes ask', async (t) => {
  const app = createServer({ admission: false })
  const warmed: string[] = []
  app.register(async (scope) => {
    warmOnLargeBody(scope, 10, () => warmed.push('small'))
    scope.post('/small', async () => ({}))
  })
  warmOnLargeBody(app, 2000, () => warmed.push('large'))
  app.post('/large', async () => ({}))
  await app.ready()
  t.teardown(() => app.close())
  const post = (url: string, n: number) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'x'.repeat(n) })
  await post('/large', 100)
  t.same(warmed, [], 'a body over the other route’s size')
  await post('/small', 100)
  t.same(warmed, ['small'])
  await post('/large', 2000)
  t.same(warmed, ['small', 'large'])
})
