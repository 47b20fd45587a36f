import { expandField, fold, type QueryNode, queryWords, typoBudget } from '@catalog/search'
import { ftsColumn } from './ddl.js'
import { urnHash } from './urn-hash.js'
import type { WordLookups } from './word-lookups.js'

/** A piece of SQL and its parameters. */
export interface Sql {
  readonly sql: string
  readonly params: readonly unknown[]
}

/** What the compiler needs to know about the index. */
export interface CompileContext {
  /** Analysed fields, in FTS column order. */
  readonly ftsFields: readonly string[]
  /** The id of an index field, or undefined when no document ever had it. */
  readonly fieldId: (name: string) => number | undefined
  /** False for free-text fields, whose exact values the index does not keep. */
  readonly isExact: (name: string) => boolean
  /** Entity types whose URN tuple ids are found through the exact values (see {@link tupleIds}). */
  readonly urnTypes: ReadonlySet<string>
  readonly vocabulary: WordLookups
}

/** The searched entity types, their default fields and each field's boost. */
export interface QueryScope {
  readonly entityTypes: readonly string[]
  readonly defaultFields: ReadonlyMap<string, number>
}

/** A node's rows: one per matching document: `doc_id`, `terms` (clauses matched) and `score`. */
const NOTHING: Sql = { sql: 'SELECT NULL AS doc_id, 0 AS terms, 0.0 AS score WHERE 0', params: [] }
/** Score of a match through a typo variant only: below any exact or prefix match, not worth a bm25 pass. */
const TYPO_SCORE = 0.001
/** Indexed words a prefix is expanded to at most (more: FTS5's own prefix query). */
const MAX_COMPLETIONS = 32

/**
 * The FTS5 form of a word matched as a prefix: the indexed words it starts, when the vocabulary
 * knows them and they are few (FTS5 then streams their lists in id order, so a bounded read
 * stops early), else FTS5's own prefix query (which merges every list first).
 */
export function prefixForm(vocabulary: WordLookups, word: string): string {
  const words = vocabulary.completions(word, MAX_COMPLETIONS)
  if (!words) return `"${word}" *`
  if (words.length === 0) return `"${word}"`
  return words.length === 1 ? `"${words[0]}"` : `(${words.map((w) => `"${w}"`).join(' OR ')})`
}

/**
 * Compiles a parsed query to one SQL select over the index: free words through FTS5 (prefix
 * match scored by bm25 with the scope's field boosts; typo variants from the vocabulary, ranked
 * after every exact or prefix match), `field:value` through the exact values, URN keys and the field's FTS column, and
 * boolean clauses by grouping. It records the typo variants it used, for `matchedFields`.
 */
export class QueryCompiler {
  readonly variants = new Map<string, string[]>()
  private readonly weights: string
  private readonly defaultColumns: string

  constructor(
    private readonly ctx: CompileContext,
    private readonly scope: QueryScope,
    /** False for a count: rows then carry no relevance (bm25 is the costly part of a broad match). */
    private readonly scored = true,
    /** Only documents with an id up to this one (a bounded read of a broad query). */
    private readonly maxDocId = Number.MAX_SAFE_INTEGER,
  ) {
    this.weights = ctx.ftsFields.map((f) => String(scope.defaultFields.get(f) ?? 0)).join(', ')
    this.defaultColumns = ctx.ftsFields
      .filter((f) => scope.defaultFields.has(f))
      .map(ftsColumn)
      .join(' ')
  }

  /** The SQL of a node, or undefined for `*` (every document of the scope). */
  compile(node: QueryNode): Sql | undefined {
    return node.kind === 'all' ? undefined : this.node(node)
  }

  /** True when the compiled query streams in id order with no grouping (a LIMIT stops it early). */
  streams(node: QueryNode): boolean {
    return node.kind === 'field' || (!this.scored && this.matchExpr(node) !== undefined)
  }

