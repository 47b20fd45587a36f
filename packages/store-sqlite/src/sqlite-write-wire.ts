import { canonicalJson, ENCODE_PIECE_LENGTH, encodeInPieces, TimeSlices, type WireError } from '@catalog/core'
import type { MutationResult, WriteBatch, WriteOutcome } from '@catalog/store'

/**
 * A batch at or above this weight is written by the writer thread, below it on the event loop
 * (no thread hop for ordinary writes). The weight counts value text (characters), 100 per
 * edge and 200 per mutation: about 256 KB of aspect text, 2,500 edges or 1,300 mutations.
 */
export const THREAD_WRITE_WEIGHT = 256_000

/** The weight of one entity's default aspects (a few small aspects, rarely an edge). */
const DEFAULTS_WEIGHT = 1_000

/**
 * How much work a batch is for SQLite, or undefined when it cannot cross to another thread:
 * patches and rollbacks carry functions and are always applied on the event loop.
 */
export function writeWeight(batch: WriteBatch): number | undefined {
  let weight = 0
  for (const m of batch.mutations) {
    if (m.kind === 'patch' || m.kind === 'rollback') return undefined
    weight += 200
    if (m.kind !== 'upsert') continue
    // The bytes when there are (a value prepared off the loop): `valueJson` would decode them.
    weight +=
      (m.valueUtf8?.byteLength ?? m.valueJson?.length ?? 0) +
      (m.edgesJson ? m.edgesJson.length : 100 * m.edges.length)
    // The latest value a patch was applied to is read and compared in the write.
    if (m.precondition?.require === 'latest-unchanged') weight += m.precondition.latestUtf8?.byteLength ?? 0
  }
  // An entity's default aspects, counted without making them (they are made only for a new entity).
  weight += DEFAULTS_WEIGHT * (batch.defaults?.length ?? 0)
  return weight
}

/** Upsert members that cross as text of their own. */
const TEXT_FORMS: ReadonlySet<string> = new Set(['value', 'valueJson', 'valueUtf8', 'edges', 'edgesJson'])

/**
 * A batch as it crosses to the writer thread: its texts as UTF-8 in shared memory, so that no
 * copy of megabytes crosses in one step. `text` holds the batch's structure as JSON text, then
 * each upsert's value (canonical JSON text, unless it is in `values`) and edges (JSON text), in
 * mutation order, apart so that values are not escaped again.
 */
export interface WireBatch {
  /** The texts, one after the other, as UTF-8 bytes in a `SharedArrayBuffer`. */
  readonly text: Uint8Array
  /** Where each text ends in `text` (bytes): the batch's, then each upsert's value and edges. */
  readonly ends: Float64Array
  /**
   * The values upserts hold as UTF-8 bytes (`valueUtf8`, in shared memory: neither copied nor
   * decoded here), in mutation order; such an upsert crosses with `valueAt`, its place here, and
   * only its edges in `text`.
   */
  readonly values?: readonly Uint8Array[]
  /**
   * The `latestUtf8` bytes of `latest-unchanged` preconditions, in mutation order (shared, not
   * copied, when their buffer is a `SharedArrayBuffer`); each such precondition crosses as
   * `{require, at}`, `at` its place here (a null `latestUtf8` stays in place).
   */
  readonly latest?: readonly Uint8Array[]
}

/**
 * A batch for the writer thread. Nothing large is done in one step on the event loop: the batch
 * is serialized a member at a time and its texts are encoded into shared memory a piece at a
 * time, yielding every few milliseconds. A structured clone of the batch held the event loop in
 * one step: a value graph for seconds, and even as strings a batch of 10,000 proposals held it
 * 130-235 ms (`postMessage` copying ~7 MB of text into fresh memory) on a host slow to map pages.
 * Upsert values travel as canonical JSON text; a value the caller sent as `valueJson` is never
 * serialized here. Only batches {@link writeWeight} accepts.
 */
