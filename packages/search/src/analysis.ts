/**
 * Text analysis shared by adapters: how values become words (DataHub's word-delimiter
 * analysers: split on punctuation, camelCase and letter/digit changes, lower-cased, accents
 * removed), what a URN says in words, and the typo budget of a query word.
 */

const NON_WORD = /[^\p{L}\p{N}]+/u
const PART_BOUNDARY =
  /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u
const MARKS = /\p{M}+/gu
const URN_PREFIX = /^urn:li:[A-Za-z0-9_]+:/

/** Lower-cases and strips accents, as the index's tokenizer does. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase()
}

/** The raw words of a text (runs of letters and digits), case kept. */
export function rawWords(text: string): string[] {
  return text.split(NON_WORD).filter((w) => w.length > 0)
}

/** The parts of one raw word: `SampleHiveDataset` gives Sample, Hive, Dataset; `covid19` gives covid, 19. */
export function wordParts(word: string): string[] {
  return word.split(PART_BOUNDARY).filter((p) => p.length > 0)
}

/**
 * The indexed words of a text: each word folded, followed by its parts when it has several
 * (`SampleHiveDataset` gives samplehivedataset, sample, hive, dataset).
 */
export function indexWords(text: string): string[] {
  const out: string[] = []
  for (const word of rawWords(text)) {
    out.push(fold(word))
    const parts = wordParts(word)
    if (parts.length > 1) for (const p of parts) out.push(fold(p))
  }
  return out
}

/** A query word: the folded word and, when it has several, its folded parts. */
export interface QueryWord {
  readonly word: string
  readonly parts: readonly string[]
}

/** The words of a query text. */
export function queryWords(text: string): QueryWord[] {
  return rawWords(text).map((w) => {
    const parts = wordParts(w)
    return { word: fold(w), parts: parts.length > 1 ? parts.map(fold) : [] }
  })
}

/** True for a `urn:li:<type>:<id>` string. */
export function isUrn(value: string): boolean {
  return URN_PREFIX.test(value)
}

/**
 * The members of a URN, URNs inside it expanded: `urn:li:tag:Legacy` gives [Legacy];
 * `urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)` gives [hive,
 * SampleHiveDataset, PROD]. A string that is not a URN gives itself.
 */
export function urnMembers(value: string): string[] {
  const match = URN_PREFIX.exec(value)
  if (!match) return [value]
  const id = value.slice(match[0].length)
  if (!(id.startsWith('(') && id.endsWith(')'))) return [id]
  return splitTuple(id.slice(1, -1)).flatMap(urnMembers)
}

/** What a value says in words: a URN's members, anything else as it is. */
export function valueText(value: string): string {
  return isUrn(value) ? urnMembers(value).join(' ') : value
}

/**
 * The case-folded keys a URN answers to in `field:value` (besides the URN itself): its id and
 * each member (`platform:kafka`, `tags:Legacy`, `owners:jdoe`).
 */
export function urnKeys(value: string): string[] {
  const match = URN_PREFIX.exec(value)
  if (!match) return []
  const keys = new Set([fold(value.slice(match[0].length))])
  for (const m of urnMembers(value)) keys.add(fold(m))
  keys.delete(fold(value))
  return [...keys]
}

/** Typos allowed in a query word: none under 5 characters, one from 5, two from 9; none for numbers. */
export function typoBudget(word: string): number {
  if (/^\p{N}+$/u.test(word)) return 0
  const n = [...word].length
  return n >= 9 ? 2 : n >= 5 ? 1 : 0
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions and adjacent
 * transpositions each cost one) when it is at most `max`, else `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  if (a === b) return 0
  const n = b.length
  let prev2 = new Array<number>(n + 1).fill(0)
  let prev = Array.from({ length: n + 1 }, (_, j) => j)
  let cur = new Array<number>(n + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i
    let rowMin = i
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost)
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      )
        v = Math.min(v, (prev2[j - 2] as number) + 1)
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    ;[prev2, prev, cur] = [prev, cur, prev2]
  }
  const d = prev[n] as number
  return d > max ? max + 1 : d
}

function splitTuple(inner: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]
    if (c === '(') depth++
    else if (c === ')') depth--
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i))
      start = i + 1
    }
  }
  out.push(inner.slice(start))
  return out
}
