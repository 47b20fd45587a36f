import { InvalidInputError } from '@catalog/core'
import { checkLimit, SEARCH_LIMITS } from './limits.js'

/**
 * A parsed search query. Free words are `words` nodes (prefix-matched, typo tolerant);
 * `field:value` is a `field` node; `bool` combines clauses: every `must`, no `mustNot`, and
 * when there are `should` clauses at least one of them; hits that match more `should` clauses
 * rank first.
 */
export type QueryNode =
  | { readonly kind: 'all' }
  | {
      readonly kind: 'words'
      readonly text: string
      /** A quoted phrase: the words in order, no prefix or typo matching. */
      readonly quoted: boolean
    }
  | {
      readonly kind: 'field'
      readonly field: string
      readonly value: string
      /** `field:value*`: values starting with `value`. */
      readonly prefix: boolean
    }
  | {
      readonly kind: 'bool'
      readonly must: readonly QueryNode[]
      readonly should: readonly QueryNode[]
      readonly mustNot: readonly QueryNode[]
    }

/** The whole query `*`. */
export const MATCH_ALL: QueryNode = { kind: 'all' }

type Token =
  | { t: 'lparen' }
  | { t: 'rparen' }
  | { t: 'and' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: 'plus' }
  | { t: 'minus' }
  | { t: 'phrase'; text: string }
  | { t: 'word'; text: string; colon: number }
  | { t: 'fieldPhrase'; field: string; text: string }

/**
 * Parses a query string: words, `"phrases"`, `field:value`, `field:"a phrase"`, `field:val*`,
 * `*`, `AND`, `OR`, `NOT`, `+word`, `-word`, parentheses and `\` escapes. URNs (`urn:li:...`)
 * match the `urn` field. `isField` says which field names exist; an unknown one, an unbalanced
 * quote or parenthesis, a `field:` without a value or a dangling operator is an
 * {@link InvalidInputError}.
 */
export function parseQuery(input: string, isField: (name: string) => boolean): QueryNode {
  const text = input.trim()
  if (text === '' || text === '*') return MATCH_ALL
  checkLimit('characters in the search query', text.length, SEARCH_LIMITS.maxQueryChars)
  const tokens = lex(text, input)
  checkLimit(
    'terms in the search query (words, phrases and field:value)',
    tokens.filter((t) => t.t === 'word' || t.t === 'phrase' || t.t === 'fieldPhrase').length,
    SEARCH_LIMITS.maxQueryTerms,
  )
  const parser = new Parser(tokens, input, isField)
  const node = parser.sequence()
  if (!parser.done()) parser.fail('unbalanced parenthesis')
  return node
}

const LITERAL_END = new Set([' ', '\t', '\n', '\r', '(', ')', '"'])

function lex(text: string, input: string): Token[] {
  const fail = (why: string): never => {
    throw new InvalidInputError(`Invalid search query '${input}': ${why}`)
  }
  const out: Token[] = []
  let i = 0
  const readPhrase = (): string => {
    let s = ''
    i++ // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && i + 1 < text.length) i++
      s += text[i]
      i++
    }
    if (i >= text.length) fail('unbalanced quote')
    i++ // closing quote
    return s
  }
  while (i < text.length) {
    const c = text[i] as string
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++
    } else if (c === '(') {
      out.push({ t: 'lparen' })
      i++
    } else if (c === ')') {
      out.push({ t: 'rparen' })
      i++
    } else if (c === '"') {
      out.push({ t: 'phrase', text: readPhrase() })
    } else if ((c === '+' || c === '-') && i + 1 < text.length && !/\s/.test(text[i + 1] as string)) {
      out.push({ t: c === '+' ? 'plus' : 'minus' })
      i++
    } else if (text.startsWith('urn:li:', i)) {
      // A URN is one word, its parentheses and commas included.
      let depth = 0
      const start = i
      while (i < text.length && (depth > 0 || !/\s/.test(text[i] as string))) {
        if (text[i] === '(') depth++
        else if (text[i] === ')') {
          if (depth === 0) break
          depth--
        }
        i++
      }
      if (depth > 0) fail('unbalanced parenthesis in a URN')
      out.push({ t: 'word', text: text.slice(start, i), colon: 3 })
    } else {
      let word = ''
      let colon = -1
      while (i < text.length && !LITERAL_END.has(text[i] as string)) {
        if (text[i] === '\\' && i + 1 < text.length) {
          word += text[i + 1]
          i += 2
          continue
        }
        if (text[i] === ':' && colon < 0) colon = word.length
        word += text[i]
        i++
      }
      if (colon >= 0 && colon === word.length - 1 && text[i] === '"') {
        out.push({ t: 'fieldPhrase', field: word.slice(0, -1), text: readPhrase() })
      } else if (colon >= 0 && colon === word.length - 1 && text[i] === '(') {
        fail(`field groups are not supported ('${word}(...)'); write ${word}a OR ${word}b`)
      } else if (word === 'AND' || word === '&&') out.push({ t: 'and' })
      else if (word === 'OR' || word === '||') out.push({ t: 'or' })
      else if (word === 'NOT') out.push({ t: 'not' })
      else out.push({ t: 'word', text: word, colon })
    }
  }
  return out
}

interface Clause {
  readonly node: QueryNode
  readonly occur: 'must' | 'should' | 'mustNot' | 'default'
  /** A `field:value` clause: a constraint unless the sequence uses OR. */
  readonly isField: boolean
}

class Parser {
  private pos = 0
  private depth = 0

  constructor(
    private readonly tokens: Token[],
    private readonly input: string,
    private readonly isField: (name: string) => boolean,
  ) {}

