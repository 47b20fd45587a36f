import type { AspectStore, StoredAspectJson } from '@catalog/store'
import { batchedLogFollower } from './batched-log-follower.js'

/** What the cache reads: the latest rows, and the change log that says when they changed. */
export type LatestJsonSource = Pick<AspectStore, 'latest' | 'latestJson' | 'head' | 'changes'>

/** Stored JSON text kept at most, in characters (the oldest entities are dropped first). */
const DEFAULT_BUDGET = 32 * 1024 * 1024

/**
 * The latest aspect rows of entities as stored JSON text (`AspectStore.latestJson`), remembered
 * between reads and dropped as the change log shows them written: before answering it reads the
 * log's head (once per event-loop turn for all the reads that arrived in it, see
 * `batchedLogFollower`), and the entries after the last one seen drop their entities (a log that
 * went back, or too many unread entries, drop everything). Every write appends to the log in the
 * same transaction as its rows, so a read that starts after a write returned sees it, whichever
 * process wrote. Rows read while the log moved on are answered but not remembered.
 */
export class LatestJsonCache {
  private readonly rows = new Map<string, { list: readonly StoredAspectJson[]; size: number }>()
  private size = 0
  /** Bumped by every change-log entry applied: a read that saw it move remembers nothing. */
  private generation = 0
  private readonly refresh: () => Promise<void>

  constructor(
    private readonly store: LatestJsonSource,
    private readonly budget = DEFAULT_BUDGET,
  ) {
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
    await this.refresh()
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
        if (generation === this.generation) this.remember(urn, list)
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
  async latestOne(urn: string): Promise<readonly StoredAspectJson[]> {
    await this.refresh()
    const known = this.rows.get(urn)
    if (known) return known.list
    const generation = this.generation
    const list = (await this.read([urn])).get(urn) ?? []
    if (generation === this.generation) this.remember(urn, list)
    return list
  }

  /** Every latest row of the URNs, from the store. */
  private async read(urns: readonly string[]): Promise<Map<string, readonly StoredAspectJson[]>> {
    if (this.store.latestJson) return this.store.latestJson(urns)
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

  private remember(urn: string, list: readonly StoredAspectJson[]): void {
    let size = urn.length
    for (const row of list) size += row.valueJson.length + (row.systemMetadataJson?.length ?? 0) + 64
    if (size > this.budget / 16) return
    this.forget(urn)
    while (this.size + size > this.budget) {
      const oldest = this.rows.keys().next().value
      if (oldest === undefined) break
      this.forget(oldest)
    }
    this.rows.set(urn, { list, size })
    this.size += size
  }

  private forget(urn: string): void {
    const known = this.rows.get(urn)
    if (!known) return
    this.rows.delete(urn)
    this.size -= known.size
  }
}
