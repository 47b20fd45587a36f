import type { Registry } from '@catalog/core'
import type { EntityAspects, MetadataClient } from './clients/metadata-client.js'

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

/** Most entities read in one event-loop turn. */
const CHUNK = 100

/**
 * Per-request batching loader (the N+1 guard): every entity asked for during one turn of
 * the event loop is read with one `getEntities` call per entity type and {@link CHUNK} URNs, and each URN is read
 * at most once per request (until {@link clear}, which mutations call after writing).
 */
export class EntityLoader {
  private readonly cache = new Map<string, Promise<LoadedEntity>>()
  private pending = new Map<string, Waiting[]>()
  private scheduled = false
  /** Number of `getEntities` calls made (observability and tests). */
  batches = 0

  constructor(
    private readonly client: MetadataClient,
    private readonly registry: Registry,
    private readonly aspectsFor: (entityType: string) => readonly string[],
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

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.dispatch())
  }

  private dispatch(): void {
    this.scheduled = false
    const groups = this.pending
    this.pending = new Map()
    const reads: Array<() => void> = []
    for (const [entityType, waiting] of groups) {
      // The callers of each URN, in first-asked order (a URN is asked once per request, but
      // pending calls made before the cache held it are kept).
      const byUrn = new Map<string, Waiting[]>()
      for (const w of waiting) {
        const callers = byUrn.get(w.urn)
        if (callers) callers.push(w)
        else byUrn.set(w.urn, [w])
      }
      const urns = [...byUrn.keys()]
      for (let i = 0; i < urns.length; i += CHUNK) {
        const chunk = urns.slice(i, i + CHUNK)
        const mine = chunk.flatMap((u) => byUrn.get(u) ?? [])
        reads.push(() => this.read(entityType, chunk, mine))
      }
    }
    this.readInTurns(reads, 0)
  }

  /**
   * One chunk per event-loop turn: a page of thousands of entities read in-process must not hold
   * every other request for the whole read (over HTTP the chunks still overlap). Each chunk's
   * immediate is queued by the one before it: immediates queued together all run in one check
   * phase, with no I/O served between them.
   */
  private readInTurns(reads: ReadonlyArray<() => void>, next: number): void {
    reads[next]?.()
    if (next + 1 < reads.length) setImmediate(() => this.readInTurns(reads, next + 1))
  }

  private read(entityType: string, urns: string[], waiting: readonly Waiting[]): void {
    this.batches++
    this.client.getEntities(urns, this.aspectsFor(entityType)).then(
      (found) => {
        for (const w of waiting) {
          const entity = found.get(w.urn) ?? { urn: w.urn, entityType, aspects: {} }
          w.resolve({ ...entity, key: w.key })
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
