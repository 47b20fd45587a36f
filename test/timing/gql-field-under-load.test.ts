import { WRITE_LIMITS } from '@catalog/core'
import t from 'tap'
import { assertHealthAroundWrite, idleBaseline, probeAroundWrite } from '../helpers/health-probe.js'
import { startTimingCatalog } from '../helpers/timing-catalog.js'
import { datasetSnapshotBody, paddedSchema } from '../helpers/wide-schema.js'

/**
 * GraphQL mutations of one field of the widest schema the limits allow (the most fields an array
 * may hold, just under the largest aspect size) leave `/health` answering within 100 ms while
 * they run and while their write is indexed: a field's description (`updateDescription`) and a
 * field's tag (`addTag`), each with `subResourceType: DATASET_FIELD`. Each checks that the field
 * exists in `schemaMetadata`, then patches the field's entry of `editableSchemaMetadata`. Reading
 * the 16 MB schema into the gateway to find the field held `/health` 155-364 ms on every try.
 */

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,gql_field_widest,PROD)'
const n = WRITE_LIMITS.maxArrayItems
const STAMP = { time: 0, actor: 'urn:li:corpuser:datahub' }

/**
 * A column with five attributed tags and a term: many small objects, which is what parsing a
 * schema costs (a schema of the same size made of long descriptions parses several times faster).
 */
function column(i: number, pad: string) {
  return {
    fieldPath: `column_${i}`,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    nullable: true,
    isPartOfKey: false,
    description: `the description of column ${i} ${pad}`,
    globalTags: {
      tags: [1, 2, 3, 4, 5].map((k) => ({
        tag: `urn:li:tag:t${k}`,
        attribution: { time: i, actor: STAMP.actor },
      })),
    },
    glossaryTerms: { terms: [{ urn: `urn:li:glossaryTerm:g${i % 50}` }], auditStamp: STAMP },
  }
}

t.test('GraphQL mutations of a field of the widest schema leave /health under 100 ms', async (t) => {
  const began = performance.now()
  const { app, post, send, found: search } = await startTimingCatalog(t, 'gql-field-health')
  const gql = async (query: string) => {
    const res = await post('/api/graphql', { query })
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: unknown[] } }
  }
  const mutate = (field: string, input: string, dataset = URN) =>
    `mutation { ${field}(input: { ${input}, resourceUrn: "${dataset}", subResource: "column_7", subResourceType: DATASET_FIELD }) }`

  // Not measured: a first large schema (2,000 fields) and a field mutation of it, once the threads
  // have started.
  const WARM = 'urn:li:dataset:(urn:li:dataPlatform:hive,gql_field_warmup,PROD)'
  const warm = await send(
    '/entities?action=batchIngest',
    JSON.stringify(
      datasetSnapshotBody(
        WARM,
        'gql_field_warmup',
        paddedSchema('gql_field_warmup', 2_000, 700_000, column),
        'warm',
      ),
    ),
  )
  t.equal(warm.status, 200, 'a first large schema')
  t.same((await gql(mutate('updateDescription', 'description: "warm"', WARM))).body, {
    data: { updateDescription: true },
  })

  // Not measured: the widest schema (the snapshot timing test measures that write).
  const value = paddedSchema('gql_field_widest', n, WRITE_LIMITS.maxAspectChars - 100_000, column)
  const chars = JSON.stringify(value).length
  t.ok(chars > WRITE_LIMITS.maxAspectChars * 0.97, `${chars} chars of schemaMetadata`)
  const written = await send(
    '/entities?action=batchIngest',
    JSON.stringify(datasetSnapshotBody(URN, 'gql_field_widest', value, 'the widest table')),
  )
  t.equal(written.status, 200, 'the widest schema is written')
  t.ok(await search('gql_field_widest'), 'and indexed')
  t.comment(
    `started, warmed up, the widest schema written and indexed in ${(performance.now() - began).toFixed(0)} ms`,
  )

  t.comment(`baseline: slowest /health while idle ${(await idleBaseline(app)).toFixed(1)} ms`)

  /** One mutation, probed from its start until what only it wrote is searchable; again after a slow probe. */
  const measure = async (
    what: string,
    query: (run: string) => string,
    indexed: (run: string) => Promise<boolean>,
  ) => {
    const m = await assertHealthAroundWrite(t, what, async (run) => {
      let found = false
      const waits = await probeAroundWrite(
        app,
        async () => {
          const res = await gql(query(run))
          t.equal(res.status, 200)
          t.notOk(res.body.errors, `${what}: no errors ${JSON.stringify(res.body.errors?.[0] ?? null)}`)
        },
        // A search waits for the writes acknowledged before it: this spans the whole index update.
        async () => {
          found = await indexed(run)
        },
      )
      return { ...waits, found }
    })
    t.ok(m.found, `${what}: the edit is searchable`)
  }

  await measure(
    "a field's description",
    (run) => mutate('updateDescription', `description: "quokka${run} counts the rows"`),
    (run) => search(`quokka${run}`),
  )
  const tag = (run: string) => `urn:li:tag:wombat${run}`
  for (const run of ['a', 'b', 'c']) {
    const res = await gql(`mutation { createTag(input: { id: "wombat${run}", name: "wombat${run}" }) }`)
    t.same(res.body, { data: { createTag: tag(run) } }, `the tag ${tag(run)}`)
  }
  await measure(
    "a field's tag",
    (run) => mutate('addTag', `tagUrn: "${tag(run)}"`),
    // A dataset matches the tag's name once the field's tag (editedFieldTags) is indexed.
    (run) => search(`wombat${run}`),
  )
})
