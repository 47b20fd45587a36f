/**
 * For run-shutdown.long-test.ts: a server whose backends cannot close, because their worker
 * thread is inside one native call that runs for 30 s (as a long SQLite statement would: an index
 * build, the checkpoint of a large WAL). `node --import tsx <this file> <deadline ms> [fallback]`:
 * shutdown armed with that deadline; logs `ready` once listening. With `fallback`, the process
 * instead ends at once through exitNow with an `_exit` that cannot be loaded, right after logging
 * `ready` and `ending` (pino holds such lines until its exit listener writes them).
 */
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import pino from 'pino'
import { createServer } from './create-server.js'
import { exitNow } from './exit-now.js'
import { installShutdown } from './run.js'

const log = pino({ base: { app: 'stuck-worker' } })
// The call waits without using the CPU (a child process's 30 s sleep): what matters is that it
// is one native call, which worker termination cannot interrupt.
const worker = new Worker(
  "require('node:worker_threads').parentPort.postMessage('busy'); require('node:child_process').execFileSync('sleep', ['30'])",
  { eval: true },
)
await once(worker, 'message')

if (process.argv[3] === 'fallback') {
  log.info('ready')
  log.info('ending')
  exitNow(3, () => {
    throw new Error('no _exit here')
  })
}

const app = createServer({ logger: log })
const shutdown = installShutdown(app, log, { deadlineMs: Number(process.argv[2]) })
await app.listen({ port: 0, host: '127.0.0.1' })
// Closing the backends waits for their worker, which cannot stop before its call returns.
shutdown.arm(async () => {
  await worker.terminate()
})
log.info('ready')