  /**
   * The FTS5 forms of a words node, as {@link compile} matches it: `exact` (its words, as
   * prefixes unless quoted) and `typo` (its typo variants, if any), without column filter; or
   * undefined when nothing can match.
   */
  wordForms(node: QueryNode & { kind: 'words' }): { exact: string; typo: string | undefined } | undefined {
    const words = queryWords(node.text)
    const first = words[0]
    if (!first || this.defaultColumns === '') return undefined
    if (node.quoted) return { exact: `"${words.map((w) => w.word).join(' ')}"`, typo: undefined }
    if (words.length > 1) return { exact: `"${words.map((w) => w.word).join(' ')}" *`, typo: undefined }
    const exact =
      first.parts.length > 1
        ? `(${this.prefix(first.word)} OR "${first.parts.join(' ')}" *)`
        : this.prefix(first.word)
    const variants = this.typoVariants(first.word)
    return { exact, typo: variants.length > 0 ? variants.map((v) => `"${v}"`).join(' OR ') : undefined }
  }

  /** The scope's default FTS columns grouped by boost, best first (`{f_a f_b}` column lists). */
  boostTiers(): Array<{ readonly boost: number; readonly columns: string }> {
    const tiers = new Map<number, string[]>()
    for (const f of this.ctx.ftsFields) {
      const boost = this.scope.defaultFields.get(f)
      if (boost === undefined) continue
      tiers.set(boost, [...(tiers.get(boost) ?? []), ftsColumn(f)])
    }
    return [...tiers]
      .sort((a, b) => b[0] - a[0])
      .map(([boost, columns]) => ({ boost, columns: columns.join(' ') }))
  }

  /** Every default FTS column of the scope (`f_a f_b`). */
  get columns(): string {
    return this.defaultColumns
  }

  private node(node: QueryNode): Sql {
    // Unscored, a node made of words only is one FTS5 expression: one pass, in id order.
    const expr = this.scored ? undefined : this.matchExpr(node)
    if (expr !== undefined) return this.fts(expr)
    switch (node.kind) {
      case 'all':
        return this.all()
      case 'words':
        return node.quoted ? this.phrase(node.text) : this.words(node.text)
      case 'field':
        return this.field(node.field, node.value, node.prefix)
      case 'bool':
        return this.bool(node.must, node.should, node.mustNot)
    }
  }

  private all(): Sql {
    const marks = this.scope.entityTypes.map(() => '?').join(', ')
    return {
      sql: `SELECT id AS doc_id, 0 AS terms, 0.0 AS score FROM docs WHERE entity_type IN (${marks}) AND id <= ?`,
      params: [...this.scope.entityTypes, this.maxDocId],
    }
  }

  private words(text: string): Sql {
    const words = queryWords(text)
    const first = words[0]
    if (!first || this.defaultColumns === '') return NOTHING
    if (words.length > 1) return this.fts(`"${words.map((w) => w.word).join(' ')}" *`)
    const exact =
      first.parts.length > 1
        ? `(${this.prefix(first.word)} OR "${first.parts.join(' ')}" *)`
        : this.prefix(first.word)
    const variants = this.typoVariants(first.word)
    if (variants.length === 0) return this.fts(exact)
    const typo = variants.map((v) => `"${v}"`).join(' OR ')
    // Exact or prefix matches first, then typo-only ones: one stream in that order, with no
    // grouping, so a bounded read (the counted hits) stops early.
    const a = this.ftsRows(exact)
    // The exclusion reads the same matches unscored (bm25 twice would double the cost).
    const seen = this.ftsRows(exact, false)
    return {
      sql: `SELECT doc_id, 1 AS terms, score FROM (${a.sql}) UNION ALL SELECT t.rowid AS doc_id, 1 AS terms, ${TYPO_SCORE} AS score FROM fts t WHERE t.fts MATCH ? AND t.rowid <= ? AND t.rowid NOT IN (SELECT doc_id FROM (${seen.sql}))`,
      params: [...a.params, `{${this.defaultColumns}} : (${typo})`, this.maxDocId, ...seen.params],
    }
  }

  private prefix(word: string): string {
    return prefixForm(this.ctx.vocabulary, word)
  }

