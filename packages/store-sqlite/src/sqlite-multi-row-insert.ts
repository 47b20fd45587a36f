import type Database from 'better-sqlite3'

/** Most parameters one INSERT binds: far below SQLite's limit (32,766), and few statements to prepare. */
const MAX_PARAMS = 640

/**
 * Rows a write batch adds to one table, written a statement for many rows rather than one each.
 * A new dataset adds ten (its aspect and four default aspects, and a change-log entry for
 * each): each INSERT costs a statement's overhead, and one into `change_log`, whose key is
 * AUTOINCREMENT, also a lookup and an update of `sqlite_sequence`. The caller queues rows with
 * {@link params} and {@link added}, and calls {@link flush} (inside the batch's transaction)
 * before anything reads or changes the table, and at the batch's end; rows keep their order,
 * so their row ids are the ones writing each at once would have given.
 */
export class MultiRowInsert {
  /** The queued rows' parameters, row after row: the caller pushes a row's, then calls {@link added}. */
  params: unknown[] = []
  private rows = 0
  private readonly maxRows: number
  private readonly statements: Database.Statement[] = []
  /** The row id of the last row written since the last {@link flush} or {@link discard}. */
  private last: number | undefined

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly columns: readonly string[],
  ) {
    this.maxRows = Math.floor(MAX_PARAMS / columns.length)
  }

  /** Notes a row whose parameters were pushed on {@link params}; writes the queue once it is full. */
  added(): void {
    if (++this.rows === this.maxRows) this.write()
  }

  /** Whether rows are queued. */
  get pending(): boolean {
    return this.rows > 0
  }

  /**
   * Writes the queued rows; returns the row id of the last row written since the last flush or
   * discard (undefined for none).
   */
  flush(): number | undefined {
    if (this.rows > 0) this.write()
    const last = this.last
    this.last = undefined
    return last
  }

  /** Drops the queued rows (their batch failed, and its transaction is rolled back). */
  discard(): void {
    this.params = []
    this.rows = 0
    this.last = undefined
  }

  private write(): void {
    const info = this.statement(this.rows).run(this.params)
    this.last = Number(info.lastInsertRowid)
    this.params = []
    this.rows = 0
  }

  /** The INSERT of `rows` rows, prepared at its first use. */
  private statement(rows: number): Database.Statement {
    let statement = this.statements[rows]
    if (!statement) {
      const row = `(${this.columns.map(() => '?').join(', ')})`
      statement = this.db.prepare(
        `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${new Array<string>(rows).fill(row).join(', ')}`,
      )
      this.statements[rows] = statement
    }
    return statement
  }
}
