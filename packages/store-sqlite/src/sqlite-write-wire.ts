import { canonicalJson, type WireError } from '@catalog/core'
import type { WriteBatch, WriteOutcome } from '@catalog/store'

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
    weight += (m.valueJson?.length ?? 0) + (m.edgesJson ? m.edgesJson.length : 100 * m.edges.length)
    // The latest value a patch was applied to is read and compared in the write.
    if (m.precondition?.require === 'latest-unchanged') weight += m.precondition.latestUtf8?.byteLength ?? 0
  }
  // An entity's default aspects, counted without making them (they are made only for a new entity).
  weight += DEFAULTS_WEIGHT * (batch.defaults?.length ?? 0)
  return weight
}

/** Upsert members that cross as text of their own. */
const TEXT_FORMS: ReadonlySet<string> = new Set(['value', 'valueJson', 'edges', 'edgesJson'])

/** A batch as it crosses to the writer thread: its structure as JSON text, upsert values apart. */
export interface WireBatch {
  readonly batch: string
  /** Each upsert's value as canonical JSON text, in mutation order. */
  readonly values: readonly string[]
  /** Each upsert's edges as JSON text, in mutation order. */
  readonly edges: readonly string[]
  /**
   * The `latestUtf8` bytes of `latest-unchanged` preconditions, in mutation order (shared, not
   * copied, when their buffer is a `SharedArrayBuffer`); each such precondition crosses as
   * `{require, at}`, `at` its place here (a null `latestUtf8` stays in place).
   */
  readonly latest?: readonly Uint8Array[]
}

/** Longest stretch of serializing between two event-loop turns. */
const SLICE_MS = 8

/**
 * A batch for the writer thread: strings cross the boundary as a copy, where a structured
 * clone of a large value graph would hold the event loop. Upsert values travel as canonical
 * JSON text (the writer stores text), apart from the rest so that they are not escaped again;
 * a value the caller sent as `valueJson` is never serialized here. The batch is serialized a
 * member at a time, yielding to the event loop every few milliseconds: a batch of 10,000
 * proposals and the default aspects of 10,000 new entities took ~100 ms. Only batches
 * {@link writeWeight} accepts.
 */
export async function batchToWire(batch: WriteBatch): Promise<WireBatch> {
  const values: string[] = []
  const edges: string[] = []
  const latest: Uint8Array[] = []
  let until = performance.now() + SLICE_MS
  const serialize = async (members: readonly unknown[], one: (member: unknown) => string) => {
    // Joined a thousand at a time, so that no step copies the whole batch's text at once.
    const chunks: string[] = []
    let parts: string[] = []
    for (const member of members) {
      parts.push(one(member))
      if (parts.length === 1000) {
        chunks.push(parts.join(','))
        parts = []
      }
      if (performance.now() >= until) {
        await new Promise((resolve) => setImmediate(resolve))
        until = performance.now() + SLICE_MS
      }
    }
    if (parts.length > 0) chunks.push(parts.join(','))
    return `[${chunks.join(',')}]`
  }
  const mutations = await serialize(batch.mutations, (member) => {
    const m = member as WriteBatch['mutations'][number]
    if (m.kind !== 'upsert') return JSON.stringify(m)
    values.push(m.valueJson ?? canonicalJson(m.value))
    edges.push(m.edgesJson ?? JSON.stringify(m.edges))
    // Copied member by member: `value` and `edges` may be getters that parse their text, never read here.
    const rest: Record<string, unknown> = {}
    for (const key of Object.keys(m) as Array<keyof typeof m>) if (!TEXT_FORMS.has(key)) rest[key] = m[key]
    const pre = m.precondition
    if (pre?.require === 'latest-unchanged' && pre.latestUtf8 !== null) {
      // Megabytes of JSON text: not written into the batch's text.
      rest.precondition = { require: pre.require, at: latest.length }
      latest.push(pre.latestUtf8)
    }
    return JSON.stringify(rest)
  })
  const defaults = batch.defaults && (await serialize(batch.defaults, (d) => JSON.stringify(d)))
  const { mutations: _mutations, defaults: _defaults, ...others } = batch
  const head = JSON.stringify(others).slice(1, -1)
  const members = [head, `"mutations":${mutations}`, ...(defaults ? [`"defaults":${defaults}`] : [])]
  return {
    batch: `{${members.filter((m) => m !== '').join(',')}}`,
    values,
    edges,
    ...(latest.length > 0 ? { latest } : {}),
  }
}

/** The batch again on the writer's side; upserts have `valueJson`, their edges, and an empty `value` the writer never reads. */
export function batchFromWire(wire: WireBatch): WriteBatch {
  const batch = JSON.parse(wire.batch) as { mutations: Array<Record<string, unknown>> }
  let i = 0
  for (const m of batch.mutations) {
    if (m.kind !== 'upsert') continue
    m.value = {}
    m.valueJson = wire.values[i]
    m.edges = JSON.parse(wire.edges[i] as string)
    const pre = m.precondition as { require?: string; at?: number } | undefined
    if (pre?.require === 'latest-unchanged' && pre.at !== undefined) {
      m.precondition = { require: pre.require, latestUtf8: wire.latest?.[pre.at] ?? new Uint8Array() }
    }
    i++
  }
  return batch as unknown as WriteBatch
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
  | { readonly id: number; readonly ok: true; readonly outcome: WriteOutcome }
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
