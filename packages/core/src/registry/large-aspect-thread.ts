import type { Worker } from 'node:worker_threads'
import { UnavailableError } from '../errors.js'
import { fromWireError } from '../wire-error.js'
import { startWorker } from '../worker-exec-argv.js'
import type { PrepareCall, PrepareReply } from './large-aspect-protocol.js'

/**
 * Aspect JSON text at least this long is validated by the large-aspect worker; shorter text on
 * the event loop, where it costs less than the hop (a 256 KB schema validates in ~15 ms).
 */
export const LARGE_ASPECT_CHARS = 256_000

/** An aspect the worker prepared: its stored form and edges as text, parsed only when read. */
export interface PreparedAspect {
  /** The validated, normalized value; parsed from {@link valueJson} when first read. */
  readonly value: Record<string, unknown>
  /** The value as canonical JSON text (`canonicalJson`). */
  readonly valueJson: string
  /** The edges the value produces; parsed from {@link edgesJson} when first read. */
  readonly edges: ReadonlyArray<{ readonly type: string; readonly destination: string }>
  /** The edges as JSON text. */
  readonly edgesJson: string
}

const WORKER_URL = new URL('./large-aspect-worker.mjs', import.meta.url)

interface Waiting {
  readonly resolve: (prepared: PreparedAspect) => void
  readonly reject: (err: Error) => void
}

let worker: Worker | undefined
const waiting = new Map<number, Waiting>()
let nextId = 1

/**
 * Parses, validates (as `Registry.validateAspect`) and normalizes an aspect's JSON text and
 * derives its edges (as `Registry.edges`) on a worker thread, with the default model. Refuses
 * with the same domain errors and messages as the event-loop path. The one worker of the
 * process is started at the first call and does not keep the process alive while idle.
 */
export function prepareLargeAspect(input: Omit<PrepareCall, 'id'>): Promise<PreparedAspect> {
  worker ??= start()
  const thread = worker
  const id = nextId++
  thread.ref()
  return new Promise<PreparedAspect>((resolve, reject) => {
    waiting.set(id, { resolve, reject })
    thread.postMessage({ ...input, id } satisfies PrepareCall)
  })
}

/**
 * Starts the worker now (a server does, at start) rather than at the first large aspect, which
 * would otherwise share the CPU with the worker's start (~0.3 s). It does not keep the process alive.
 */
export function warmLargeAspectWorker(): void {
  worker ??= start()
  if (waiting.size === 0) worker.unref()
}

function start(): Worker {
  const thread = startWorker(WORKER_URL)
  thread.on('message', (reply: PrepareReply) => {
    const call = waiting.get(reply.id)
    waiting.delete(reply.id)
    if (waiting.size === 0) thread.unref()
    if (!call) return
    if (reply.ok) call.resolve(prepared(reply.valueJson, reply.edgesJson))
    else call.reject(fromWireError(reply.error))
  })
  thread.on('error', () => {
    // Reported by 'exit' below.
  })
  thread.on('exit', () => {
    if (worker === thread) worker = undefined
    for (const call of waiting.values())
      call.reject(new UnavailableError('the aspect validation worker stopped; retry the write'))
    waiting.clear()
  })
  return thread
}

function prepared(valueJson: string, edgesJson: string): PreparedAspect {
  let value: Record<string, unknown> | undefined
  let edges: PreparedAspect['edges'] | undefined
  return {
    get value() {
      value ??= JSON.parse(valueJson) as Record<string, unknown>
      return value
    },
    valueJson,
    get edges() {
      edges ??= JSON.parse(edgesJson) as PreparedAspect['edges']
      return edges
    },
    edgesJson,
  }
}
