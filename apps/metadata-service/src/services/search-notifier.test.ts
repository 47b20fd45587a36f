import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import t, { type Test } from 'tap'
import { searchNotifier } from './search-notifier.js'

/** A fake search service on loopback: `hang` leaves sync requests unanswered. */
async function fakeSearch(t: Test) {
  const state = { hang: true, calls: 0 }
  const server: Server = createServer((_req, res) => {
    state.calls++
    if (!state.hang) res.end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function capturedLog() {
  const lines: Array<{ level: number; msg: string; err?: unknown }> = []
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  return { log, lines }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('a hanging search service costs one timeout, then writes stop waiting until it answers', async (t) => {
  const { state, url } = await fakeSearch(t)
  const { log, lines } = capturedLog()
  const notify = searchNotifier(url, { timeoutMs: 300, probeIntervalMs: 100, log })

  let began = performance.now()
  await notify(1)
  t.ok(performance.now() - began >= 250, 'the first write waits for the timeout')

  began = performance.now()
  for (let seq = 2; seq < 22; seq++) await notify(seq)
  t.ok(performance.now() - began < 200, '20 writes during the outage do not wait')
  const warnings = lines.filter((l) => l.level === 40)
  t.equal(warnings.length, 1, 'one warning for the outage')
  t.notOk(warnings[0]?.err, 'no stack trace logged')

  state.hang = false
  await sleep(450)
  await notify(22) // starts a probe, which finds search answering
  await sleep(100)
  const before = state.calls
  await notify(23)
  t.equal(state.calls, before + 1, 'after recovery, a write asks search to index again')
  t.ok(
    lines.some((l) => /answers again/.test(l.msg)),
    'recovery is logged once',
  )
})

t.test(
  'a search service that is down (connection refused) gets one warning, not one per write',
  async (t) => {
    const { log, lines } = capturedLog()
    const notify = searchNotifier('http://127.0.0.1:9', { timeoutMs: 300, probeIntervalMs: 10_000, log })
    for (let seq = 1; seq <= 50; seq++) await notify(seq)
    t.equal(lines.filter((l) => l.level === 40).length, 1)
  },
)

t.test('concurrent writes share sync requests, and each waits for one sent after it', async (t) => {
  const requests: Array<{ arrived: number; answered: number }> = []
  const server: Server = createServer((_req, res) => {
    const request = { arrived: performance.now(), answered: Number.POSITIVE_INFINITY }
    requests.push(request)
    setTimeout(() => {
      request.answered = performance.now()
      res.end('{}')
    }, 30)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  const notify = searchNotifier(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  const writes: Array<Promise<{ called: number; done: number }>> = []
  const write = (seq: number) => {
    const called = performance.now()
    writes.push(notify(seq).then(() => ({ called, done: performance.now() })))
  }
  for (let seq = 1; seq <= 20; seq++) write(seq)
  await sleep(10)
  for (let seq = 21; seq <= 40; seq++) write(seq)
  const done = await Promise.all(writes)
  t.ok(requests.length <= 3, `40 concurrent writes sent ${requests.length} sync requests, not one each`)
  for (const [i, w] of done.entries()) {
    const covered = requests.some((r) => r.arrived >= w.called && r.answered <= w.done)
    if (!covered) t.fail(`write ${i + 1} returned before a sync request sent after it was answered`)
  }
  t.pass('every write waited for a request that reached search after it')

  const before = requests.length
  await notify(41)
  t.equal(requests.length, before + 1, 'a write alone sends its own request')
})

t.test('writes queued behind a request that times out do not wait for a second timeout', async (t) => {
  const { state, url } = await fakeSearch(t)
  const notify = searchNotifier(url, { timeoutMs: 300, probeIntervalMs: 10_000, log: capturedLog().log })
  const began = performance.now()
  const first = notify(1)
  await sleep(20)
  await Promise.all([first, notify(2), notify(3)])
  const took = performance.now() - began
  t.ok(took < 500, `the writes returned after ${Math.round(took)} ms, one timeout`)
  t.equal(state.calls, 1, 'no request is sent for the queued writes once search is out')
})
