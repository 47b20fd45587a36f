import { parentPort, workerData } from 'node:worker_threads'
import { CatalogError, lowerThreadPriority, toWireError, UnavailableError } from '@catalog/core'
import Database from 'better-sqlite3'
import {
  batchFromWire,
  type CheckpointResult,
  outcomeToWire,
  type WriterCall,
  type WriterReply,
} from './sqlite-write-wire.js'
import { SqliteWriter } from './sqlite-writer.js'

/**
 * The writer thread: its own connection to the store's file, applying the batches the event
 * loop sends one at a time, each in its own transaction. The commit writes the WAL without
 * syncing it (as the event loop's connection does); the event loop syncs it before it
 * acknowledges the write. It also runs the store's WAL checkpoints, which the event loop's
 * connection leaves to it (see `WalCheckpointer`); a checkpoint syncs the WAL and then the
 * database file (synchronous NORMAL), so what it copies back stays durable.
 */
// The event loop answering requests comes first when the CPU is short.
lowerThreadPriority()
const port = parentPort
if (!port) throw new Error('sqlite-write-worker runs as a worker thread')
const post = (reply: WriterReply) => port.postMessage(reply)
const { file } = workerData as { file: string }

let db: Database.Database | undefined
let writer: SqliteWriter | undefined
let latest: Database.Statement | undefined
try {
  db = new Database(file, { fileMustExist: true })
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  // 4 MB of page cache, where the event loop's connection keeps 16 MB for its cold reads: this
  // connection only writes large batches, reads a large aspect's latest value now and then and
  // checkpoints, and what it wrote is in the WAL and the OS's cache. After the ingest benchmark's
  // 1,000,000 aspects the catalog held 306-316 MB (median 312) against 316-324 MB (median 319)
  // at 16 MB, at 176-219 against 163-205 CPU-µs per aspect, within the runs' noise
  // (bench/ingest-rss.ts, 4 alternated pairs, load 3-8).
  db.pragma('cache_size = -4000')
  writer = new SqliteWriter(db)
  latest = db
    .prepare(
      'SELECT CAST(a.metadata AS BLOB) FROM urns u CROSS JOIN aspect_rows a ON a.eid = u.id WHERE u.urn = ? AND a.aspect = ? AND a.version = 0',
    )
    .pluck()
  post({ ready: true })
} catch (err) {
  db?.close()
  post({ ready: false, error: toWireError(err) })
  port.close()
}

port.on('message', (call: WriterCall) => {
  if ('close' in call) {
    db?.close()
    port.close()
    return
  }
  if (!writer || !db) return
  try {
    if ('read' in call) {
      // Copied to shared memory here, so that the event loop gets the bytes without a copy.
      const values = call.read.map((k) => {
        const bytes = latest?.get(k.urn, k.aspect) as Buffer | undefined
        if (bytes === undefined) return null
        const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
        shared.set(bytes)
        return shared
      })
      post({ id: call.id, ok: true, values })
      return
    }
    if ('checkpoint' in call) {
      // PASSIVE: copies what no reader still needs, never waits for readers nor blocks writers.
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[]
      post({ id: call.id, ok: true, checkpoint: result ?? { busy: 1, log: -1, checkpointed: -1 } })
      return
    }
    post({ id: call.id, ok: true, outcome: outcomeToWire(writer.applyOne(batchFromWire(call.batch))) })
  } catch (err) {
    // A refused write keeps its domain error; anything else is the commit failing.
    const failure =
      err instanceof CatalogError
        ? err
        : new UnavailableError(`metadata store commit failed: ${(err as Error).message}`)
    post({ id: call.id, ok: false, error: toWireError(failure) })
  }
})
