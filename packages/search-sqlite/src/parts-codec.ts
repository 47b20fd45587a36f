import type { DocumentFields, SearchSchema } from '@catalog/search'

type Parts = Record<string, DocumentFields>

/** Letters of the codes: never a JSON array index, so objects keep their keys in written order. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** Marks a key written as its name: a name the dictionary does not hold. */
const LITERAL = '='

/**
 * The stored form of a document's contributions (`docs.parts`): the JSON object of aspect to
 * field to values, with each aspect and field name written as a short code (one or two
 * letters) from a dictionary of every aspect and index field name of the model, sorted. A name
 * not in it (none today) is written as `=name`. Most of the names' bytes go: about 1,190 ->
 * 850 characters for a dataset. The SQL JSON functions still read it, by the paths of
 * {@link path}. The dictionary is recorded in the file (`meta.names`); a model whose names
 * changed rewrites every document (see `ensureLayout`).
 */
export class PartsCodec {
  /** The dictionary: the model's aspect and index field names, sorted. */
  readonly names: readonly string[]
  private readonly codes = new Map<string, string>()
  private readonly byCode = new Map<string, string>()
  /** A name's key as JSON text followed by `:`, as {@link encode} writes it, made once per name. */
  private readonly members = new Map<string, string>()

  constructor(names: readonly string[]) {
    this.names = names
    names.forEach((name, i) => {
      const code = codeOf(i)
      this.codes.set(name, code)
      this.byCode.set(code, name)
    })
  }

  /** The codec of a schema: every aspect of its registry and every index field. */
  static of(schema: SearchSchema): PartsCodec {
    const names = new Set<string>()
    for (const a of schema.registry.allAspects()) names.add(a.name)
    for (const f of schema.allFields()) {
      names.add(f.name)
      for (const a of schema.aspectsOf(f.name)) names.add(a)
    }
    return new PartsCodec([...names].sort())
  }

  /**
   * The codec of stored parts written with `names` (undefined: layout 5 and before, whose keys
   * are the names themselves).
   */
  static stored(names: readonly string[] | undefined): PartsCodec {
    return names ? new PartsCodec(names) : LEGACY
  }

  /** A name's key in the stored JSON. */
  key(name: string): string {
    if (this === LEGACY) return name
    return this.codes.get(name) ?? `${LITERAL}${name}`
  }

  /** The JSON path of a field of an aspect in the stored parts (`$."b"."Cd"`). */
  path(aspect: string, field: string): string {
    const quote = (k: string) => `"${k.replace(/["\\]/g, '')}"`
    return `$.${quote(this.key(aspect))}.${quote(this.key(field))}`
  }

  /** The stored text of contributions (in the order given). */
  encode(parts: Readonly<Parts>): string {
    // Written as text: building coded objects to stringify cost twice the time.
    let out = '{'
    for (const aspect in parts) {
      const fields = parts[aspect] as DocumentFields
      if (out.length > 1) out += ','
      out += `${this.member(aspect)}{`
      let first = true
      for (const field in fields) {
        if (!first) out += ','
        first = false
        out += this.member(field) + JSON.stringify(fields[field])
      }
      out += '}'
    }
    return `${out}}`
  }

  /** Contributions from their stored text. */
  decode(text: string): Parts {
    const stored = JSON.parse(text) as Record<string, Record<string, DocumentFields[string]>>
    if (this === LEGACY) return stored as Parts
    const out: Record<string, DocumentFields> = {}
    for (const [aspect, fields] of Object.entries(stored)) {
      const named: Record<string, DocumentFields[string]> = {}
      for (const [field, values] of Object.entries(fields)) named[this.name(field)] = values
      out[this.name(aspect)] = named
    }
    return out
  }

  /** `"<key>":` of a name; kept for the dictionary's names only, so the map stays bounded. */
  private member(name: string): string {
    let member = this.members.get(name)
    if (member === undefined) {
      member = `${JSON.stringify(this.key(name))}:`
      if (this.codes.has(name)) this.members.set(name, member)
    }
    return member
  }

  private name(key: string): string {
    if (key.startsWith(LITERAL)) return key.slice(LITERAL.length)
    const name = this.byCode.get(key)
    if (name === undefined) throw new Error(`stored search document has an unknown name code: ${key}`)
    return name
  }
}

/** Parts as layout 5 and before stored them: names as they are. */
const LEGACY = new PartsCodec([])

/** The code of the `i`th name: one letter for the first 52, then two letters, and so on. */
function codeOf(i: number): string {
  let code = ''
  let n = i
  for (;;) {
    code = (LETTERS[n % LETTERS.length] as string) + code
    n = Math.floor(n / LETTERS.length) - 1
    if (n < 0) return code
  }
}
