import type Database from 'better-sqlite3'

/** Entities remembered at most: one slot each, an entity in the slot of its id (see {@link LineageMemo}). */
export const MEMO_SLOTS = 1 << 16

/** Bytes of URN (UTF-8) a slot holds; a longer URN is not remembered. */
export const MEMO_URN_BYTES = 128

/**
 * What lineage walks learnt about entities by URN id (the URN, and whether the latest `status`
 * says `removed`), remembered until the next write to the store file: SQLite's `data_version`
 * moves when another connection (the writer thread, another process) commits, and
 * `total_changes()` when this one writes. Lineage walks revisit the same neighbourhoods (the UI
 * expands a graph hop by hop, 3 hops then 5), and reading these costs a third or more of a walk:
 * a 5-hop walk at 100,000 datasets takes ~1.1 ms of CPU with them all known, ~2.5 ms with none.
 *
 * Its memory is fixed and outside V8's heap: {@link MEMO_SLOTS} slots in typed arrays (~9 MB,
 * made at the first entity learnt and touched as they fill), an entity in slot `id mod slots`
 * in place of whichever was there (URN ids are handed out in sequence, so the entities of one
 * neighbourhood rarely share a slot), its URN as UTF-8 bytes. It was a map of up to 100,000 URN
 * strings, dropped whole when full: at a million datasets, where walks seldom meet the same
 * entities, every URN it kept outlived young collections and became old-generation garbage, and
 * its hash tables, past 128 KB, were V8 large objects thrown away at each refill: after the
 * scale benchmark's requests the main thread's heap held 126-134 MB (large objects 25), with
 * this memo 67-72 MB (3), the same as with no memo at all.
 */
export class LineageMemo {
  /** The slots, made at the first entity learnt: a catalog never asked for lineage holds none. */
  private slots: Slots | undefined
  /** The current stamp: bumped by every change of the store, which forgets every slot at once. */
  private stamp = 1
  private readonly version: Database.Statement
  private seen: string | undefined

  constructor(private readonly db: Database.Database) {
    this.version = db
      .prepare(
        'SELECT data_version, total_changes(), (SELECT id FROM urns WHERE urn = ?) FROM pragma_data_version',
      )
      .raw()
  }

  /**
   * Forgets everything if the store changed since the last call (or while a transaction is
   * open on this connection, whose writes may still roll back), and says whether it did. Reads
   * the id of `urn` (a walk's start; undefined: no such URN) in the same statement: one
   * statement per walk instead of two.
   */
  sync(urn: string): { readonly changed: boolean; readonly id: number | undefined } {
    const [dataVersion, changes, id] = this.version.get(urn) as [number, number, number | null]
    const now = this.db.inTransaction ? undefined : `${dataVersion},${changes}`
    const changed = now === undefined || now !== this.seen
    if (changed) this.forgetAll()
    this.seen = now
    return { changed, id: id ?? undefined }
  }

  /** Whether entity `id` is known (its URN, or that there is no such entity). */
  knows(id: number): boolean {
    const slot = id % MEMO_SLOTS
    const slots = this.slots
    return slots !== undefined && slots.stamps[slot] === this.stamp && slots.ids[slot] === id
  }

  /** The URN of entity `id` (`''`: none), if known. */
  urn(id: number): string | undefined {
    const slots = this.slots
    if (slots === undefined || !this.knows(id)) return undefined
    const at = (id % MEMO_SLOTS) * MEMO_URN_BYTES
    return slots.bytes.toString('utf8', at, at + (slots.lengths[id % MEMO_SLOTS] as number))
  }

  /** Whether entity `id` is known to be soft-deleted (false when not known). */
  isRemoved(id: number): boolean {
    return this.knows(id) && this.slots?.removed[id % MEMO_SLOTS] === 1
  }

  /**
   * Remembers entity `id`'s URN (`''`: none) and whether it is soft-deleted, in place of its
   * slot's entity; a URN longer than a slot is not remembered (its entity is read again).
   */
  learn(id: number, urn: string, removed: boolean): void {
    const slot = id % MEMO_SLOTS
    this.slots ??= newSlots()
    const slots = this.slots
    // A UTF-16 unit is at most 3 bytes of UTF-8: only a long URN needs measuring.
    const fits = urn.length * 3 <= MEMO_URN_BYTES || Buffer.byteLength(urn) <= MEMO_URN_BYTES
    if (!fits) {
      // The slot's entity may be the one whose URN changed size: forget it.
      if (slots.ids[slot] === id) slots.stamps[slot] = 0
      return
    }
    slots.lengths[slot] = slots.bytes.write(urn, slot * MEMO_URN_BYTES, MEMO_URN_BYTES, 'utf8')
    slots.ids[slot] = id
    slots.stamps[slot] = this.stamp
    slots.removed[slot] = removed ? 1 : 0
  }

  private forgetAll(): void {
    // A new stamp makes every slot unknown without touching them; when the counter wraps, the
    // stamps are cleared so that no slot of an old state matches.
    if (this.stamp === 0xffff_ffff) {
      this.slots?.stamps.fill(0)
      this.stamp = 0
    }
    this.stamp++
  }
}

/** The memo's slots, each array indexed by slot. */
interface Slots {
  /** The id in each slot; only a slot whose `stamps` entry is the current stamp counts. */
  readonly ids: Float64Array
  /** The store state each slot was filled in (see {@link LineageMemo.sync}); 0: never. */
  readonly stamps: Uint32Array
  /** 1: the entity is soft-deleted. */
  readonly removed: Uint8Array
  /** Bytes of each slot's URN in `bytes`; 0: no such entity. */
  readonly lengths: Uint8Array
  /** {@link MEMO_URN_BYTES} per slot. */
  readonly bytes: Buffer
}

function newSlots(): Slots {
  return {
    ids: new Float64Array(MEMO_SLOTS),
    stamps: new Uint32Array(MEMO_SLOTS),
    removed: new Uint8Array(MEMO_SLOTS),
    lengths: new Uint8Array(MEMO_SLOTS),
    bytes: Buffer.alloc(MEMO_SLOTS * MEMO_URN_BYTES),
  }
}
