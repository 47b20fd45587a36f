import type { AspectStore, StoredAspectJson } from '@catalog/store'
import { batchedLogFollower } from './batched-log-follower.js'
import { SeenOnce } from './seen-once.js'

/** What the cache reads: the latest rows, and the change log that says when they changed. */
export type LatestJsonSource = Pick<AspectStore, 'latest' | 'latestJson' | 'head' | 'changes'>

/**
 * Characters kept at most: the stored JSON text of the rows and the answers made from them
 * (one character is a byte, or two for text beyond Latin-1). The oldest entities are dropped
 * first; one entity larger than a sixteenth of it is never kept.
 */
const DEFAULT_BUDGET = 16 * 1024 * 1024

/** Overhead counted per row (its object and array slot), in characters. */
const ROW_OVERHEAD = 64

interface Entry {
  readonly list: readonly StoredAspectJson[]
  size: number
  /** An answer made from `list` (see {@link LatestJsonCache.answer}). */
  text?: string
}

/**
 * The latest aspect rows of entities as stored JSON text (`AspectStore.latestJson`), remembered
 * between reads and dropped as the change log shows them written: before answering it reads the
 * log's head (once per event-loop turn for all the reads that arrived in it, see
 * `batchedLogFollower`), and the entries after the last one seen drop their entities (a log that
 * went back, or too many unread entries, drop everything). Every write appends to the log in the
 * same transaction as its rows, so a read that starts after a write returned sees it, whichever
 * process wrote. Rows read while the log moved on are answered but not remembered.
 *
 * The first read of an entity skips the log: it reads the store, which holds every committed
 * write, and remembers nothing (a cold read of a large catalog then costs one query, not two).
 *
 * An entity is remembered from its second read on (see {@link SeenOnce}): a read of an entity
 * nobody asks for again (a crawl, a scan of a large catalog) costs no memory and leaves the
 * garbage collector nothing to keep.
 */
export class LatestJsonCache {
  private readonly rows = new Map<string, Entry>()
  private size = 0
  /** Bumped by every change-log entry applied: a read that saw it move remembers nothing. */
  private generation = 0
  private readonly refresh: () => Promise<void>
  private readonly seen: SeenOnce

  constructor(
    private readonly store: LatestJsonSource,
    private readonly budget = DEFAULT_BUDGET,
  ) {
    this.seen = new SeenOnce(Math.max(1024, Math.floor(budget / 32)))
    this.refresh = batchedLogFollower(
      store,
      (entry) => {
        this.generation++
        this.forget(entry.urn)
      },
      () => {
        this.generation++
        this.rows.clear()
        this.size = 0
      },
    )
  }

