import { CatalogError, type EntityRef } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { patch } from './patch.js'
import { upsert, write } from './support.js'

/** Attempts at most, each on a fresh read, before a contended update gives up. */
const ATTEMPTS = 8

/**
 * True when a guarded write lost a race: the guarding `test` operation of a PATCH failed, or a
 * write hook found what it read changed (a conflict). Someone wrote meanwhile: read and write again.
 */
export function lostRace(err: unknown): boolean {
  if (err instanceof CatalogError && err.kind === 'conflict') return true
  const message = err instanceof Error ? err.message : String(err)
  return (
    (message.includes('(test ') && message.includes('value differs')) ||
    message.includes('Cannot perform CREATE since the aspect already exists')
  )
}

/** The tail of the updates in flight in this process, per key. */
const inFlight = new Map<string, Promise<unknown>>()

/** `run` after the runs of `key` before it in this process have ended (one at a time per key). */
export async function oneAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve()
  const mine = previous.then(run)
  const tail = mine.then(
    () => undefined,
    () => undefined,
  )
  inFlight.set(key, tail)
  try {
    return await mine
  } finally {
    if (inFlight.get(key) === tail) inFlight.delete(key)
  }
}

/** `run` again on a fresh read, a few times, while it loses races to other writers. */
export async function retryingRaces<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (err) {
      if (attempt >= ATTEMPTS || !lostRace(err)) throw err
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}

/**
 * A read-modify-write of one aspect that loses no concurrent edit: `change` computes the new
 * value from the latest one (undefined: absent), and the write is a PATCH guarded by a `test` of
 * the whole aspect against what was read, applied inside the store's write transaction. When
 * another write got in between, the test fails, nothing is written, and the change is computed
 * again on a fresh read. Updates of one aspect from this process run one after the other, so
 * retries are only needed against other writers. `change` answering undefined writes nothing.
 */
export function compareAndSet(
  ctx: CatalogContext,
  ref: EntityRef,
  aspect: string,
  change: (current: AspectValue | undefined) => AspectValue | undefined,
): Promise<void> {
  return oneAtATime(`${ref.urn}\n${aspect}`, () => compareAndSetEach(ctx, [ref], aspect, change))
}

/**
 * {@link compareAndSet} of one aspect on each of `refs` (each once), in one write with
 * `alongside` (all or nothing; it must be safe to write again). `change` gets a copy of what was
 * read, which it may edit; answering undefined leaves that entity alone, throwing refuses the
 * whole call with nothing written. A lost race is read and written again.
 */
export async function compareAndSetEach(
  ctx: CatalogContext,
  refs: readonly EntityRef[],
  aspect: string,
  change: (current: AspectValue | undefined, ref: EntityRef) => AspectValue | undefined,
  alongside: readonly MetadataProposal[] = [],
): Promise<void> {
  // Two guarded writes of one aspect in a batch would refuse each other.
  const unique = [...new Map(refs.map((r) => [r.urn, r])).values()]
  if (unique.length === 0) return
  await retryingRaces(async () => {
    const stored = await ctx.client.getEntities(
      unique.map((r) => r.urn),
      [aspect],
    )
    const writes: MetadataProposal[] = [...alongside]
    for (const ref of unique) {
      const current = stored.get(ref.urn)?.aspects[aspect]
      const next = change(structuredClone(current), ref)
      if (next !== undefined) writes.push(guardedSet(ref, aspect, current, next))
    }
    if (writes.length > 0) await write(ctx, writes)
  })
}

/**
 * The write of `next` over `current`, refused (a lost race) when the aspect is no longer
 * `current`: a CREATE when it was absent, else a generic PATCH (the aspect's template does not
 * reshape it) testing the whole stored value.
 */
export function guardedSet(
  ref: EntityRef,
  aspect: string,
  current: AspectValue | undefined,
  next: AspectValue,
): MetadataProposal {
  if (current === undefined) return { ...upsert(ref, aspect, next), changeType: 'CREATE' }
  const operations = [
    { op: 'test', path: '', value: current },
    { op: 'add', path: '', value: next },
  ]
  return {
    ...patch(ref, aspect, []),
    aspect: {
      value: JSON.stringify({ patch: operations, forceGenericPatch: true }),
      contentType: 'application/json-patch+json',
    },
  }
}
