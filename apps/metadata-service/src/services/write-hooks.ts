import { ConflictError } from '@catalog/core'
import type { UpsertAspect, WriteBatch } from '@catalog/store'

/**
 * What a write hook adds to a batch (DataHub's MCL hooks and side effects, kept in the write
 * here): the batch with the writes it calls for, written atomically with it, and, for what is
 * only known once the batch is written, a second write made before the call is answered.
 */
export interface WritePlan {
  readonly batch: WriteBatch
  /** The writes known only once `batch` is written; undefined when none. */
  readonly after?: () => Promise<WriteBatch | undefined>
}

export interface WriteHook {
  /** `batch` with this hook's writes; `batch` itself (no `after`) when it calls for none. */
  plan(batch: WriteBatch): Promise<WritePlan>
}

/** `extra` appended to `batch` (the defaults of entities it creates too). */
export function appended(batch: WriteBatch, extra: Pick<WriteBatch, 'mutations' | 'defaults'>): WriteBatch {
  if (extra.mutations.length === 0) return batch
  const known = new Set((batch.defaults ?? []).map((d) => d.urn))
  return {
    ...batch,
    mutations: [...batch.mutations, ...extra.mutations],
    defaults: [...(batch.defaults ?? []), ...(extra.defaults ?? []).filter((d) => !known.has(d.urn))],
  }
}

/**
 * Thrown inside the write by a hook's guarded mutation when what the hook read before the write
 * changed meanwhile (another call's write): nothing is written, and the call is planned and
 * written again on a fresh read ({@link WRITE_ATTEMPTS} times at most, then a 409).
 */
export class HookRaceError extends ConflictError {}

/** How many times a call whose hooks lost a race is planned and written again before its 409. */
export const WRITE_ATTEMPTS = 8

/** An upsert the store skips when something is there already (`If-None-Match: *`): it may leave what was there. */
export function mayBeDropped(m: UpsertAspect): boolean {
  const p = m.precondition
  return p !== undefined && p.require !== 'latest-unchanged' && p.drop === true
}