  /** The latest rows of each URN (of `aspects` only, when given), in (urn, aspect) order. */
  async latestJson(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<Map<string, readonly StoredAspectJson[]>> {
    if (urns.some((urn) => this.needsLog(urn))) await this.refresh()
    const found = new Map<string, readonly StoredAspectJson[]>()
    const missing: string[] = []
    for (const urn of urns) {
      const known = this.rows.get(urn)
      if (known) found.set(urn, known.list)
      else missing.push(urn)
    }
    if (missing.length > 0) {
      const generation = this.generation
      for (const [urn, list] of await this.read(missing)) {
        found.set(urn, list)
        if (generation === this.generation) this.offer(urn, list)
      }
    }
    if (!aspects || aspects.length === 0) return found
    const wanted = new Set(aspects)
    const out = new Map<string, readonly StoredAspectJson[]>()
    for (const [urn, list] of found)
      out.set(
        urn,
        list.filter((row) => wanted.has(row.aspect)),
      )
    return out
  }

  /** Every latest row of one URN ({@link latestJson} of one URN, without the maps a batch needs). */
  latestOne(urn: string): Promise<readonly StoredAspectJson[]> {
    // Without async frames: a cold read is one promise of the store's.
    if (!this.needsLog(urn)) return this.load(urn)
    return this.refresh().then(() => this.rows.get(urn)?.list ?? this.load(urn))
  }

  /**
   * The latest row of one aspect of one URN: from the remembered rows, else read alone unless
   * the entity is read for the second time (then all its rows are read and remembered).
   */
  async latestAspect(urn: string, aspect: string): Promise<StoredAspectJson | undefined> {
    if (this.needsLog(urn)) await this.refresh()
    const known = this.rows.get(urn)
    if (!known && this.store.latestJson && !this.seen.has(urn)) {
      this.seen.add(urn)
      return (await this.store.latestJson([urn], [aspect])).get(urn)?.find((r) => r.aspect === aspect)
    }
    const list = known?.list ?? (await this.load(urn))
    return list.find((r) => r.aspect === aspect)
  }

  /**
   * Whether a read of `urn` must follow the log first: its rows are remembered, or will be by
   * this read (its second), which must then know the log's position its rows are as new as.
   */
  private needsLog(urn: string): boolean {
    return this.rows.has(urn) || this.seen.has(urn)
  }

  /** Every latest row of one URN from the store, offered to memory unless the log moved on meanwhile. */
  private load(urn: string): Promise<readonly StoredAspectJson[]> {
    const generation = this.generation
    return this.read([urn]).then((rows) => {
      const list = rows.get(urn) ?? []
      if (generation === this.generation) this.offer(urn, list)
      return list
    })
  }

  /**
   * An answer made from the rows of `urn` that a read of this cache handed out (`list`): the one
   * made before while those rows are remembered, else `make()`'s, kept with them when `keep`
   * (and counted in the budget).
   */
  answer(urn: string, list: readonly StoredAspectJson[], make: () => string, keep = true): string {
    const entry = this.rows.get(urn)
    if (entry?.list !== list) return make()
    if (entry.text !== undefined) return entry.text
    const text = make()
    if (keep && entry.size + text.length <= this.budget / 16) {
      entry.text = text
      entry.size += text.length
      this.size += text.length
      this.evictOver(urn)
    }
    return text
  }

  /** Every latest row of the URNs, from the store. */
  private read(urns: readonly string[]): Promise<Map<string, readonly StoredAspectJson[]>> {
    return this.store.latestJson ? this.store.latestJson(urns) : this.readParsed(urns)
  }

  /** {@link read} from a store without `latestJson`: its parsed rows serialized. */
  private async readParsed(urns: readonly string[]): Promise<Map<string, readonly StoredAspectJson[]>> {
    const out = new Map<string, readonly StoredAspectJson[]>()
    for (const [urn, list] of await this.store.latest(urns)) {
      out.set(
        urn,
        list.map((r) => ({
          aspect: r.aspect,
          version: r.version,
          valueJson: JSON.stringify(r.value),
          created: r.created,
          systemMetadataJson: r.systemMetadata ? JSON.stringify(r.systemMetadata) : null,
        })),
      )
    }
    return out
  }

  /** Remembers the rows of an entity read for the second time lately; the first read only notes the URN. */
  private offer(urn: string, list: readonly StoredAspectJson[]): void {
    if (!this.seen.has(urn)) {
      this.seen.add(urn)
      return
    }
    this.seen.delete(urn)
    let size = urn.length
    for (const row of list)
      size += row.valueJson.length + (row.systemMetadataJson?.length ?? 0) + ROW_OVERHEAD
    if (size > this.budget / 16) return
    this.forget(urn)
    this.rows.set(urn, { list, size })
    this.size += size
    this.evictOver(urn)
  }

  /** Drops the oldest entities (never `keep`) until the budget holds. */
  private evictOver(keep: string): void {
    for (const oldest of this.rows.keys()) {
      if (this.size <= this.budget) return
      if (oldest !== keep) this.forget(oldest)
    }
  }

  private forget(urn: string): void {
    const known = this.rows.get(urn)
    if (!known) return
    this.rows.delete(urn)
    this.size -= known.size
  }
}