export async function batchToWire(batch: WriteBatch): Promise<WireBatch> {
  const slices = new TimeSlices()
  // The batch text in pieces (never joined here), then the values' and edges' texts.
  const pieces: string[] = []
  const texts: string[] = []
  const values: Uint8Array[] = []
  const latest: Uint8Array[] = []
  const serialize = async (key: string, members: readonly unknown[], one: (member: unknown) => string) => {
    pieces.push(`${pieces[pieces.length - 1] === '{' ? '' : ','}"${key}":[`)
    let first = true
    for (const member of members) {
      pieces.push(first ? one(member) : `,${one(member)}`)
      first = false
      if (slices.due) await slices.next()
    }
    pieces.push(']')
  }
  const { mutations: _mutations, defaults: _defaults, ...others } = batch
  pieces.push(`{${JSON.stringify(others).slice(1, -1)}`)
  await serialize('mutations', batch.mutations, (member) => {
    const m = member as WriteBatch['mutations'][number]
    if (m.kind !== 'upsert') return JSON.stringify(m)
    // Copied member by member: `value`, `valueJson` and `edges` may be getters that decode or
    // parse, never read here.
    const rest: Record<string, unknown> = {}
    for (const key of Object.keys(m) as Array<keyof typeof m>) if (!TEXT_FORMS.has(key)) rest[key] = m[key]
    if (m.valueUtf8) {
      rest.valueAt = values.length
      values.push(m.valueUtf8)
    } else texts.push(m.valueJson ?? canonicalJson(m.value))
    texts.push(m.edgesJson ?? JSON.stringify(m.edges))
    const pre = m.precondition
    if (pre?.require === 'latest-unchanged' && pre.latestUtf8 !== null) {
      // Megabytes of JSON text: not written into the batch's text.
      rest.precondition = { require: pre.require, at: latest.length }
      latest.push(pre.latestUtf8)
    }
    return JSON.stringify(rest)
  })
  if (batch.defaults) await serialize('defaults', batch.defaults, (d) => JSON.stringify(d))
  pieces.push('}')
  const { text, ends } = await encodeShared(pieces, texts, slices)
  return { text, ends, ...(values.length > 0 ? { values } : {}), ...(latest.length > 0 ? { latest } : {}) }
}

/**
 * `pieces` (one text) and `texts` (one each) as UTF-8 in one `SharedArrayBuffer`, with where
 * each text ends; encoded a piece of at most {@link ENCODE_PIECE_LENGTH} at a time, in slices.
 */
async function encodeShared(
  pieces: readonly string[],
  texts: readonly string[],
  slices: TimeSlices,
): Promise<{ text: Uint8Array; ends: Float64Array }> {
  let size = 0
  for (const list of [pieces, texts]) {
    for (const text of list) {
      size += Buffer.byteLength(text)
      if (slices.due) await slices.next()
    }
  }
  const bytes = new Uint8Array(new SharedArrayBuffer(size))
  const encoder = new TextEncoder()
  const ends = new Float64Array(1 + texts.length)
  let at = 0
  for (let i = -pieces.length; i < texts.length; i++) {
    const text = (i < 0 ? pieces[pieces.length + i] : texts[i]) as string
    // Most texts are short: encoded here, without a promise each.
    if (text.length > ENCODE_PIECE_LENGTH) at = await encodeInPieces(text, bytes, at, slices)
    else {
      at += encoder.encodeInto(text, bytes.subarray(at)).written
      if (slices.due) await slices.next()
    }
    if (i >= -1) ends[i + 1] = at
  }
  return { text: bytes, ends }
}

