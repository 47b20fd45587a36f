import type { Registry } from '@catalog/core'
import type { EntityAspects, MetadataClient } from './clients/metadata-client.js'
import { RecentMap } from './recent-map.js'
import { STEP_MS, TurnPacer } from './turn-pacer.js'

/** An entity as loaded for one request: its aspects and its key members (from the URN). */
export interface LoadedEntity extends EntityAspects {
  readonly key: Readonly<Record<string, string>>
}

interface Waiting {
  readonly urn: string
  readonly key: Readonly<Record<string, string>>
  readonly resolve: (entity: LoadedEntity) => void
  readonly reject: (err: unknown) => void
}

/**
 * Entities a request keeps loaded (and mapped) at most: more than a loader step reads, so that a
 * result's entity is still there when the result is completed.
 */
export const ENTITIES_KEPT = 1_500

/**
 * Most entities one step reads: over HTTP a step costs this process little, and its reads go out
 * 50 URNs a call, one call after another, so larger steps would only make fewer calls run at once.
 */
const MAX_STEP = 200

/** URNs of one entity type waiting to be read, with their callers in first-asked order. */
interface Batch {
  readonly entityType: string
  readonly urns: string[]
  readonly callers: Map<string, Waiting[]>
  /** How many of `urns` were read already. */
  done: number
}

/**
 * Per-request batching loader (the N+1 guard): every entity asked for during one turn of the
 * event loop is read with `getEntities` calls of one entity type each, and each URN is read at
 * most once per request (until {@link clear}, which mutations call after writing). A page of
 * thousands is read in steps, one per event-loop turn, as many entities each as a {@link TurnPacer}
 * gives: read in-process, the reads and what they set off (mapping, completing the results) would
 * otherwise hold every other request for the whole page (over HTTP the steps still overlap).
 */
export class EntityLoader {
  private readonly cache = new RecentMap<string, Promise<LoadedEntity>>(ENTITIES_KEPT)
  private pending = new Map<string, Waiting[]>()
  private readonly queue: Batch[] = []
  private scheduled = false
  /** Number of `getEntities` calls made (observability and tests). */
  batches = 0

  constructor(
    private readonly client: MetadataClient,
    private readonly registry: Registry,
    private readonly aspectsFor: (entityType: string) => readonly string[],
    private readonly pacer = new TurnPacer(STEP_MS, 20, 4, MAX_STEP),
  ) {}

  /** The entity `urn` (a missing entity loads with no aspects); a malformed URN rejects. */
  load(urn: string): Promise<LoadedEntity> {
    const cached = this.cache.get(urn)
    if (cached) return cached
    let promise: Promise<LoadedEntity>
    try {
      const ref = this.registry.resolveUrn(urn)
      promise = new Promise<LoadedEntity>((resolve, reject) => {
        const group = this.pending.get(ref.entity.name) ?? []
        group.push({ urn, key: ref.key, resolve, reject })
        this.pending.set(ref.entity.name, group)
      })
      this.schedule()
    } catch (err) {
      promise = Promise.reject(err)
    }
    this.cache.set(urn, promise)
    return promise
  }

  /** Forgets everything read so far (after a write). */
  clear(): void {
    this.cache.clear()
  }

  /**
   * One step per event-loop turn. Each step's immediate is queued by the one before it:
   * immediates queued together all run in one check phase, with no I/O served between them.
   */
  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.step())
  }

  private step(): void {
    this.scheduled = false
    this.enqueuePending()
    let left = this.pacer.next()
    while (left > 0 && this.queue.length > 0) {
      const batch = this.queue[0] as Batch
      const urns = batch.urns.slice(batch.done, batch.done + left)
      batch.done += urns.length
      left -= urns.length
      if (batch.done >= batch.urns.length) this.queue.shift()
      const waiting: Waiting[] = []
      for (const u of urns) for (const w of batch.callers.get(u) ?? []) waiting.push(w)
      this.read(batch.entityType, urns, waiting)
    }
    if (this.queue.length > 0 || this.pending.size > 0) this.schedule()
  }

  /** Moves what was asked for since the last step to the end of the queue, by entity type. */
  private enqueuePending(): void {
    if (this.pending.size === 0) return
    for (const [entityType, waiting] of this.pending) {
      // The callers of each URN, in first-asked order (a URN is asked once per request, but
      // pending calls made before the cache held it are kept).
      const callers = new Map<string, Waiting[]>()
      for (const w of waiting) {
        const list = callers.get(w.urn)
        if (list) list.push(w)
        else callers.set(w.urn, [w])
      }
      this.queue.push({ entityType, urns: [...callers.keys()], callers, done: 0 })
    }
    this.pending = new Map()
  }

  private read(entityType: string, urns: string[], waiting: readonly Waiting[]): void {
    this.batches++
    this.client.getEntities(urns, this.aspectsFor(entityType)).then(
      (found) => {
        for (const w of waiting) {
          const entity = found.get(w.urn)
          w.resolve(
            entity
              ? {
                  urn: entity.urn,
                  entityType: entity.entityType,
                  aspects: entity.aspects,
                  exists: entity.exists,
                  key: w.key,
                }
              : { urn: w.urn, entityType, aspects: {}, key: w.key },
          )
        }
      },
      (err: unknown) => {
        for (const w of waiting) {
          this.cache.delete(w.urn)
          w.reject(err)
        }
      },
    )
  }
}
