/**
 * The shared store contract against a real Neo4j: the server at NEO4J_URI (with NEO4J_USER,
 * NEO4J_PASSWORD, NEO4J_DATABASE) when set, otherwise a throwaway container started with
 * testcontainers when a Docker engine answers. Without either, the suite is skipped with
 * one line saying why.
 *
 * Every `open()` deletes everything in the database, so NEO4J_URI must name a throwaway
 * server: the suite refuses to wipe a database holding nodes other than the store's own.
 */
import type { MetadataStore } from '@catalog/store'
import { runStoreContract } from '@catalog/store/contract'
import neo4j from 'neo4j-driver'
import t from 'tap'
import { Neo4jMetadataStore, type Neo4jStoreOptions } from './index.js'

const NEO4J_IMAGE = 'neo4j:5.26.0'
const CONTAINER_PASSWORD = 'contract-suite-password'
const DOCKER_CHECK_MS = 10_000
const STORE_LABELS = ['Entity', 'Aspect', 'Change', 'Counter', 'Timeseries', 'Task']
const FOREIGN_NODES = 'MATCH (n) WHERE none(l IN labels(n) WHERE l IN $labels) RETURN count(n) AS n'
const WIPE = 'MATCH (n) DETACH DELETE n'

type Target = { readonly options: Neo4jStoreOptions } | { readonly skip: string }

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} gave no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? ''
}

/** The server to test against, or why there is none. */
async function target(): Promise<Target> {
  const uri = process.env.NEO4J_URI
  if (uri) {
    return {
      options: {
        uri,
        user: process.env.NEO4J_USER || 'neo4j',
        ...(process.env.NEO4J_PASSWORD ? { password: process.env.NEO4J_PASSWORD } : {}),
        ...(process.env.NEO4J_DATABASE ? { database: process.env.NEO4J_DATABASE } : {}),
      },
    }
  }
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers')
  try {
    await withTimeout(getContainerRuntimeClient(), DOCKER_CHECK_MS, 'the Docker engine')
  } catch (err) {
    return { skip: `no NEO4J_URI and no Docker engine (${firstLine(err)})` }
  }
  try {
    const container = await new GenericContainer(NEO4J_IMAGE)
      .withEnvironment({ NEO4J_AUTH: `neo4j/${CONTAINER_PASSWORD}` })
      .withExposedPorts(7687)
      .withWaitStrategy(Wait.forLogMessage(/Started\./))
      .withStartupTimeout(180_000)
      .start()
    t.teardown(async () => {
      await container.stop()
    })
    return {
      options: {
        uri: `bolt://${container.getHost()}:${container.getMappedPort(7687)}`,
        user: 'neo4j',
        password: CONTAINER_PASSWORD,
      },
    }
  } catch (err) {
    return { skip: `no NEO4J_URI and the Docker engine could not start ${NEO4J_IMAGE} (${firstLine(err)})` }
  }
}

/** Deletes everything, after checking the database holds only what this store writes. */
async function wipe(options: Neo4jStoreOptions): Promise<void> {
  const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password ?? ''))
  const session = driver.session(options.database ? { database: options.database } : {})
  try {
    const foreign = await session.run(FOREIGN_NODES, { labels: STORE_LABELS })
    const count = Number(foreign.records[0]?.get('n') ?? 0)
    if (count > 0) {
      throw new Error(`refusing to wipe ${options.uri}: it holds ${count} nodes this store did not write`)
    }
    await session.run(WIPE)
  } finally {
    await session.close()
    await driver.close()
  }
}

const found = await target()
if ('skip' in found) {
  t.comment(`neo4j contract suite skipped: ${found.skip}`)
  t.test('neo4j: store contract', { skip: true }, async () => {})
} else {
  const { options } = found
  const open = (): Promise<MetadataStore> => Neo4jMetadataStore.open(options)
  runStoreContract(t, 'neo4j', {
    async open() {
      const store = await open()
      await wipe(options)
      return store
    },
    reopen: open,
  })
}
