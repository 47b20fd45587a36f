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
