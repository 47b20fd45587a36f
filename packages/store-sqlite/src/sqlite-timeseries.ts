import { randomBytes } from 'node:crypto'
import { InvalidInputError, type SystemMetadata, type TimeseriesRow } from '@catalog/core'
import type {
  NewTask,
  StoredTask,
  TaskState,
  TaskUpdate,
  TimeseriesCounts,
  TimeseriesCriterion,
  TimeseriesIndex,
  TimeseriesIndexSize,
  TimeseriesQuery,
} from '@catalog/store'
import type Database from 'better-sqlite3'

interface TaskRow {
  task_id: number
  node_id: string
  kind: string
  params: string
  state: TaskState
  started_at: number
  updated_at: number
  run_time_nanos: number
  progress: string
  error: string | null
}

const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/
const MAX_CACHED_QUERIES = 200

/**
 * Time-series reads with filters, truncation, sizes and the durable task table of the
 * embedded store. Shares the store's connection; every statement is synchronous, so a
 * truncation batch never interleaves with a commit group.
 */
export class SqliteTimeseries {
  private readonly stmt: ReturnType<typeof prepare>
  private readonly queries = new Map<string, Database.Statement>()
  private readonly node: string

  constructor(private readonly db: Database.Database) {
    this.stmt = prepare(db)
    this.stmt.initNode.run(randomBytes(16).toString('base64url'))
    this.node = (this.stmt.nodeId.get() as { node_id: string }).node_id
  }

  timeseries(q: TimeseriesQuery): TimeseriesRow[] {
    const params: unknown[] = [
      q.entityType,
      q.aspect,
      q.urn,
      q.startTimeMillis ?? Number.MIN_SAFE_INTEGER,
      q.endTimeMillis ?? Number.MAX_SAFE_INTEGER,
    ]
    let sql = `SELECT timestamp_millis, value, system_metadata FROM timeseries
      WHERE entity_type = ? AND aspect = ? AND urn = ? AND timestamp_millis BETWEEN ? AND ?`
    const groups = q.filter ?? []
    if (groups.length > 0) {
      const ors = groups.map((group) =>
        group.length === 0 ? '1' : `(${group.map((c) => criterionSql(c, params)).join(' AND ')})`,
      )
      sql += ` AND (${ors.join(' OR ')})`
    }
    if (q.sort) {
      sql += ` ORDER BY json_extract(value, ?) ${q.sort.order === 'ASCENDING' ? 'ASC' : 'DESC'}, timestamp_millis DESC`
      params.push(jsonPath(q.sort.field))
    } else {
      sql += ' ORDER BY timestamp_millis DESC'
    }
    sql += ' LIMIT ?'
    params.push(q.limit)
    const rows = this.query(sql).all(...params) as Array<{
      timestamp_millis: number
      value: string
      system_metadata: string | null
    }>
    return rows.map((r) => ({
      urn: q.urn,
      entityType: q.entityType,
      aspect: q.aspect,
      timestampMillis: r.timestamp_millis,
      value: JSON.parse(r.value) as Record<string, unknown>,
      ...(r.system_metadata ? { systemMetadata: JSON.parse(r.system_metadata) as SystemMetadata } : {}),
    }))
  }

  counts(index: TimeseriesIndex, endTimeMillis: number): TimeseriesCounts {
    const row = this.stmt.counts.get(endTimeMillis, index.entityType, index.aspect) as {
      total: number
      matching: number
    }
    return { total: row.total, matching: row.matching }
  }

  truncate(index: TimeseriesIndex, endTimeMillis: number, limit: number): number {
    return this.stmt.truncate.run(index.entityType, index.aspect, endTimeMillis, limit).changes
  }

  sizes(): TimeseriesIndexSize[] {
    const rows = this.stmt.sizes.all() as Array<{
      entity_type: string
      aspect: string
      rows: number
      bytes: number
    }>
    return rows.map((r) => ({ entityType: r.entity_type, aspect: r.aspect, rows: r.rows, bytes: r.bytes }))
  }

  nodeId(): string {
    return this.node
  }

  createTask(task: NewTask): StoredTask {
    const info = this.stmt.insertTask.run(
      this.node,
      task.kind,
      JSON.stringify(task.params),
      'running',
      task.startedAt,
      task.startedAt,
      0,
      JSON.stringify(task.progress),
    )
    return this.task(this.node, Number(info.lastInsertRowid)) as StoredTask
  }

  updateTask(nodeId: string, taskId: number, update: TaskUpdate): void {
    this.stmt.updateTask.run({
      node: nodeId,
      id: taskId,
      state: update.state ?? null,
      progress: update.progress ? JSON.stringify(update.progress) : null,
      runTime: update.runTimeNanos ?? null,
      error: update.error ?? null,
      now: Date.now(),
    })
  }

  task(nodeId: string, taskId: number): StoredTask | undefined {
    const row = this.stmt.task.get(nodeId, taskId) as TaskRow | undefined
    return row ? toTask(row) : undefined
  }

  tasksInState(state: TaskState): StoredTask[] {
    return (this.stmt.tasksInState.all(state) as TaskRow[]).map(toTask)
  }

  /** Dynamic filter queries, compiled once per shape. */
  private query(sql: string): Database.Statement {
    let stmt = this.queries.get(sql)
    if (!stmt) {
      if (this.queries.size >= MAX_CACHED_QUERIES) this.queries.clear()
      stmt = this.db.prepare(sql)
      this.queries.set(sql, stmt)
    }
    return stmt
  }
}

