import { getHeapStatistics, serialize } from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority, Registry, toWireError } from '@catalog/core'
import { DocumentDeriver, SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '../sqlite-search-index.js'
import { applyLogText, applyStoreLog } from './log-applier.js'
import { HITS_PER_CHUNK, type WorkerCall, type WorkerInit, type WorkerReply } from './protocol.js'
import { StoreChangeLog } from './store-change-log.js'

/**
 * The search index's own thread: one {@link SqliteSearchIndex} that applies changes and answers
 * queries one at a time, so a heavy query never holds the server's event loop.
 */
const port = parentPort
if (!port) throw new Error('search-worker runs as a worker thread')
const post = (reply: WorkerReply) => port.postMessage(reply)
const init = workerData as WorkerInit
// The event loop answering requests comes first when the CPU is short.
if (init.lowerPriority !== false) lowerThreadPriority()
/** CPU a step of the warm-up takes at most, ms (a query that comes meanwhile waits that long). */
const WARM_STEP_MS = 5

let index: SqliteSearchIndex | undefined
let deriver: DocumentDeriver | undefined
/** The store's change log on this thread's read-only connection, opened at the first `applyStoreLog`. */
let storeLog: StoreChangeLog | undefined
try {
  const schema = new SearchSchema(new Registry())
  // Change-log entries sent as text (`applyLog`) are parsed and derived here, off the event loop.
  deriver = new DocumentDeriver(schema)
  index = new SqliteSearchIndex({
    file: init.file,
    schema,
    ...(init.cacheMb ? { cacheMb: init.cacheMb } : {}),
  })
  post({ ready: true })
  if (init.warmup !== false) setImmediate(warmStep)
} catch (err) {
  post({ ready: false, error: toWireError(err) })
}

/**
 * One step of loading the query caches, then the next, each after the messages that came
 * meanwhile (a query waits for one step at most; one that needs a cache before the end
 * finishes its load). A failed step leaves the rest to the queries.
 */
function warmStep(): void {
  try {
    if (!index) return
    if (index.warmStep(WARM_STEP_MS)) post({ warmed: true })
    else setImmediate(warmStep)
  } catch {
    // The index closed or failed: queries load what they need, as without warming.
  }
}

port.on('message', async (call: WorkerCall) => {
  try {
    const value = await run(call)
    const hits = call.op === 'search' ? (value as { hits?: unknown[] }).hits : undefined
    if (hits && hits.length > HITS_PER_CHUNK) {
      const hitChunks: Uint8Array[] = []
      for (let at = 0; at < hits.length; at += HITS_PER_CHUNK)
        hitChunks.push(serialize(hits.slice(at, at + HITS_PER_CHUNK)))
      const reply: WorkerReply = {
        id: call.id,
        ok: true,
        value: { ...(value as object), hits: [] },
        hitChunks,
      }
      port.postMessage(
        reply,
        hitChunks.map((chunk) => chunk.buffer as ArrayBuffer),
      )
    } else post({ id: call.id, ok: true, value })
    if (call.op === 'close') {
      storeLog?.close()
      port.close()
    }
  } catch (err) {
    post({ id: call.id, ok: false, error: toWireError(err) })
  }
})

/** Runs a call: the worker's own operations by name, the others as the index's methods. */
async function run(call: WorkerCall): Promise<unknown> {
  if (!index || !deriver) throw new Error('the search index did not open')
  switch (call.op) {
    case 'applyLog':
      return applyLogText(index, deriver, call.args[0] as string)
    case 'applyStoreLog':
      return applyStoreLog(index, deriver, storeLogOf(call.args[0] as string), call.args[1] as number)
    case 'cacheState':
      return index.cacheState()
    case 'heapStatistics':
      return getHeapStatistics()
    default:
      return (index[call.op] as (...args: unknown[]) => Promise<unknown>).apply(index, [...call.args])
  }
}

/** The change log of the store at `file`, on a connection opened once (and again for another file). */
function storeLogOf(file: string): StoreChangeLog {
  if (storeLog?.file !== file) {
    storeLog?.close()
    // Unset first: a file that does not open leaves no closed connection behind.
    storeLog = undefined
    storeLog = new StoreChangeLog(file)
  }
  return storeLog
}
