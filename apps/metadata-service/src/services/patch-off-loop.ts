import { LARGE_ASPECT_CHARS, type PreparedPatch, prepareLargePatch, type Registry } from '@catalog/core'
import { type AspectKey, LatestChangedError, type MetadataStore } from '@catalog/store'
import type { AspectTextUtf8, Proposal } from '../schemas/ingest.js'

/** A PATCH applied off the event loop: the latest value it was applied to (its write's guard) and the outcome. */
export interface OffLoopPatch {
  /** The latest value's bytes the patch was applied to; null when the aspect had none. */
  readonly base: Uint8Array | null
  readonly outcome: PreparedPatch
}

/** Tries of the read-apply-write cycle before a patch is applied in the write transaction after all. */
const PATCH_ATTEMPTS = 3

/** PATCH proposals whose latest values are read in one call. */
const READ_CHUNK = 100

/** Content types of a PATCH aspect, as the batch builder accepts them. */
const PATCH_CONTENT_TYPE = /^application\/(json-patch\+)?json/i

interface Candidate extends AspectKey {
  /** The proposal's position in its call. */
  readonly i: number
  readonly entityType: string
  readonly patch: string
  /** The patch's UTF-8 bytes, when the caller has them (the JSON body worker made them). */
  readonly patchUtf8: Uint8Array | undefined
  /** The URN and aspect name as the proposal sent them (a key). */
  readonly sent: string
  readonly sentUrn: string
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * PATCH proposals of large aspects, applied off the event loop. Applied in the store's write
 * transaction, a patch of a 16 MB schema held the event loop 1-2.4 s (parse, apply, validate,
 * edges, serialize). When the aspect's latest value or the patch is at least
 * {@link LARGE_ASPECT_CHARS} long, the latest value is read (its text's bytes), the large-aspect worker
 * applies the patch to it and prepares the result, and the write is an upsert guarded by "the
 * latest value is still the one read" (`latest-unchanged`). When another write got in between,
 * the store refuses it ({@link LatestChangedError}, nothing written) and the cycle runs again on
 * a fresh read, {@link PATCH_ATTEMPTS} times at most, then the patch is applied in the write
 * transaction as before: correctness never depends on this path. Patches of one aspect from this
 * process take turns, so they do not make each other retry. Small patches of small aspects keep
 * the in-transaction path (cheaper than the hop).
 */
export class PatchOffLoop {
  /** The tail of the off-loop patches in flight, per aspect of an entity. */
  private readonly tails = new Map<string, Promise<void>>()

  constructor(
    private readonly registry: Registry,
    private readonly store: Pick<MetadataStore, 'latestAspectUtf8'>,
  ) {}

  /**
   * Runs `commit` with the call's large patches prepared off the loop (by proposal position),
   * again after a conflict, and at last with none (every patch applied in the transaction).
   */
  async run<T>(
    proposals: readonly Proposal[],
    where: (i: number) => string,
    commit: (patched: ReadonlyMap<number, OffLoopPatch>) => Promise<T>,
    utf8Of?: AspectTextUtf8,
  ): Promise<T> {
    if (!this.store.latestAspectUtf8) return commit(new Map())
    const candidates = this.candidates(proposals, utf8Of)
    if (candidates.length === 0) return commit(new Map())
    const first = await this.read(candidates)
    const large = candidates.flatMap((c, k) => (isLarge(c.patch) || isLarge(first[k]) ? [k] : []))
    if (large.length === 0) return commit(new Map())
    const chosen = large.map((k) => candidates[k] as Candidate)
    const firstLarge = large.map((k) => first[k] ?? null)
    // Only the chosen aspects' values are kept.
    first.length = 0
    const { waited, release } = await this.lock(chosen.map(key))
    try {
      let latest: Array<Uint8Array | null> | undefined = waited ? undefined : firstLarge
      for (let attempt = 1; attempt <= PATCH_ATTEMPTS; attempt++) {
        latest ??= await this.read(chosen)
        const patched = await this.apply(chosen, latest, where)
        latest = undefined
        try {
          return await commit(patched)
        } catch (err) {
          if (!(err instanceof LatestChangedError)) throw err
        }
      }
      return await commit(new Map())
    } finally {
      release()
    }
  }

  /**
   * The PATCH proposals that may be applied off the loop: well-formed as far as the batch builder
   * checks before it applies a patch (anything else fails there, as before), of a versioned
   * aspect, and the only proposal of the call for their aspect, with no delete of their entity (a
   * patch that sees an earlier write of its own call is applied in the transaction). Only PATCH
   * proposals are parsed: the others are compared by their URN and aspect as sent (a write the
   * comparison misses only makes the guarded write refused, then applied in the transaction).
   */
  private candidates(proposals: readonly Proposal[], utf8Of: AspectTextUtf8 | undefined): Candidate[] {
    if (!proposals.some((p) => p.changeType.toUpperCase() === 'PATCH')) return []
    const out: Candidate[] = []
    const seen = new Map<string, number>()
    const deleted = new Set<string>()
    const count = (name: string) => seen.set(name, (seen.get(name) ?? 0) + 1)
    for (const [i, p] of proposals.entries()) {
      const change = p.changeType.toUpperCase()
      if (change === 'DELETE') deleted.add(p.entityUrn ?? '')
      if (change !== 'PATCH') {
        count(`${p.entityUrn}\u0000${p.aspectName}`)
        continue
      }
      const entity = this.registry.findEntity(p.entityType)
      const spec = entity && p.aspectName !== undefined && this.registry.findAspect(entity, p.aspectName)
      const urn = p.entityUrn === undefined ? undefined : this.urnOf(p.entityUrn, entity?.name)
      if (!entity || !spec || !urn) {
        count(`${p.entityUrn}\u0000${p.aspectName}`)
        continue
      }
      const sent = `${p.entityUrn}\u0000${p.aspectName}`
      count(key({ urn, aspect: spec.name }))
      if (sent !== key({ urn, aspect: spec.name })) count(sent)
      if (spec.timeseries || p.aspect === undefined) continue
      if (p.aspect.contentType !== undefined && !PATCH_CONTENT_TYPE.test(p.aspect.contentType)) continue
      const patch = p.aspect.value
      out.push({
        i,
        urn,
        aspect: spec.name,
        entityType: entity.name,
        patch,
        patchUtf8: utf8Of?.(p.aspect),
        sent,
        sentUrn: p.entityUrn ?? urn,
      })
    }
    return out.filter(
      (c) =>
        seen.get(key(c)) === 1 && seen.get(c.sent) === 1 && !deleted.has(c.urn) && !deleted.has(c.sentUrn),
    )
  }

  /** The URN as the batch builder resolves it, when it is one of `entityType`. */
  private urnOf(raw: string, entityType: string | undefined): string | undefined {
    try {
      const ref = this.registry.resolveUrn(raw)
      return ref.entity.name === entityType ? ref.urn : undefined
    } catch {
      return undefined
    }
  }

  /**
   * The latest values' bytes (null: absent), a chunk of aspects per call, yielding between chunks.
   * A large one is in shared memory (the SQLite store reads it there on its writer thread, else it
   * is copied there, ~7 ms for 16 MB), which the large-aspect worker and the store's writer
   * thread then read without a copy of their own.
   */
  private async read(keys: readonly AspectKey[]): Promise<Array<Uint8Array | null>> {
    const out: Array<Uint8Array | null> = []
    for (let at = 0; at < keys.length; at += READ_CHUNK) {
      if (at > 0) await turn()
      const read = (await this.store.latestAspectUtf8?.(keys.slice(at, at + READ_CHUNK))) ?? []
      for (const bytes of read) {
        if (bytes !== undefined && isLarge(bytes) && !(bytes.buffer instanceof SharedArrayBuffer)) {
          // A read of 16 MB on the event loop took ~20 ms, the copy ~7 ms: not in the same turn.
          await turn()
          out.push(shared(bytes))
        } else out.push(bytes ?? null)
      }
    }
    return out
  }

  /** Each chosen patch applied to its latest value by the large-aspect worker. */
  private async apply(
    chosen: readonly Candidate[],
    latest: ReadonlyArray<Uint8Array | null>,
    where: (i: number) => string,
  ): Promise<Map<number, OffLoopPatch>> {
    const out = new Map<number, OffLoopPatch>()
    await Promise.all(
      chosen.map(async (c, k) => {
        const base = latest[k] ?? null
        const input = {
          entityType: c.entityType,
          aspect: c.aspect,
          urn: c.urn,
          // The bytes cross without a copy; a string of megabytes would be copied at once.
          patch: c.patchUtf8 ?? c.patch,
          where: where(c.i),
        }
        // A worker that stopped leaves its patch to the write transaction.
        const outcome = await prepareLargePatch({ ...input, latest: base }).catch(() => undefined)
        if (outcome) out.set(c.i, { base, outcome })
      }),
    )
    return out
  }

  /**
   * Takes the turn of each aspect (in key order, so that two calls never wait on each other);
   * `waited` says whether another patch held one meanwhile (what was read before is stale).
   */
  private async lock(keys: readonly string[]): Promise<{ waited: boolean; release: () => void }> {
    const releases: Array<() => void> = []
    let waited = false
    for (const name of [...new Set(keys)].sort()) {
      const previous = this.tails.get(name)
      let done = () => {}
      const mine = new Promise<void>((resolve) => {
        done = resolve
      })
      const tail = previous ? previous.then(() => mine) : mine
      this.tails.set(name, tail)
      releases.push(() => {
        done()
        if (this.tails.get(name) === tail) this.tails.delete(name)
      })
      if (previous) {
        waited = true
        await previous
      }
    }
    const release = () => {
      for (const one of releases) one()
    }
    return { waited, release }
  }
}

function key(k: AspectKey): string {
  return `${k.urn}\u0000${k.aspect}`
}

/** At least {@link LARGE_ASPECT_CHARS} characters of text, or bytes. */
function isLarge(text: string | Uint8Array | null | undefined): boolean {
  if (text == null) return false
  return (typeof text === 'string' ? text.length : text.byteLength) >= LARGE_ASPECT_CHARS
}

/** `bytes` in shared memory (as a store may have read them already), copied there if not. */
function shared(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
  copy.set(bytes)
  return copy
}