  done(): boolean {
    return this.pos >= this.tokens.length
  }

  fail(why: string): never {
    throw new InvalidInputError(`Invalid search query '${this.input}': ${why}`)
  }

  /** Clauses side by side (or joined by OR) until `)` or the end. */
  sequence(): QueryNode {
    const clauses: Clause[] = []
    let usesOr = false
    while (!this.done() && this.peek()?.t !== 'rparen') {
      if (this.peek()?.t === 'or') {
        if (clauses.length === 0) this.fail('OR needs a clause on each side')
        this.pos++
        usesOr = true
        if (this.done() || this.peek()?.t === 'rparen') this.fail('OR needs a clause on each side')
        continue
      }
      clauses.push(this.andChain())
    }
    if (clauses.length === 0) this.fail('empty query or group')
    const must: QueryNode[] = []
    const should: QueryNode[] = []
    const mustNot: QueryNode[] = []
    for (const c of clauses) {
      if (c.occur === 'must' || (c.occur === 'default' && c.isField && !usesOr)) must.push(c.node)
      else if (c.occur === 'mustNot') mustNot.push(c.node)
      else should.push(c.node)
    }
    if (must.length === 0 && mustNot.length === 0 && should.length === 1) return should[0] as QueryNode
    if (should.length === 0 && mustNot.length === 0 && must.length === 1) return must[0] as QueryNode
    return { kind: 'bool', must, should, mustNot }
  }

  private andChain(): Clause {
    const first = this.unary()
    if (this.peek()?.t !== 'and') return first
    const parts: QueryNode[] = [asMust(first)]
    const mustNot: QueryNode[] = []
    while (this.peek()?.t === 'and') {
      this.pos++
      if (this.done() || this.peek()?.t === 'rparen' || this.peek()?.t === 'or')
        this.fail('AND needs a clause on each side')
      const next = this.unary()
      if (next.occur === 'mustNot') mustNot.push(next.node)
      else parts.push(next.node)
    }
    return { node: { kind: 'bool', must: parts, should: [], mustNot }, occur: 'default', isField: false }
  }

  private unary(): Clause {
    const tok = this.peek()
    if (!tok) this.fail('a clause is missing')
    if (tok.t === 'not' || tok.t === 'minus') {
      this.pos++
      if (this.done() || this.peek()?.t === 'rparen')
        this.fail(`${tok.t === 'not' ? 'NOT' : '-'} needs a clause`)
      return { node: this.nested(() => this.unary()).node, occur: 'mustNot', isField: false }
    }
    if (tok.t === 'plus') {
      this.pos++
      return { node: this.nested(() => this.unary()).node, occur: 'must', isField: false }
    }
    return this.primary()
  }

  private primary(): Clause {
    const tok = this.tokens[this.pos++]
    if (!tok) this.fail('a clause is missing')
    switch (tok.t) {
      case 'lparen': {
        if (this.peek()?.t === 'rparen') this.fail('empty group ()')
        const node = this.nested(() => this.sequence())
        if (this.tokens[this.pos++]?.t !== 'rparen') this.fail('unbalanced parenthesis')
        return { node, occur: 'default', isField: false }
      }
      case 'rparen':
        return this.fail('unbalanced parenthesis')
      case 'phrase':
        if (tok.text.trim() === '') this.fail('empty phrase ""')
        return { node: { kind: 'words', text: tok.text, quoted: true }, occur: 'default', isField: false }
      case 'fieldPhrase':
        return {
          node: this.fieldNode(tok.field, tok.text, false),
          occur: 'default',
          isField: true,
        }
      case 'word':
        return this.word(tok.text, tok.colon)
      default:
        return this.fail(`misplaced ${tok.t.toUpperCase()}`)
    }
  }

  private word(text: string, colon: number): Clause {
    if (text === '*') return { node: MATCH_ALL, occur: 'default', isField: false }
    if (/^urn:li:/i.test(text))
      return {
        node: { kind: 'field', field: 'urn', value: text, prefix: false },
        occur: 'default',
        isField: true,
      }
    if (colon === 0) return this.word(text.replace(/^:+/, ''), text.replace(/^:+/, '').indexOf(':'))
    if (colon > 0) {
      const field = text.slice(0, colon)
      let value = text.slice(colon + 1)
      if (value === '') this.fail(`'${field}:' has no value`)
      const prefix = value.length > 1 && value.endsWith('*')
      if (prefix) value = value.slice(0, -1)
      return { node: this.fieldNode(field, value, prefix), occur: 'default', isField: true }
    }
    const stripped = text.endsWith('*') ? text.slice(0, -1) : text
    return { node: { kind: 'words', text: stripped, quoted: false }, occur: 'default', isField: false }
  }

  private fieldNode(rawField: string, value: string, prefix: boolean): QueryNode {
    const field = rawField.endsWith('.keyword') ? rawField.slice(0, -'.keyword'.length) : rawField
    if (field === '') this.fail(`'${rawField}:' names no field`)
    if (!this.isField(field)) this.fail(`unknown field '${field}'`)
    if (value.trim() === '') this.fail(`'${field}:' has no value`)
    return { kind: 'field', field, value, prefix }
  }

  /** Parses one level deeper, within {@link SEARCH_LIMITS.maxQueryDepth}. */
  private nested<T>(parse: () => T): T {
    this.depth++
    checkLimit('nested groups and operators in the search query', this.depth, SEARCH_LIMITS.maxQueryDepth)
    try {
      return parse()
    } finally {
      this.depth--
    }
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos]
  }
}

function asMust(c: Clause): QueryNode {
  return c.occur === 'mustNot' ? { kind: 'bool', must: [], should: [], mustNot: [c.node] } : c.node
}
