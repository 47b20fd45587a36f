import http from 'node:http'
import t from 'tap'
import { startApp } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * SIGTERM during a stream of writes over keep-alive connections, with an idle keep-alive client
 * connected: the process exits well within the 10 s deadline, every request it received is
 * answered (no connection reset), and every acknowledged write is there after a restart.
 */

interface Outcome {
  status?: number
  error?: string
}

function post(agent: http.Agent, url: string, body: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body)
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }))
      },
    )
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
    req.end(payload)
  })
}

function get(agent: http.Agent, url: string): Promise<Outcome & { body?: string }> {
  return new Promise((resolve) => {
    http
      .get(url, { agent }, (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      .on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
  })
}

const urnOf = (writer: number, i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,shutdown.w${writer}_${i},PROD)`

t.test(
  'SIGTERM drains, closes keep-alive connections and exits fast; acknowledged writes stay',
  async (t) => {
    const dir = tempDir(t, 'catalog-shutdown-')
    const env = { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' }
    const app = await startApp('apps/gateway/src/all-in-one.ts', env)
    t.teardown(() => app.stop())

    const idle = new http.Agent({ keepAlive: true })
    t.equal((await get(idle, `${app.url}/health`)).status, 200, 'an idle keep-alive client is connected')

    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
    const acknowledged: string[] = []
    const outcomes = new Map<string, number>()
    let stopWriting = false
    const writer = async (w: number) => {
      for (let i = 0; !stopWriting; i++) {
        const urn = urnOf(w, i)
        const res = await post(agent, `${app.url}/aspects?action=ingestProposal`, {
          proposal: {
            entityType: 'dataset',
            entityUrn: urn,
            changeType: 'UPSERT',
            aspectName: 'status',
            aspect: { value: '{"removed":false}', contentType: 'application/json' },
          },
        })
        const key = res.error ?? String(res.status)
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
        if (res.status === 200) acknowledged.push(urn)
        if (res.error === 'ECONNREFUSED') return
      }
    }
    const writers = [0, 1, 2, 3].map(writer)
    await new Promise((r) => setTimeout(r, 1500))
    const signalled = Date.now()
    const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)))
    app.child.kill('SIGTERM')
    const code = await exited
    const took = Date.now() - signalled
    stopWriting = true
    await Promise.all(writers)
    idle.destroy()
    agent.destroy()

    t.equal(code, 0, 'a clean exit')
    t.ok(took < 5_000, `exited ${took} ms after SIGTERM (deadline 10 s)`)
    const cut = [...outcomes.entries()].filter(([k]) => k !== '200' && k !== '503' && k !== 'ECONNREFUSED')
    t.same(cut, [], `no request cut without an answer (${JSON.stringify(Object.fromEntries(outcomes))})`)
    t.ok(acknowledged.length > 20, `${acknowledged.length} writes acknowledged before the stop`)
    t.match(app.output(), /"msg":"stopped"/, 'logged its stop')

    const again = await startApp('apps/gateway/src/all-in-one.ts', env)
    t.teardown(() => again.stop())
    const reader = new http.Agent({ keepAlive: true })
    const missing: string[] = []
    for (const urn of acknowledged) {
      const res = await get(reader, `${again.url}/aspects/${encodeURIComponent(urn)}?aspect=status&version=0`)
      if (res.status !== 200) missing.push(urn)
    }
    reader.destroy()
    t.same(missing, [], `all ${acknowledged.length} acknowledged writes are durable`)
  },
)

t.test('a second signal exits at once', async (t) => {
  const dir = tempDir(t, 'catalog-shutdown-')
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'off',
  })
  t.teardown(() => app.stop())
  // A request that keeps the server busy: a connection that never finishes its body.
  const socket = http.request(`${app.url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '1000' },
  })
  socket.on('error', () => {})
  socket.write('{')
  await new Promise((r) => setTimeout(r, 200))
  const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)))
  const started = Date.now()
  app.child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 300))
  t.equal(app.child.exitCode, null, 'the first signal waits for the unfinished request')
  app.child.kill('SIGTERM')
  t.equal(await exited, 1, 'the second exits at once, non-zero')
  t.ok(Date.now() - started < 3_000)
  socket.destroy()
})
