import { sharedUtf8 } from '../utf8-in-shared-memory.js'
import { fromWireError } from '../wire-error.js'
import { WorkerCalls } from '../worker-calls.js'
import type { PatchCall, PrepareCall, PrepareReply } from './large-aspect-protocol.js'

/**
 * Aspect JSON text at least this long is validated by the large-aspect worker; shorter text on
 * the event loop, where it costs less than the hop (a 256 KB schema validates in ~15 ms).
 */
export const LARGE_ASPECT_CHARS = 256_000

/** An aspect the worker prepared: its stored form and edges as text, decoded and parsed only when read. */
export interface PreparedAspect {
  /** The validated, normalized value; parsed from {@link valueJson} when first read. */
  readonly value: Record<string, unknown>
  /** The value as canonical JSON text (`canonicalJson`); decoded from {@link valueUtf8} when first read. */
  readonly valueJson: string
  /** {@link valueJson} as UTF-8 bytes in shared memory: a store that keeps text stores them without decoding. */
  readonly valueUtf8: Uint8Array
  /** The edges the value produces; parsed from {@link edgesJson} when first read. */
  readonly edges: ReadonlyArray<{ readonly type: string; readonly destination: string }>
  /** The edges as JSON text. */
  readonly edgesJson: string
}

/** The large-aspect worker stops after this long without a call (the next one starts it again). */
export const LARGE_ASPECT_WORKER_IDLE_MS = 60_000

const calls = new WorkerCalls<PrepareCall | PatchCall, PrepareReply>(
  new URL('./large-aspect-worker.mjs', import.meta.url),
  'the aspect validation worker stopped; retry the write',
  LARGE_ASPECT_WORKER_IDLE_MS,
)

/**
 * Parses, validates (as `Registry.validateAspect`) and normalizes an aspect's JSON text and
 * derives its edges (as `Registry.edges`) on a worker thread, with the default model. Refuses
 * with the same domain errors and messages as the event-loop path. Text given as UTF-8 bytes
 * is transferred (the caller's bytes are gone after); text given as a string crosses as UTF-8 in
 * shared memory, encoded in slices. The one worker of the process is started
 * at the first call and does not keep the process alive while idle; it stops when idle long.
 */
export async function prepareLargeAspect(input: Omit<PrepareCall, 'id'>): Promise<PreparedAspect> {
  // Text given as a string is encoded in slices into shared memory rather than posted as it is.
  const text = typeof input.text === 'string' ? await sharedUtf8(input.text) : input.text
  const transfer = text.buffer instanceof SharedArrayBuffer ? [] : [text.buffer as ArrayBuffer]
  const call: Omit<PrepareCall, 'id'> = { ...input, text }
  const reply = await calls.call(call, transfer)
  if (!reply.ok) throw fromWireError(reply.error)
  return prepared(reply.valueUtf8, reply.edgesJson)
}

/**
 * A PATCH prepared by the worker: the result as {@link prepareLargeAspect} gives it, or why it is
 * refused, with `applying` false when the patch itself is malformed (bad JSON, not a patch: the
 * batch builder refuses that at the proposal's turn) and true when applying it failed or its
 * result breaks the schema (the store's transaction refuses that, at commit).
 */
export type PreparedPatch =
  | { readonly ok: true; readonly prepared: PreparedAspect }
  | { readonly ok: false; readonly error: Error; readonly applying: boolean }

/**
 * Applies a PATCH to an aspect's latest value (its JSON text's bytes, null when absent: the patch
 * then starts from the aspect's default) on the worker thread, then validates, normalizes and derives
 * edges as {@link prepareLargeAspect}: what the store's transaction does on the event loop with
 * `applyPatch`, `Registry.validateAspect` and `Registry.edges`, with the same messages.
 */
export async function prepareLargePatch(input: Omit<PatchCall, 'id'>): Promise<PreparedPatch> {
  const reply = await calls.call(input)
  if (!reply.ok) return { ok: false, error: fromWireError(reply.error), applying: reply.stage !== 'input' }
  return { ok: true, prepared: prepared(reply.valueUtf8, reply.edgesJson) }
}

/**
 * Starts the worker now unless it runs (a server does when a body large enough to hold a large
 * aspect is announced) rather than at the aspect's validation, which would otherwise wait for the
 * worker's start (~0.3 s). It does not keep the process alive, and stops after
 * {@link LARGE_ASPECT_WORKER_IDLE_MS} without a call.
 */
export function warmLargeAspectWorker(): void {
  calls.warm()
}

/** Whether the large-aspect worker is running (started by a call or {@link warmLargeAspectWorker}, not stopped since). */
export function largeAspectWorkerRunning(): boolean {
  return calls.running
}

function prepared(valueUtf8: Uint8Array, edgesJson: string): PreparedAspect {
  let valueJson: string | undefined
  let value: Record<string, unknown> | undefined
  let edges: PreparedAspect['edges'] | undefined
  return {
    get value() {
      value ??= JSON.parse(this.valueJson) as Record<string, unknown>
      return value
    },
    get valueJson() {
      valueJson ??= Buffer.from(valueUtf8.buffer, valueUtf8.byteOffset, valueUtf8.byteLength).toString()
      return valueJson
    },
    valueUtf8,
    get edges() {
      edges ??= JSON.parse(edgesJson) as PreparedAspect['edges']
      return edges
    },
    edgesJson,
  }
}
