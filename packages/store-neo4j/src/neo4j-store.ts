import type { AuditStamp, ChangeLogEntry, StoredAspect, TimeseriesRow } from '@catalog/core'
import type {
  AspectKey,
  AspectScan,
  EdgeScanPage,
  EdgeScanQuery,
  LineagePage,
  LineageQuery,
  MetadataStore,
  NewTask,
  RelationshipPage,
  RelationshipQuery,
  RestateItem,
  RunAspect,
  RunPageQuery,
  RunSummary,
  StoredTask,
  TaskState,
  TaskUpdate,
  TimeseriesCounts,
  TimeseriesDeletion,
  TimeseriesIndex,
  TimeseriesIndexSize,
  TimeseriesQuery,
  WriteBatch,
  WriteOutcome,
} from '@catalog/store'
import { Neo4jAdmin } from './admin.js'
import { AspectWriter } from './aspect-writer.js'
import { Neo4jConnection, type Neo4jConnectionOptions } from './connection.js'
import {
  CHANGE_LOG_COUNTER,
  CHANGES,
  EXISTS,
  HEAD,
  LATEST,
  LATEST_VALUES,
  SCAN,
  VERSION,
} from './cypher-aspects.js'
import { AWAIT_INDEXES, INIT_COUNTER, SCHEMA, SCHEMA_RACE_CODES } from './cypher-schema.js'
import { Neo4jGraph } from './graph.js'
import {
  type AspectNode,
  type ChangeNode,
  int,
  likeToRegex,
  toChangeLogEntry,
  toStoredAspect,
} from './mapping.js'
import { Neo4jTasks } from './tasks.js'
import { Neo4jTimeseries } from './timeseries.js'

export type Neo4jStoreOptions = Neo4jConnectionOptions

/**
 * The scale-out metadata store on Neo4j 5: entities are `(:Entity {urn})` nodes, aspect
 * versions `(:Aspect)` nodes, relationship edges native relationships named as the registry
 * says, time-series rows `(:Timeseries)` nodes and the change log `(:Change {seq})` nodes
 * numbered by a counter node, durable tasks `(:Task)` nodes (see `cypher-*.ts`). Every
 * `write` is one transaction.
 *
 * Concerns live in their own modules: aspect writes (`aspect-writer.ts`), relationships and
 * lineage (`graph.ts`, `lineage.ts`), time series (`timeseries.ts`) and tasks (`tasks.ts`).
 */
export class Neo4jMetadataStore implements MetadataStore {
  private readonly graph: Neo4jGraph
  private readonly series: Neo4jTimeseries
  private readonly tasks: Neo4jTasks
  private readonly admin: Neo4jAdmin

  private constructor(private readonly connection: Neo4jConnection) {
    this.graph = new Neo4jGraph(connection)
    this.series = new Neo4jTimeseries(connection)
    this.tasks = new Neo4jTasks(connection)
    this.admin = new Neo4jAdmin(connection)
  }

  /**
   * Connects, checks the server answers (an {@link UnavailableError} naming the URI when
   * not) and creates the schema idempotently.
   */
  static async open(options: Neo4jStoreOptions): Promise<Neo4jMetadataStore> {
    const connection = await Neo4jConnection.connect(options)
    try {
      for (const statement of SCHEMA) {
        await connection.schema(statement).catch((err: unknown) => {
          const code = (err as { cause?: { code?: unknown } }).cause?.code
          if (typeof code !== 'string' || !SCHEMA_RACE_CODES.has(code)) throw err
        })
      }
      await connection.write((tx) => tx.run(INIT_COUNTER, { counter: CHANGE_LOG_COUNTER }), 'schema setup')
      await connection.read((tx) => tx.run(AWAIT_INDEXES, { timeoutSeconds: int(120) }), 'schema setup')
    } catch (err) {
      await connection.close()
      throw err
    }
    return new Neo4jMetadataStore(connection)
  }

  write(batch: WriteBatch): Promise<WriteOutcome> {
    return this.connection.write(async (tx) => (await AspectWriter.begin(tx)).apply(batch))
  }

  restate(items: readonly RestateItem[], created: AuditStamp): Promise<{ readonly seq: number }> {
    return this.connection.write(
      async (tx) => (await AspectWriter.begin(tx)).restate(items, created),
      'restate',
    )
  }