  private typoVariants(word: string): string[] {
    const variants = this.ctx.vocabulary.variants(word, typoBudget(word))
    if (variants.length > 0) this.variants.set(word, variants)
    return variants
  }

  /**
   * The FTS5 expression matching the same documents as a node of free words (typo variants
   * included), or undefined when the node needs more than words (fields, `*`, a lone NOT).
   */
  private matchExpr(node: QueryNode): string | undefined {
    if (this.defaultColumns === '') return undefined
    switch (node.kind) {
      case 'words': {
        const words = queryWords(node.text)
        const first = words[0]
        if (!first) return undefined
        if (node.quoted || words.length > 1)
          return `"${words.map((w) => w.word).join(' ')}"${node.quoted ? '' : ' *'}`
        const forms = [this.prefix(first.word)]
        if (first.parts.length > 1) forms.push(`"${first.parts.join(' ')}" *`)
        for (const v of this.typoVariants(first.word)) forms.push(`"${v}"`)
        return `(${forms.join(' OR ')})`
      }
      case 'bool': {
        const part = (nodes: readonly QueryNode[]) => nodes.map((n) => this.matchExpr(n))
        const [must, should, not] = [part(node.must), part(node.should), part(node.mustNot)]
        if ([...must, ...should, ...not].some((e) => e === undefined)) return undefined
        const positive = [...must, ...(should.length > 0 ? [`(${should.join(' OR ')})`] : [])]
        if (positive.length === 0) return undefined
        const base = `(${positive.join(' AND ')})`
        return not.length > 0 ? `(${base} NOT (${not.join(' OR ')}))` : base
      }
      default:
        return undefined
    }
  }

  private phrase(text: string): Sql {
    const words = queryWords(text).map((w) => w.word)
    if (words.length === 0 || this.defaultColumns === '') return NOTHING
    return this.fts(`"${words.join(' ')}"`)
  }

  private fts(expr: string): Sql {
    const rows = this.ftsRows(expr)
    return { sql: `SELECT doc_id, 1 AS terms, score FROM (${rows.sql})`, params: rows.params }
  }

  private ftsRows(expr: string, scored = this.scored): Sql {
    return {
      sql: `SELECT rowid AS doc_id, ${scored ? `-bm25(fts, ${this.weights})` : '0.0'} AS score FROM fts WHERE fts MATCH ? AND rowid <= ?`,
      params: [`{${this.defaultColumns}} : (${expr})`, this.maxDocId],
    }
  }

  private field(field: string, value: string, prefix: boolean): Sql {
    if (field === 'urn') {
      return {
        sql: prefix
          ? `SELECT id AS doc_id, 1 AS terms, 1.0 AS score FROM docs WHERE substr(urn, 1, length(?)) = ? AND id <= ?`
          : 'SELECT id AS doc_id, 1 AS terms, 1.0 AS score FROM docs WHERE urn_hash = ? AND urn = ? AND id <= ?',
        params: prefix ? [value, value, this.maxDocId] : [urnHash(value), value, this.maxDocId],
      }
    }
    const parts: string[] = []
    const params: unknown[] = []
    const folded = fold(value)
    for (const name of expandField(field)) {
      // Free-text fields keep no exact values: only their words (below) can match.
      const id = this.ctx.isExact(name) ? this.ctx.fieldId(name) : undefined
      if (id !== undefined && prefix) {
        parts.push(
          'SELECT doc_id FROM exact WHERE field = ? AND value >= ? COLLATE NOCASE AND value < ? COLLATE NOCASE AND doc_id <= ?',
        )
        params.push(id, value, `${value}\uffff`, this.maxDocId)
        parts.push('SELECT doc_id FROM urn_keys WHERE field = ? AND key >= ? AND key < ? AND doc_id <= ?')
        params.push(id, folded, `${folded}\uffff`, this.maxDocId)
      } else if (id !== undefined) {
        parts.push('SELECT doc_id FROM exact WHERE field = ? AND value = ? COLLATE NOCASE AND doc_id <= ?')
        params.push(id, value, this.maxDocId)
        parts.push('SELECT doc_id FROM urn_keys WHERE field = ? AND key = ? AND doc_id <= ?')
        params.push(id, folded, this.maxDocId)
      }
      const tuple = id === undefined ? undefined : this.tupleIds(id, folded, prefix)
      if (tuple) {
        parts.push(tuple.sql)
        params.push(...tuple.params)
      }
      if (this.ctx.ftsFields.includes(name)) {
        const words = queryWords(value).map((w) => w.word)
        if (words.length > 0) {
          parts.push('SELECT rowid AS doc_id FROM fts WHERE fts MATCH ? AND rowid <= ?')
          params.push(`{${ftsColumn(name)}} : ("${words.join(' ')}"${prefix ? ' *' : ''})`, this.maxDocId)
        }
      }
    }
    if (parts.length === 0) return NOTHING
    return {
      // Each part reads in id order, so the UNION is a streaming merge (a LIMIT stops it early).
      sql: `SELECT doc_id, 1 AS terms, 1.0 AS score FROM (${parts.join(' UNION ')} ORDER BY 1)`,
      params,
    }
  }