/** The batch again on the writer's side; upserts have `valueJson`, their edges, and an empty `value` the writer never reads. */
export function batchFromWire(wire: WireBatch): WriteBatch {
  const bytes = Buffer.from(wire.text.buffer, wire.text.byteOffset, wire.text.byteLength)
  const text = (i: number) => bytes.toString('utf8', i === 0 ? 0 : (wire.ends[i - 1] as number), wire.ends[i])
  const batch = JSON.parse(text(0)) as { mutations: Array<Record<string, unknown>> }
  let i = 1
  for (const m of batch.mutations) {
    if (m.kind !== 'upsert') continue
    m.value = {}
    const at = m.valueAt as number | undefined
    if (at === undefined) m.valueJson = text(i++)
    else {
      const bytes = wire.values?.[at] ?? new Uint8Array()
      m.valueJson = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString()
      delete m.valueAt
    }
    m.edges = JSON.parse(text(i++))
    const pre = m.precondition as { require?: string; at?: number } | undefined
    if (pre?.require === 'latest-unchanged' && pre.at !== undefined) {
      m.precondition = { require: pre.require, latestUtf8: wire.latest?.[pre.at] ?? new Uint8Array() }
    }
  }
  return batch as unknown as WriteBatch
}

/**
 * A write's outcome as it crosses back from the writer thread: its results in mutation order,
 * without the URNs and aspect names the event loop has in the batch. Posted as objects, the
 * results of 10,000 to 20,000 mutations held the event loop 15-60 ms while they were copied in.
 */
export interface WireOutcome {
  /** 1 where the mutation changed something, 0 where not. */
  readonly changed: Uint8Array
  /** The rows each delete or rollback removed, -1 for the other mutations; absent when none has. */
  readonly rows?: Float64Array
  readonly seq: number
}

/** The outcome of a batch whose results are in mutation order (one each), for the trip back. */
export function outcomeToWire(outcome: WriteOutcome): WireOutcome {
  const { results } = outcome
  const changed = new Uint8Array(results.length)
  let rows: Float64Array | undefined
  results.forEach((r, i) => {
    changed[i] = r.changed ? 1 : 0
    if (r.rows === undefined) return
    rows ??= new Float64Array(results.length).fill(-1)
    rows[i] = r.rows
  })
  return { changed, ...(rows ? { rows } : {}), seq: outcome.seq }
}

/** The outcome again on the event loop, each result named after its mutation in `batch`. */
export function outcomeFromWire(wire: WireOutcome, batch: WriteBatch): WriteOutcome {
  const results: MutationResult[] = batch.mutations.map((m, i) => {
    const { urn, aspect } = m.kind === 'timeseries' ? m.row : m
    const rows = wire.rows?.[i] ?? -1
    return rows < 0
      ? { urn, aspect, changed: wire.changed[i] === 1 }
      : { urn, aspect, changed: wire.changed[i] === 1, rows }
  })
  return { results, seq: wire.seq }
}

/** What a PASSIVE WAL checkpoint did, as `PRAGMA wal_checkpoint` answers: frames in the WAL and copied back. */
export interface CheckpointResult {
  readonly busy: number
  readonly log: number
  readonly checkpointed: number
}

/**
 * Writer thread to event loop: the outcome of write `id`, what checkpoint `id` did, the values
 * read `id` read (UTF-8 bytes in shared memory, null when absent), the failure of any, or the
 * thread's start-up failure.
 */
export type WriterReply =
  | { readonly id: number; readonly ok: true; readonly outcome: WireOutcome }
  | { readonly id: number; readonly ok: true; readonly checkpoint: CheckpointResult }
  | { readonly id: number; readonly ok: true; readonly values: ReadonlyArray<Uint8Array | null> }
  | { readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly ready: true }
  | { readonly ready: false; readonly error: WireError }

/**
 * Event loop to writer thread: write a batch (as text), checkpoint the WAL (PASSIVE), read the
 * latest values of large aspects (as UTF-8 bytes), or close the connection and end.
 */
export type WriterCall =
  | { readonly id: number; readonly batch: WireBatch }
  | { readonly id: number; readonly checkpoint: true }
  | { readonly id: number; readonly read: ReadonlyArray<{ readonly urn: string; readonly aspect: string }> }
  | { readonly close: true }
