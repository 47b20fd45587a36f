import type { EntityRef } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { patch } from './patch.js'
import { currentAspect, write } from './support.js'

/** Attempts at most, each on a fresh read, before a contended update gives up. */
const ATTEMPTS = 8

/** True for the failure of the guarding `test` operation: someone wrote the aspect meanwhile. */
function lostRace(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err)
  return message.includes('PATCH operation #0 (test ') && message.includes('value differs')
}

/** The tail of the updates in flight in this process, per aspect of an entity. */
const inFlight = new Map<string, Promise<void>>()

/**
 * A read-modify-write of one aspect that loses no concurrent edit: `change` computes the new
 * value from the latest one (undefined: absent), and the write is a PATCH guarded by a `test` of
 * the whole aspect against what was read, applied inside the store's write transaction. When
 * another write got in between, the test fails, nothing is written, and the change is computed
 * again on a fresh read. Updates of one aspect from this process run one after the other, so
 * retries are only needed against other writers. `change` answering undefined writes nothing.
 */
export async function compareAndSet(
  ctx: CatalogContext,
  ref: EntityRef,
  aspect: string,
  change: (current: AspectValue | undefined) => AspectValue | undefined,
): Promise<void> {
  const key = `${ref.urn}\n${aspect}`
  const previous = inFlight.get(key) ?? Promise.resolve()
  const mine = previous.then(() => attempt(ctx, ref, aspect, change))
  const tail = mine.then(
    () => undefined,
    () => undefined,
  )
  inFlight.set(key, tail)
  try {
    await mine
  } finally {
    if (inFlight.get(key) === tail) inFlight.delete(key)
  }
}

async function attempt(
  ctx: CatalogContext,
  ref: EntityRef,
  aspect: string,
  change: (current: AspectValue | undefined) => AspectValue | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const current = await currentAspect(ctx, ref.urn, aspect)
    const next = change(current)
    if (next === undefined) return
    const guarded = patch(ref, aspect, [
      { op: 'test', path: '', value: current ?? {} },
      { op: 'add', path: '', value: next },
    ])
    try {
      await write(ctx, [guarded])
      return
    } catch (err) {
      if (attempt >= ATTEMPTS || !lostRace(err)) throw err
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}