/** `$."a"."b"` for `a.b`; each segment quoted, so no segment can change the path's meaning. */
function jsonPath(field: string): string {
  const segments = field.split('.')
  if (segments.some((s) => s.length === 0 || /["\\]/.test(s))) {
    throw new InvalidInputError(`Invalid time-series field '${field}'`)
  }
  return `$${segments.map((s) => `."${s}"`).join('')}`
}

/**
 * The `json_each` chain that yields the scalars at a dotted path, arrays being transparent on the
 * way (`userCounts.user` reaches the `user` of every `userCounts` element), as the Neo4j adapter
 * flattens them. Pushes its parameters; the last table is `j`.
 */
function valuesAt(field: string, params: unknown[]): string {
  jsonPath(field)
  const segments = field.split('.')
  const tables: string[] = []
  let source = 'timeseries.value'
  segments.slice(0, -1).forEach((segment, i) => {
    const path = `$."${segment}"`
    params.push(path, path, path)
    tables.push(
      `json_each(CASE json_type(${source}, ?) WHEN 'array' THEN json_extract(${source}, ?) ` +
        `WHEN 'object' THEN json_array(json(json_extract(${source}, ?))) ELSE '[]' END) AS j${i}`,
    )
    source = `CASE j${i}.type WHEN 'object' THEN j${i}.value ELSE '{}' END`
  })
  params.push(`$."${segments[segments.length - 1]}"`)
  tables.push(`json_each(${source}, ?) AS j`)
  return tables.join(', ')
}

/**
 * SQL for one criterion over the values at its path (`json_each` yields the scalar itself,
 * or each element of an array), pushing its parameters.
 */
function criterionSql(c: TimeseriesCriterion, params: unknown[]): string {
  const from = valuesAt(c.field, params)
  let test: string
  switch (c.condition) {
    case 'EXISTS':
      test = `j.type <> 'null'`
      break
    case 'EQUAL':
    case 'IN': {
      if (c.values.length === 0) throw new InvalidInputError(`Criterion on '${c.field}' needs a value`)
      test = c.values.map((v) => equalSql(v, params)).join(' OR ')
      break
    }
    default: {
      const v = c.values[0]
      if (v === undefined) throw new InvalidInputError(`Criterion on '${c.field}' needs a value`)
      const op = {
        GREATER_THAN: '>',
        GREATER_THAN_OR_EQUAL_TO: '>=',
        LESS_THAN: '<',
        LESS_THAN_OR_EQUAL_TO: '<=',
      }[c.condition]
      if (NUMERIC.test(v)) {
        test = `j.type IN ('integer', 'real') AND j.value ${op} ?`
        params.push(Number(v))
      } else {
        test = `j.type = 'text' AND j.value ${op} ?`
        params.push(v)
      }
    }
  }
  const sql = `EXISTS (SELECT 1 FROM ${from} WHERE ${test})`
  return c.negated ? `NOT ${sql}` : sql
}

function equalSql(v: string, params: unknown[]): string {
  params.push(v)
  const text = `(j.type = 'text' AND j.value = ?)`
  if (NUMERIC.test(v)) {
    params.push(Number(v))
    return `${text} OR (j.type IN ('integer', 'real') AND j.value = ?)`
  }
  if (v === 'true' || v === 'false') {
    params.push(v)
    return `${text} OR j.type = ?`
  }
  return text
}

function toTask(r: TaskRow): StoredTask {
  return {
    nodeId: r.node_id,
    taskId: r.task_id,
    kind: r.kind,
    params: JSON.parse(r.params) as Record<string, unknown>,
    state: r.state,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    runTimeNanos: r.run_time_nanos,
    progress: JSON.parse(r.progress) as Record<string, unknown>,
    ...(r.error !== null ? { error: r.error } : {}),
  }
}

function prepare(db: Database.Database) {
  return {
    initNode: db.prepare('INSERT OR IGNORE INTO store_node (id, node_id) VALUES (1, ?)'),
    nodeId: db.prepare('SELECT node_id FROM store_node WHERE id = 1'),
    counts: db.prepare(
      `SELECT COUNT(*) AS total, COALESCE(SUM(timestamp_millis <= ?), 0) AS matching
       FROM timeseries WHERE entity_type = ? AND aspect = ?`,
    ),
    truncate: db.prepare(
      `DELETE FROM timeseries WHERE (entity_type, aspect, urn, timestamp_millis, partition_key, message_id) IN (
         SELECT entity_type, aspect, urn, timestamp_millis, partition_key, message_id FROM timeseries
         WHERE entity_type = ? AND aspect = ? AND timestamp_millis <= ?
         ORDER BY timestamp_millis LIMIT ?)`,
    ),
    sizes: db.prepare(
      `SELECT entity_type, aspect, COUNT(*) AS rows,
         SUM(length(CAST(urn AS BLOB)) + length(CAST(partition_key AS BLOB)) + length(CAST(message_id AS BLOB))
           + length(CAST(value AS BLOB)) + COALESCE(length(CAST(system_metadata AS BLOB)), 0) + 8) AS bytes
       FROM timeseries GROUP BY entity_type, aspect ORDER BY entity_type, aspect`,
    ),
    insertTask: db.prepare(
      `INSERT INTO tasks (node_id, kind, params, state, started_at, updated_at, run_time_nanos, progress)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateTask: db.prepare(
      `UPDATE tasks SET state = COALESCE(@state, state), progress = COALESCE(@progress, progress),
         run_time_nanos = COALESCE(@runTime, run_time_nanos), error = COALESCE(@error, error), updated_at = @now
       WHERE node_id = @node AND task_id = @id`,
    ),
    task: db.prepare('SELECT * FROM tasks WHERE node_id = ? AND task_id = ?'),
    tasksInState: db.prepare('SELECT * FROM tasks WHERE state = ? ORDER BY task_id'),
  }
}
