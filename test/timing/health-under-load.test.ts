import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import {
  HEALTH_BOUND_MS,
  HEALTH_TRIES,
  max,
  probeHealth,
  waitedAfter,
  waitedWithin,
} from '../helpers/health-probe.js'
import { startTimingCatalog } from '../helpers/timing-catalog.js'
import { schemaMetadata } from '../helpers/wide-schema.js'

/**
 * The heaviest write and GraphQL query the limits allow leave `/health` answering within
 * 100 ms (the heaviest search is in search-off-loop.test.ts). `/health` is probed every 10 ms.
 */

/** The most results one search page holds (DataHub's `search.limit.results.max`). */
const PAGE_MAX = 10_000
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const stamp = { time: 0, actor: 'urn:li:corpuser:datahub' }

t.test('the heaviest write and GraphQL query leave /health under 100 ms', async (t) => {
  const { app, post, found } = await startTimingCatalog(t, 'health')
  const proposal = (entityUrn: string, aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  })

  t.test(
    'a schema of the most fields an array may hold: indexing costs the event loop nothing',
    async (t) => {
      // 20,000 fields, each with a description, a tag and a term: 6.5 MB of aspect, 60,000 values
      // for the search document. Deriving them on the event loop held /health ~1 s.
      const n = WRITE_LIMITS.maxArrayItems
      const fields = Array.from({ length: n }, (_, i) => ({
        fieldPath: `column_${i}`,
        nativeDataType: 'string',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
        description: `the description of column ${i}`,
        globalTags: { tags: [{ tag: `urn:li:tag:t${i}` }] },
        glossaryTerms: { terms: [{ urn: `urn:li:glossaryTerm:g${i}` }], auditStamp: stamp },
      }))
      const schema = schemaMetadata(fields)
      // One probe loop from the write's start until its last field is searchable: probes while
      // the write runs (validation on the aspect worker, the commit on the store's writer
      // thread) and after it answered (indexing on the search worker) are both bounded.
      const measure = async (name: string) => {
        // The 7 MB body is serialized before the probes start: serializing it holds this
        // process's event loop (and the answer to a probe in flight) for 100-200 ms.
        const body = JSON.stringify({
          proposal: proposal(urn(name), 'schemaMetadata', { ...schema, schemaName: name }),
        })
        let finished = false
        const probing = probeHealth(app, () => finished)
        const started = performance.now()
        const res = await fetch(`${app.url}/aspects?action=ingestProposal`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        const answeredAt = performance.now()
        t.equal(res.status, 200, (await res.text()).slice(0, 300))
        // A search waits for the writes acknowledged before it: this spans the whole index update.
        t.ok(await found(name), `${name} is searchable`)
        finished = true
        const probes = await probing
        return {
          checks: probes.filter((p) => p.answered > answeredAt).length,
          worst: max(waitedAfter(probes, answeredAt)),
          writeMs: answeredAt - started,
          during: max(waitedWithin(probes, started, answeredAt)),
        }
      }
      // Not measured: a first large write (2,000 fields, 650 KB), once the threads that take it
      // off the event loop have started with the server and run it once.
      const warm = await post('/aspects?action=ingestProposal', {
        proposal: proposal(urn('warmup'), 'schemaMetadata', {
          ...schema,
          schemaName: 'warmup',
          fields: fields.slice(0, 2_000),
        }),
      })
      t.equal(warm.status, 200, 'a first large write')
      // Another write while one saw a slow probe (up to HEALTH_TRIES): the CPU is shared with other work.
      // Validating and committing on the event loop (as before) held /health 1-2 s during the
      // write, and indexing on it hundreds of ms after, on every try.
      let m = await measure('widetable1')
      for (
        let tries = 1;
        tries < HEALTH_TRIES && (m.worst >= HEALTH_BOUND_MS || m.during >= HEALTH_BOUND_MS);
        tries++
      ) {
        t.comment(
          `try ${tries}: /health waited ${m.during.toFixed(1)} ms during the write, ${m.worst.toFixed(1)} ms after; trying again`,
        )
        m = await measure(`widetable${tries + 1}`)
      }
      t.ok(m.checks >= 3, `${m.checks} health checks while the write was indexed`)
      t.ok(m.during < HEALTH_BOUND_MS, `slowest /health while the write ran: ${m.during.toFixed(1)} ms`)
      t.ok(m.worst < HEALTH_BOUND_MS, `slowest /health after the write answered: ${m.worst.toFixed(1)} ms`)
      t.comment(`the write itself took ${m.writeMs.toFixed(0)} ms`)
    },
  )

  t.test('the heaviest GraphQL search: the most results a page holds, many fields each', async (t) => {
    // 10,000 datasets, all matching: a page of 10,000 (the most `count` may ask), 5.4 MB of JSON.
    for (let batch = 0; batch < PAGE_MAX / 500; batch++) {
      const proposals = Array.from({ length: 500 }, (_, i) => {
        const name = `db.table_${batch * 500 + i}`
        return proposal(urn(name), 'datasetProperties', {
          name,
          description: `orders and customers table ${batch * 500 + i}`,
          customProperties: { owner: 'team', tier: String(i % 3) },
        })
      })
      const res = await post('/aspects?action=ingestProposalBatch', { proposals })
      t.equal(res.status, 200, `batch ${batch} ingested`)
    }
    const query = /* GraphQL */ `
      query heavy($input: SearchAcrossEntitiesInput!) {
        searchAcrossEntities(input: $input) {
          start count total
          searchResults {
            matchedFields { name value }
            entity {
              urn type
              ... on Dataset {
                name
                platform { urn name }
                properties { name description customProperties { key value } }
                tags { tags { tag { urn } } }
                ownership { owners { owner { ... on CorpUser { urn } } } }
              }
            }
          }
          facets { field aggregations { value count } }
        }
      }
    `
    const input = { types: ['DATASET'], query: 'orders customers table', start: 0, count: PAGE_MAX }
    const measure = async () => {
      let answered = false
      const probing = probeHealth(app, () => answered)
      const started = performance.now()
      const res = await post('/api/graphql', { query, variables: { input } })
      const status = res.status
      const body = (await res.json()) as {
        data?: { searchAcrossEntities?: { searchResults?: unknown[] } }
        errors?: unknown[]
      }
      answered = true
      return { status, body, latencies: waitedAfter(await probing, started) }
    }
    // On a page of 2,000: 180-770 ms when the gateway read the entities in one synchronous store
    // call, 200-490 ms once the loader read 100 per turn, 43-68 ms once the answer was also
    // written in slices. On this page of 10,000: 56-145 ms while the loader's per-turn reads
    // still ran in one check phase of the event loop. Not measured: a first page of 1,000, which
    // compiles the code paths (V8 and the route) once, as any running server has. Another try
    // while one saw a slow probe (up to HEALTH_TRIES).
    const warm = await post('/api/graphql', { query, variables: { input: { ...input, count: 1000 } } })
    t.equal(warm.status, 200, 'a first, smaller page')
    await warm.arrayBuffer()
    let m = await measure()
    for (let tries = 1; tries < HEALTH_TRIES && max(m.latencies) >= HEALTH_BOUND_MS; tries++) {
      t.comment(`try ${tries}: /health waited ${max(m.latencies).toFixed(1)} ms; trying again`)
      m = await measure()
    }
    t.equal(m.status, 200)
    t.notOk(m.body.errors, JSON.stringify(m.body.errors?.[0]))
    t.equal(m.body.data?.searchAcrossEntities?.searchResults?.length, PAGE_MAX, 'every match on one page')
    t.ok(m.latencies.length >= 1, `${m.latencies.length} health checks during the query`)
    t.ok(
      max(m.latencies) < HEALTH_BOUND_MS,
      `slowest /health during the query: ${max(m.latencies).toFixed(1)} ms`,
    )
  })
})
