/**
 * A Cypher statement: constant text plus the names of the `$parameters` it reads. Values
 * only ever travel as parameters; the text never contains data. `Tx.run` is typed by the
 * declared names, so a call site cannot forget or misspell a parameter, and a unit test
 * checks that every declared name is the exact set the text uses.
 */
export interface Statement<K extends string = string> {
  readonly text: string
  readonly params: readonly K[]
}

/** The parameter values of a statement, by name. */
export type Params<K extends string> = { readonly [P in K]: unknown }

/** Declares a statement; `params` lists every `$name` the text uses. */
export function cypher<const K extends string = never>(text: string, ...params: K[]): Statement<K> {
  return { text: text.replace(/\s+/g, ' ').trim(), params }
}

/** The distinct `$parameter` names a statement text uses, sorted. */
export function parametersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? ''))].sort()
}

/** One statement result row, as plain values. */
export type Row = Record<string, unknown>

/** Runs typed statements inside one transaction (a driver transaction, or a test double). */
export interface QueryRunner {
  /** Runs a statement with exactly its declared parameters; resolves to its rows. */
  run<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row[]>
  /** Runs a statement that returns exactly one row. */
  one<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row>
}
