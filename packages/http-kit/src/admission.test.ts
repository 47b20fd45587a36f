import type { AddressInfo } from 'node:net'
import t from 'tap'
import { createServer } from './create-server.js'
import { healthRoutes } from './health.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // hold the event loop, as a long synchronous write would
  }
}

t.test('writes over the in-flight limit get 429 with Retry-After at once; /health stays open', async (t) => {
  const app = createServer({ admission: { maxInFlightWrites: 2, maxEventLoopDelayMs: 0 } })
  const gates: Array<() => void> = []
  app.post('/slow', async () => {
    await new Promise<void>((resolve) => gates.push(resolve))
    return { ok: true }
  })
  app.get('/read', async () => ({ ok: true }))
  await app.register(healthRoutes, {})
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const post = () =>
    fetch(`${base}/slow`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })

  const first = [post(), post()]
  while (gates.length < 2) await sleep(5)
  const began = performance.now()
  const refused = await post()
  t.equal(refused.status, 429)
  t.ok(performance.now() - began < 500, 'refused at once, not queued')
  t.equal(refused.headers.get('retry-after'), '1')
  t.same(await refused.json(), {
    exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
    message: 'too many writes in flight (limit 2); retry after 1 s',
    status: 429,
  })
  t.equal((await fetch(`${base}/health`)).status, 200, '/health is exempt')
  t.equal((await fetch(`${base}/read`)).status, 200, 'reads do not count as writes')

  for (const open of gates.splice(0)) open()
  for (const res of await Promise.all(first)) t.equal(res.status, 200)
  await sleep(20)
  const again = post()
  while (gates.length < 1) await sleep(5)
  for (const open of gates.splice(0)) open()
  t.equal((await again).status, 200, 'finished writes free their slots')
})

t.test('a lagging event loop sheds new requests but never /health', async (t) => {
  const app = createServer({ admission: { maxEventLoopDelayMs: 300 } })
  app.get('/read', async () => ({ ok: true }))
  await app.register(healthRoutes, {})
  await app.ready()
  t.teardown(() => app.close())
  busy(600)
  await sleep(1)
  t.equal((await app.inject({ url: '/read' })).statusCode, 200, 'one long turn is not overload')
  busy(600)
  await sleep(1)
  const shed = await app.inject({ url: '/read' })
  t.equal(shed.statusCode, 429, 'a loop that lags sample after sample is')
  t.match(shed.json().message, /event loop delay \d+ ms/)
  t.equal((await app.inject({ url: '/health' })).statusCode, 200)
  await sleep(200)
  t.equal((await app.inject({ url: '/read' })).statusCode, 200, 'served again once the loop catches up')
})