  async latest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    const rows = await this.connection.read((tx) =>
      tx.run(LATEST, { urns: [...urns], aspects: aspects && aspects.length > 0 ? [...aspects] : null }),
    )
    const out = new Map<string, StoredAspect[]>(urns.map((urn) => [urn, []]))
    for (const r of rows) {
      const stored = toStoredAspect(r.row as AspectNode)
      out.get(stored.urn)?.push(stored)
    }
    return out
  }

  async latestAspectUtf8(keys: readonly AspectKey[]): Promise<Array<Uint8Array | undefined>> {
    if (keys.length === 0) return []
    const rows = await this.connection.read((tx) =>
      tx.run(LATEST_VALUES, { keys: keys.map((k) => ({ urn: k.urn, aspect: k.aspect })) }),
    )
    const found = new Map<string, string>()
    for (const r of rows)
      if (typeof r.metadata === 'string') found.set(`${r.urn}\u0000${r.aspect}`, r.metadata)
    return keys.map((k) => {
      const text = found.get(`${k.urn}\u0000${k.aspect}`)
      return text === undefined ? undefined : Buffer.from(text)
    })
  }

  async version(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    const [row] = await this.connection.read((tx) => tx.run(VERSION, { urn, aspect, version: int(version) }))
    return row ? toStoredAspect(row.row as AspectNode) : undefined
  }

  async exists(urn: string, keyAspect: string): Promise<boolean> {
    const [row] = await this.connection.read((tx) => tx.run(EXISTS, { urn, aspect: keyAspect }))
    return row?.present === true
  }

  async changes(after: number, limit: number): Promise<ChangeLogEntry[]> {
    const rows = await this.connection.read((tx) => tx.run(CHANGES, { after: int(after), limit: int(limit) }))
    return rows.map((r) => toChangeLogEntry(r.change as ChangeNode))
  }

  async head(): Promise<number> {
    const [row] = await this.connection.read((tx) => tx.run(HEAD, { counter: CHANGE_LOG_COUNTER }))
    return Number(row?.seq ?? 0)
  }

  async scan(q: AspectScan): Promise<StoredAspect[]> {
    const rows = await this.connection.read((tx) =>
      tx.run(SCAN, {
        urn: q.urn ?? null,
        urnRegex: q.urnLike === undefined ? null : likeToRegex(q.urnLike),
        aspect: q.aspect ?? null,
        start: int(q.start),
        limit: int(q.limit),
      }),
    )
    return rows.map((r) => toStoredAspect(r.row as AspectNode))
  }

  countAspects(aspect: string, urnLike?: string): Promise<number> {
    return this.admin.countAspects(aspect, urnLike)
  }

  runs(query: RunPageQuery): Promise<RunSummary[]> {
    return this.admin.runs(query)
  }

  runAspects(runId: string, query: RunPageQuery): Promise<RunAspect[]> {
    return this.admin.runAspects(runId, query)
  }

  deleteTimeseries(deletion: TimeseriesDeletion): Promise<number> {
    return this.admin.deleteTimeseries(deletion)
  }

  relationships(query: RelationshipQuery): Promise<RelationshipPage> {
    return this.graph.relationships(query)
  }

  lineage(query: LineageQuery): Promise<LineagePage> {
    return this.graph.lineage(query)
  }

  scanEdges(query: EdgeScanQuery): Promise<EdgeScanPage> {
    return this.graph.scanEdges(query)
  }

  timeseries(query: TimeseriesQuery): Promise<TimeseriesRow[]> {
    return this.series.timeseries(query)
  }

  timeseriesCounts(index: TimeseriesIndex, endTimeMillis: number): Promise<TimeseriesCounts> {
    return this.series.counts(index, endTimeMillis)
  }

  truncateTimeseries(index: TimeseriesIndex, endTimeMillis: number, limit: number): Promise<number> {
    return this.series.truncate(index, endTimeMillis, limit)
  }

  timeseriesSizes(): Promise<TimeseriesIndexSize[]> {
    return this.series.sizes()
  }

  taskNodeId(): Promise<string> {
    return this.tasks.taskNodeId()
  }

  createTask(task: NewTask): Promise<StoredTask> {
    return this.tasks.createTask(task)
  }

  updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void> {
    return this.tasks.updateTask(nodeId, taskId, update)
  }

  task(nodeId: string, taskId: number): Promise<StoredTask | undefined> {
    return this.tasks.task(nodeId, taskId)
  }

  tasksInState(state: TaskState): Promise<StoredTask[]> {
    return this.tasks.tasksInState(state)
  }

  /** Closes the driver; closing again does nothing, and a closed store answers UnavailableError. */
  close(): Promise<void> {
    return this.connection.close()
  }
}
