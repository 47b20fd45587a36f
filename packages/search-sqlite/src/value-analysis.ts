import { indexWords, isUrn, urnKeys, valueText } from '@catalog/search'

const URN_HEAD = /^urn:li:([A-Za-z0-9_]+):/

/** The keys of a value that is not a URN (shared: callers only read it). */
const NO_KEYS: readonly string[] = []

/**
 * Entries each generation of a memo holds by default (a memo holds at most two generations): for
 * a bulk build, which goes through every value of the catalog once.
 */
const BULK_MEMO_ENTRIES = 50_000
/**
 * The same for the live index's writes. Its memos stay for the process's life, and filled with
 * values of a stream of new datasets they held most of the search thread's live heap (~35 MB of
 * it after the ingest benchmark's 1,000,000 aspects); at 10,000 the catalog's RSS after them was
 * 339 MB against 378 MB (3 runs, `bench/ingest-rss.ts`) at the same CPU per ingested aspect.
 */
export const LIVE_MEMO_ENTRIES = 10_000
/** Longer values (descriptions) are analysed every time: they seldom repeat. */
const MAX_LENGTH = 256

/**
 * The indexed words and URN keys of document values, memoized: the same values recur across
 * documents (platforms, upstream datasets, tags, owners, environments), and analysing a URN
 * (members, folding, word parts) costs more than writing its rows. Bounded: a memo keeps the
 * values of its last two generations of `maxEntries` each, so a value still recurring (an
 * upstream of the datasets being written) survives a full generation, unlike with a memo that
 * empties itself when full.
 */
export class ValueAnalysis {
  // Each memo is made with its analysis, so a look-up allocates no closure.
  private readonly wordMemo: Memo<readonly string[]>
  private readonly textMemo: Memo<string>
  private readonly keyMemo: Memo<readonly string[]>

  /**
   * `urnTypes`: the entity types whose URNs' tuple ids the `exact` values answer (see
   * {@link keys}); `maxEntries`: the size of each memo's generation.
   */
  constructor(
    private readonly urnTypes: ReadonlySet<string>,
    maxEntries = BULK_MEMO_ENTRIES,
  ) {
    this.wordMemo = new Memo((value) => indexWords(valueText(value)), maxEntries)
    this.textMemo = new Memo((value) => this.words(value).join(' '), maxEntries)
    this.keyMemo = new Memo((value) => this.analyzeKeys(value), maxEntries)
  }

  /** The words a value is indexed under (see `indexWords`). */
  words(value: string): readonly string[] {
    return this.wordMemo.get(value)
  }

  /** The words a value is indexed under as one text, space-separated ('' for none). */
  text(value: string): string {
    return this.textMemo.get(value)
  }

  /**
   * The short keys a URN value answers to in `field:value` (none for a value that is not a URN),
   * but for the tuple id of a URN of one of the `urnTypes` written in ASCII (the
   * `(urn:li:dataplatform:hive,db.t,prod)` of a dataset URN): the value itself, in `exact`
   * (compared without ASCII case), answers it (see {@link tupleKeyAnswered}).
   */
  keys(value: string): readonly string[] {
    return this.keyMemo.get(value)
  }

  private analyzeKeys(value: string): readonly string[] {
    if (!isUrn(value)) return NO_KEYS
    const keys = urnKeys(value)
    const head = URN_HEAD.exec(value)
    if (!head || !this.urnTypes.has(head[1] as string)) return keys
    const id = value.slice(head[0].length)
    return id.startsWith('(') ? keys.filter((k) => !(k === id.toLowerCase() && tupleKeyAnswered(id))) : keys
  }
}

/** A two-generation memo of analysed values. */
class Memo<T> {
  private current = new Map<string, T>()
  private previous = new Map<string, T>()

  constructor(
    private readonly compute: (value: string) => T,
    private readonly maxEntries: number,
  ) {}

  get(value: string): T {
    if (value.length > MAX_LENGTH) return this.compute(value)
    let out = this.current.get(value)
    if (out !== undefined) return out
    out = this.previous.get(value) ?? this.compute(value)
    if (this.current.size >= this.maxEntries) {
      this.previous = this.current
      this.current = new Map()
    }
    this.current.set(value, out)
    return out
  }
}

/**
 * True when a URN's id folds (as the index folds keys) to what SQLite's NOCASE sees in it: ASCII
 * letters lower-cased and nothing else changed, so `exact` finds the value by its folded id.
 */
export function tupleKeyAnswered(id: string): boolean {
  return /^[\x20-\x7e]*$/.test(id)
}
