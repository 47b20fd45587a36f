import type Database from 'better-sqlite3'

/** Rows per multi-row INSERT: a statement run costs about as much as writing a few rows. */
const ROWS_PER_STATEMENT = 64
/**
 * Rows per INSERT of what is left at a flush: a live write of a few documents leaves tens of rows
 * (a new dataset has 5-10), which ran a statement each.
 */
const ROWS_PER_TAIL_STATEMENT = 8

/**
 * Buffers the rows of one `INSERT ... VALUES (...)` and writes them 64 to a statement: most of a
 * small row's cost is running its statement. The rows are written by {@link flush} at the
 * latest, which must come before anything reads the table; {@link clear} drops them (after the
 * transaction they belonged to failed).
 */
export class RowBuffer {
  private values: unknown[] = []
  private readonly one: Database.Statement
  private readonly many: Database.Statement
  private readonly few: Database.Statement

  /** `insert` is the single-row statement, ending with its `VALUES (?, ...)` of `width` columns. */
  constructor(
    db: Database.Database,
    insert: string,
    private readonly width: number,
  ) {
    const at = insert.lastIndexOf('VALUES')
    const row = insert.slice(at + 'VALUES'.length).trim()
    this.one = db.prepare(insert)
    const rows = (n: number) => `${insert.slice(0, at)}VALUES ${Array(n).fill(row).join(', ')}`
    this.many = db.prepare(rows(ROWS_PER_STATEMENT))
    this.few = db.prepare(rows(ROWS_PER_TAIL_STATEMENT))
  }

  add(...row: unknown[]): void {
    for (const v of row) this.values.push(v)
    if (this.values.length === this.width * ROWS_PER_STATEMENT) {
      this.many.run(this.values)
      this.values = []
    }
  }

  flush(): void {
    const few = this.width * ROWS_PER_TAIL_STATEMENT
    let i = 0
    for (; i + few <= this.values.length; i += few) this.few.run(this.values.slice(i, i + few))
    for (; i < this.values.length; i += this.width) this.one.run(this.values.slice(i, i + this.width))
    this.values = []
  }

  clear(): void {
    this.values = []
  }
}
