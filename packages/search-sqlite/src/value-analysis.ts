import { indexWords, isUrn, urnKeys, valueText } from '@catalog/search'

/** Entries each memo holds before it starts over. */
const MAX_ENTRIES = 50_000
/** Longer values (descriptions) are analysed every time: they seldom repeat. */
const MAX_LENGTH = 256

/**
 * The indexed words and URN keys of document values, memoized: the same values recur across
 * documents (platforms, upstream datasets, tags, owners, environments), and analysing a URN
 * (members, folding, word parts) costs more than writing its rows. Bounded: a memo that fills
 * up is emptied.
 */
export class ValueAnalysis {
  private readonly wordMemo = new Map<string, readonly string[]>()
  private readonly keyMemo = new Map<string, readonly string[]>()

  /** The words a value is indexed under (see `indexWords`). */
  words(value: string): readonly string[] {
    return memoized(this.wordMemo, value, () => indexWords(valueText(value)))
  }

  /** The short keys a URN value answers to in `field:value` (none for a value that is not a URN). */
  keys(value: string): readonly string[] {
    return memoized(this.keyMemo, value, () => (isUrn(value) ? urnKeys(value) : []))
  }
}

function memoized(
  memo: Map<string, readonly string[]>,
  value: string,
  compute: () => readonly string[],
): readonly string[] {
  if (value.length > MAX_LENGTH) return compute()
  let out = memo.get(value)
  if (!out) {
    out = compute()
    if (memo.size >= MAX_ENTRIES) memo.clear()
    memo.set(value, out)
  }
  return out
}
