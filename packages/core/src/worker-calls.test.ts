import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { WorkerCalls } from './worker-calls.js'

/** A worker that answers each call with its id, its thread id and its `n` doubled. */
const ECHO = `import { parentPort, threadId } from 'node:worker_threads'
parentPort.on('message', (call) => parentPort.postMessage({ id: call.id, thread: threadId, n: call.n * 2 }))
`

interface Call {
  readonly id: number
  readonly n: number
}
interface Reply {
  readonly id: number
  readonly thread: number
  readonly n: number
}

/** A worker that answers each call with its V8 young generation limit, in MB. */
const LIMITS = `import { parentPort, resourceLimits } from 'node:worker_threads'
parentPort.on('message', (call) => parentPort.postMessage({ id: call.id, young: resourceLimits.maxYoungGenerationSizeMb }))
`

const dir = mkdtempSync(join(tmpdir(), 'worker-calls-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const url = pathToFileURL(join(dir, 'echo-worker.mjs'))
writeFileSync(url, ECHO)

t.test('a worker is started at the first call, not before', async (t) => {
  const calls = new WorkerCalls<Call, Reply>(url, 'the echo worker stopped')
  t.equal(calls.running, false)
  t.equal((await calls.call({ n: 21 })).n, 42)
  t.equal(calls.running, true)
})

t.test('with idleMs, an idle worker stops and the next call starts another', async (t) => {
  const calls = new WorkerCalls<Call, Reply>(url, 'the echo worker stopped', 150)
  const first = await calls.call({ n: 1 })
  await sleep(60)
  const again = await calls.call({ n: 2 })
  t.equal(again.thread, first.thread, 'a call within idleMs goes to the same worker')
  await sleep(60)
  t.equal(calls.running, true, 'the wait restarts at each call')
  const stopping = Date.now()
  while (calls.running && Date.now() - stopping < 2000) await sleep(2)
  t.equal(calls.running, false, 'stopped after idleMs without a call')
  // Sent while the stopped worker may still be exiting: its exit must not fail them.
  const next = await Promise.all([calls.call({ n: 3 }), calls.call({ n: 4 })])
  t.same(
    next.map((r) => r.n),
    [6, 8],
    'the next calls are answered',
  )
  t.not(next[0]?.thread, first.thread, 'by a new worker')
})

t.test('warm starts an idle worker that stops after idleMs too', async (t) => {
  const calls = new WorkerCalls<Call, Reply>(url, 'the echo worker stopped', 100)
  calls.warm()
  t.equal(calls.running, true)
  await sleep(250)
  t.equal(calls.running, false)
})

t.test('the worker is started with the resource limits given', async (t) => {
  const limitsUrl = pathToFileURL(join(dir, 'limits-worker.mjs'))
  writeFileSync(limitsUrl, LIMITS)
  const calls = new WorkerCalls<{ readonly id: number }, { readonly id: number; readonly young: number }>(
    limitsUrl,
    'the limits worker stopped',
    100,
    { maxYoungGenerationSizeMb: 8 },
  )
  t.equal((await calls.call({})).young, 8)
})
