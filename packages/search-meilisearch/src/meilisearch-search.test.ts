/**
 * The shared search index contract against a real Meilisearch: the server at MEILI_URL (with
 * MEILI_KEY) when set, otherwise a throwaway `getmeili/meilisearch:v1.11.3` container started
 * with testcontainers when a Docker engine answers. Without either, the suite is skipped with
 * one line saying why.
 *
 * Every `open()` uses a new index (`contract_<run>_<n>`), deleted when the suite ends, so
 * MEILI_URL may name a shared server: nothing else on it is touched.
 */
import { runSearchContract } from '@catalog/search/contract'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import { Meilisearch } from 'meilisearch'
import t from 'tap'
import { MeilisearchSearchIndex } from './index.js'
import { pkOf } from './tokens.js'

const IMAGE = 'getmeili/meilisearch:v1.11.3'
const CONTAINER_KEY = 'contract-suite-master-key-0123456789'
const DOCKER_CHECK_MS = 10_000
const START_TIMEOUT_MS = 180_000

type Target = { readonly url: string; readonly apiKey?: string } | { readonly skip: string }

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
  const url = process.env.MEILI_URL
  if (url) return { url, ...(process.env.MEILI_KEY ? { apiKey: process.env.MEILI_KEY } : {}) }
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers')
  try {
    await withTimeout(getContainerRuntimeClient(), DOCKER_CHECK_MS, 'the Docker engine')
  } catch (err) {
    return { skip: `no MEILI_URL and no Docker engine (${firstLine(err)})` }
  }
  try {
    const container = await withTimeout(
      new GenericContainer(IMAGE)
        .withEnvironment({
          MEILI_MASTER_KEY: CONTAINER_KEY,
          MEILI_NO_ANALYTICS: 'true',
          MEILI_ENV: 'development',
        })
        .withExposedPorts(7700)
        .withWaitStrategy(Wait.forHttp('/health', 7700).forStatusCode(200))
        .withStartupTimeout(START_TIMEOUT_MS)
        .start(),
      START_TIMEOUT_MS + 10_000,
      `starting ${IMAGE}`,
    )
    t.teardown(async () => {
      await container.stop()
    })
    return { url: `http://${container.getHost()}:${container.getMappedPort(7700)}`, apiKey: CONTAINER_KEY }
  } catch (err) {
    return { skip: `no MEILI_URL and the Docker engine could not start ${IMAGE} (${firstLine(err)})` }
  }
}

const found = await target()
if ('skip' in found) {
  t.test('meilisearch: search index contract', { skip: `skipped: ${found.skip}` }, async () => {})
} else {
  const server = found
  const run = `contract_${process.pid}_${Date.now().toString(36)}`
  const created: string[] = []
  let current = ''
  const connect = (index: string, schema: ContractFixture['schema']) =>
    MeilisearchSearchIndex.open({
      url: server.url,
      ...(server.apiKey ? { apiKey: server.apiKey } : {}),
      index,
      schema,
    })
  t.teardown(async () => {
    const client = new Meilisearch({ host: server.url, ...(server.apiKey ? { apiKey: server.apiKey } : {}) })
    for (const uid of created) await client.deleteIndex(uid).waitTask({ timeout: 60_000 })
  })

  runSearchContract(t, 'meilisearch', {
    async open(schema) {
      current = `${run}_${created.length}`
      created.push(current)
      return connect(current, schema)
    },
    async reopen(schema) {
      return connect(current, schema)
    },
  })

  t.test('meilisearch: settings are applied once; a layout change rebuilds documents', async (t) => {
    const fx = new ContractFixture()
    const uid = `${run}_layout`
    created.push(uid)
    const first = await connect(uid, fx.schema)
    await fx.apply(first, fx.dataset('kept', { datasetProperties: { description: 'kept words' } }))
    await first.close()
    const client = new Meilisearch({ host: server.url, ...(server.apiKey ? { apiKey: server.apiKey } : {}) })
    const before = (await client.tasks.getTasks({ indexUids: [uid], types: ['settingsUpdate'] })).total
    const second = await connect(uid, fx.schema)
    const after = (await client.tasks.getTasks({ indexUids: [uid], types: ['settingsUpdate'] })).total
    t.equal(after, before, 'unchanged settings are not sent again')
    await second.close()
    await client
      .index(uid)
      .updateDocuments([{ _pk: '_catalog_state', _layout: 'older' }])
      .waitTask({ timeout: 60_000 })
    await client
      .index(uid)
      .updateDocuments([{ _pk: pkOf(ds('kept')), _t_description: [] }])
      .waitTask({ timeout: 60_000 })
    const stale = await client.index(uid).search('kept', { attributesToSearchOn: ['_t_description'] })
    t.equal(stale.hits.length, 0, 'the stale document lost its words')
    const third = await connect(uid, fx.schema)
    t.same(await fx.urns(third, 'kept'), [ds('kept')], 'the rebuilt document is searchable again')
    await third.close()
  })
}
