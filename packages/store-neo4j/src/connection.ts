import { UnavailableError } from '@catalog/core'
import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver'
import { translateError } from './errors.js'
import type { Params, QueryRunner, Row, Statement } from './statement.js'

/** Where and how to reach Neo4j. */
export interface Neo4jConnectionOptions {
  /** `neo4j://host:7687`, `bolt://...` (with `+s`/`+ssc` for TLS). */
  readonly uri: string
  readonly user: string
  readonly password?: string
  /** Database name; the server's default database when unset. */
  readonly database?: string
  /** Largest number of pooled connections (driver default 100). */
  readonly maxConnectionPoolSize?: number
  /** Milliseconds to wait for a connection (from the pool or a new one) before giving up. */
  readonly connectionTimeoutMs?: number
}

/** Options of one read transaction. */
export interface ReadOptions {
  /** Milliseconds the server lets the transaction run (at least 1); unlimited when unset. */
  readonly timeoutMs?: number
}

/** A driver transaction as the store uses it: typed statements in, plain rows out. */
export class Tx implements QueryRunner {
  constructor(private readonly tx: ManagedTransaction) {}

  async run<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row[]> {
    const result = await this.tx.run(statement.text, params)
    return result.records.map((record) => record.toObject() as Row)
  }

  async one<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row> {
    const [row] = await this.run(statement, params)
    if (!row) throw new Error(`Neo4j returned no row for: ${statement.text}`)
    return row
  }
}

/**
 * A driver and the database it works on. Every unit of work is a managed transaction (the
 * driver retries transient failures), errors leave as domain errors, and all sessions share
 * one bookmark manager, so a read always sees the writes acknowledged before it (causal
 * consistency, also on a cluster).
 */
export class Neo4jConnection {
  private closed = false

  private constructor(
    private readonly driver: Driver,
    private readonly database: string | undefined,
  ) {}

  /** Creates the driver and checks the server answers with these credentials. */
  static async connect(options: Neo4jConnectionOptions): Promise<Neo4jConnection> {
    let driver: Driver
    try {
      driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password ?? ''), {
        disableLosslessIntegers: true,
        maxConnectionPoolSize: options.maxConnectionPoolSize ?? 100,
        connectionAcquisitionTimeout: options.connectionTimeoutMs ?? 30_000,
        connectionTimeout: options.connectionTimeoutMs ?? 30_000,
        maxTransactionRetryTime: 15_000,
        userAgent: 'datahub-compatible-catalog',
      })
    } catch (err) {
      throw new UnavailableError(`cannot use NEO4J_URI '${options.uri}': ${(err as Error).message}`, {
        cause: err,
      })
    }
    try {
      await driver.verifyConnectivity(options.database ? { database: options.database } : {})
    } catch (err) {
      await driver.close().catch(() => undefined)
      const code = (err as { code?: unknown }).code
      const detail = `${(err as Error).message}${typeof code === 'string' ? ` [${code}]` : ''}`
      throw new UnavailableError(`cannot connect to Neo4j at ${options.uri}: ${detail}`, { cause: err })
    }
    return new Neo4jConnection(driver, options.database)
  }

  /**
   * Runs `work` in one read transaction. With `timeoutMs` the server terminates the
   * transaction once it ran that long (a {@link isTransactionTimeout} error).
   */
  read<T>(work: (tx: Tx) => Promise<T>, doing = 'read', options: ReadOptions = {}): Promise<T> {
    const config =
      options.timeoutMs === undefined ? undefined : { timeout: Math.max(1, Math.ceil(options.timeoutMs)) }
    return this.withSession('READ', doing, (session) => session.executeRead((tx) => work(new Tx(tx)), config))
  }

  /** Runs `work` in one write transaction: it commits entirely or not at all. */
  write<T>(work: (tx: Tx) => Promise<T>, doing = 'write'): Promise<T> {
    return this.withSession('WRITE', doing, (session) => session.executeWrite((tx) => work(new Tx(tx))))
  }

  /** Runs one schema statement in its own transaction. */
  async schema(statement: Statement<never>): Promise<void> {
    await this.withSession('WRITE', 'schema setup', async (session) => {
      await session.run(statement.text)
    })
  }

  private async withSession<T>(
    mode: 'READ' | 'WRITE',
    doing: string,
    work: (session: Session) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
    const session = this.driver.session({
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      bookmarkManager: this.driver.executeQueryBookmarkManager,
      ...(this.database ? { database: this.database } : {}),
    })
    try {
      return await work(session)
    } catch (err) {
      throw translateError(err, doing)
    } finally {
      await session.close().catch(() => undefined)
    }
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.driver.close()
  }
}
