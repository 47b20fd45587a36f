import { existsSync, readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import t from 'tap'
import { WORKER_NICENESS } from './thread-priority.js'

/** The calling thread's niceness (field 19 of its /proc stat line). */
const NICENESS_OF_THREAD = `
  const { readFileSync } = require('node:fs')
  const niceness = () => Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ')[16])
`

t.test(
  'a worker thread lowers its own priority, not the event loop’s',
  { skip: !existsSync('/proc/thread-self') && 'no /proc/thread-self (not Linux)' },
  async (t) => {
    const module = new URL('./thread-priority.ts', import.meta.url).href
    const worker = new Worker(
      `${NICENESS_OF_THREAD}
    const { parentPort } = require('node:worker_threads')
    import('tsx/esm/api').then(({ register }) => {
      register()
      return import(${JSON.stringify(module)})
    }).then(({ lowerThreadPriority }) => {
      const before = niceness()
      const lowered = lowerThreadPriority()
      parentPort.postMessage({ before, lowered, after: niceness() })
    })`,
      { eval: true },
    )
    const seen = await new Promise<{ before: number; lowered: boolean; after: number }>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    await worker.terminate()
    const mine = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ')[16])
    t.equal(seen.lowered, true)
    t.equal(
      seen.after,
      Math.min(19, seen.before + WORKER_NICENESS),
      `the worker runs at niceness ${seen.after}`,
    )
    t.equal(mine, seen.before, 'the event loop’s thread keeps its niceness')
  },
)