  /**
   * `field:(...)` (or `field:(...*`) through the exact values: a URN of one of the `urnTypes` whose
   * tuple id is ASCII has no URN key for that id (see `ValueAnalysis.keys`): its value is
   * `urn:li:<type>:` followed by the id, which compares equal to the folded query without ASCII
   * case (the type compared as it is). One lookup per type.
   */
  private tupleIds(fieldId: number, folded: string, prefix: boolean): Sql | undefined {
    if (!folded.startsWith('(') && !(prefix && folded === '')) return undefined
    const heads = [...this.ctx.urnTypes].map((type) => `urn:li:${type}:`)
    const typed = `substr(value, 1, 7 + instr(substr(value, 8), ':')) IN (${heads.map(() => '?').join(', ')})`
    if (!prefix)
      return {
        sql: `SELECT doc_id FROM exact WHERE field = ? AND value COLLATE NOCASE IN (${heads.map(() => '?').join(', ')}) AND ${typed} AND doc_id <= ?`,
        params: [fieldId, ...heads.map((h) => h + folded), ...heads, this.maxDocId],
      }
    const range =
      'SELECT doc_id, value FROM exact WHERE field = ? AND value >= ? COLLATE NOCASE AND value < ? COLLATE NOCASE AND doc_id <= ?'
    return {
      sql: `SELECT doc_id FROM (${heads.map(() => range).join(' UNION ALL ')}) WHERE ${typed}`,
      params: [
        ...heads.flatMap((h) => [fieldId, h + folded, `${h}${folded}\uffff`, this.maxDocId]),
        ...heads,
      ],
    }
  }

  private bool(must: readonly QueryNode[], should: readonly QueryNode[], mustNot: readonly QueryNode[]): Sql {
    const positive = [...must.map((n) => ({ n, m: 1 })), ...should.map((n) => ({ n, m: 0 }))]
    let base: Sql
    if (positive.length === 0) base = this.all()
    else if (positive.length === 1) base = this.node((positive[0] as { n: QueryNode }).n)
    else {
      const parts = positive.map(({ n, m }) => {
        const s = this.node(n)
        return { sql: `SELECT doc_id, terms, score, ${m} AS m FROM (${s.sql})`, params: s.params }
      })
      const shouldRule = should.length > 0 ? ' AND count(*) - sum(m) >= 1' : ''
      base = {
        sql: `SELECT doc_id, sum(terms) AS terms, sum(score) AS score FROM (${parts.map((p) => p.sql).join(' UNION ALL ')}) GROUP BY doc_id HAVING sum(m) = ${must.length}${shouldRule}`,
        params: parts.flatMap((p) => p.params),
      }
    }
    if (mustNot.length === 0) return base
    const negs = mustNot.map((n) => this.node(n))
    return {
      sql: `SELECT doc_id, terms, score FROM (${base.sql}) WHERE doc_id NOT IN (${negs.map((s) => `SELECT doc_id FROM (${s.sql})`).join(' UNION ')})`,
      params: [...base.params, ...negs.flatMap((s) => s.params)],
    }
  }
}
