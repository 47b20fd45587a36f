import { Writable } from 'node:stream'
import pino from 'pino'
import t from 'tap'
import { createServer } from './create-server.js'
import { installMetrics } from './metrics.js'

/** A pino logger writing its lines into an array, and a count of the children it made. */
function capture(level = 'info') {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  const log = pino({ level }, stream)
  let children = 0
  const child = log.child.bind(log)
  log.child = ((...args: Parameters<typeof child>) => {
    children++
    return child(...args)
  }) as typeof log.child
  return { log, lines, children: () => children }
}

t.test('request loggers: made only when a request logs, every line with its request id', async (t) => {
  const { log, lines, children } = capture()
  const app = createServer({ logger: log })
  app.get('/quiet', async () => ({ ok: true }))
  app.get('/chatty', async (request) => {
    request.log.debug('left out at info level')
    request.log.info({ step: 1 }, 'working')
    request.log.warn('careful')
    return { ok: true }
  })
  app.get('/broken', async () => {
    throw new Error('boom')
  })
  t.teardown(() => app.close())
  await app.ready()
  const before = children()

  const quiet = await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-request-id': 'q-1' } })
  t.equal(quiet.headers['x-request-id'], 'q-1')
  t.equal(children() - before, 0, 'a request that logs nothing makes no child logger')

  await app.inject({ method: 'GET', url: '/chatty', headers: { 'x-request-id': 'c-1' } })
  t.same(
    lines.filter((l) => l.reqId === 'c-1').map((l) => [l.level, l.msg, l.step]),
    [
      [30, 'working', 1],
      [40, 'careful', undefined],
    ],
    'the lines logged, each with the request id',
  )
  t.equal(children() - before, 1, 'one child for the request that logged')

  const broken = await app.inject({ method: 'GET', url: '/broken', headers: { 'x-request-id': 'b-1' } })
  t.equal(broken.statusCode, 500)
  t.match(
    lines.find((l) => l.reqId === 'b-1'),
    { level: 50, msg: 'request failed', err: { message: 'boom' } },
    'a failure is logged with the request id',
  )
})

t.test('request logging at debug level: one line per request with its id', async (t) => {
  const { log, lines } = capture('debug')
  const app = createServer({ logger: log })
  app.get('/quiet', async () => ({ ok: true }))
  t.teardown(() => app.close())
  await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-request-id': 'd-1' } })
  t.match(
    lines.find((l) => l.reqId === 'd-1'),
    { level: 20, msg: 'request', url: '/quiet', status: 200 },
  )
})

t.test('request metrics: one series per route, action, method and status, counted exactly', async (t) => {
  const app = createServer()
  const registry = installMetrics(app, 'test')
  app.get('/things/*', async () => ({ ok: true }))
  app.post('/things', async (request) => {
    if ((request.query as { action?: string }).action === 'fail') throw new Error('no')
    return { ok: true }
  })
  t.teardown(() => app.close())
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: `/things/${i}` })
  for (let i = 0; i < 2; i++) await app.inject({ method: 'POST', url: '/things?action=fail', payload: {} })
  await app.inject({ method: 'POST', url: '/things?action=go', payload: {} })
  const text = await registry.metrics()
  const count = (labels: string) =>
    new RegExp(`catalog_http_request_duration_seconds_count\\{service="test",${labels}\\} (\\d+)`).exec(
      text,
    )?.[1]
  t.equal(count('route="/things/\\*",action="",method="GET",status="200"'), '3')
  t.equal(count('route="/things",action="fail",method="POST",status="500"'), '2')
  t.equal(count('route="/things",action="go",method="POST",status="200"'), '1')
})
