import type Database from 'better-sqlite3'

/** Rows per multi-row INSERT: a statement run costs about as much as writing a few rows. */
const ROWS_PER_STATEMENT = 64

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

  /** `insert` is the single-row statement, ending with its `VALUES (?, ...)` of `width` columns. */
  constructor(
    db: Database.Database,
    insert: string,
    private readonly width: number,
  ) {
    const at = insert.lastIndexOf('VALUES')
    const row = insert.slice(at + 'VALUES'.length).trim()
    this.one = db.prepare(insert)
    this.many = db.prepare(`${insert.slice(0, at)}VALUES ${Array(ROWS_PER_STATEMENT).fill(row).join(', ')}`)
  }

  add(...row: unknown[]): void {
    for (const v of row) this.values.push(v)
    if (this.values.length === this.width * ROWS_PER_STATEMENT) {
      this.many.run(this.values)
      this.values = []
    }
  }

  flush(): void {
    for (let i = 0; i < this.values.length; i += this.width)
      this.one.run(this.values.slice(i, i + this.width))
    this.values = []
  }

  clear(): void {
    this.values = []
  }
}
