/**
 * Bad input to the runs and entity actions the `datahub` CLI calls: an unknown run id, a
 * malformed URN, deleting what does not exist. Each gets DataHub's status and body, and the
 * change log (every committed write appends to it) does not move.
 */
import t from 'tap'
import { build, getJson, type Json, postRestli } from '../helpers/build.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,bad_input.orders,PROD)'
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:hive,bad_input.never_written,PROD)'
const enc = encodeURIComponent

const mcp = (urn: string, aspectName: string, value: unknown, runId: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  systemMetadata: { runId, lastObserved: 1000 },
})

const RESTLI_400 = { exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', status: 400 }

t.test('bad input changes nothing', async (t) => {
  const { app, store } = await build(t)
  const seeded = await postRestli(app, '/aspects?action=ingestProposalBatch', {
    proposals: [mcp(DS, 'datasetProperties', { description: 'kept' }, 'run-kept')],
    async: 'false',
  })
  t.equal(seeded.status, 200)
  const head = await store.head()
  const unchanged = async (what: string) => t.equal(await store.head(), head, `${what}: nothing written`)

  t.test('an unknown run id', async (t) => {
    for (const body of [
      { runId: 'no-such-run', dryRun: true, safe: true },
      { runId: 'no-such-run', dryRun: false, safe: true },
      { runId: 'no-such-run', dryRun: false, safe: false },
      { runId: 'no-such-run', dryRun: false, hardDelete: true },
    ]) {
      const res = await postRestli(app, '/runs?action=rollback', body)
      t.equal(res.status, 200, 'DataHub answers an empty rollback, not an error')
      t.same(res.body.value, {
        entitiesAffected: 0,
        entitiesDeleted: 0,
        aspectsReverted: 0,
        aspectsAffected: 0,
        unsafeEntitiesCount: 0,
        unsafeEntities: [],
        aspectRowSummaries: [],
      })
    }
    const show = await postRestli(app, '/runs?action=describe', {
      runId: 'no-such-run',
      start: 0,
      count: 100,
      includeSoft: false,
      includeAspect: false,
    })
    t.same([show.status, show.body], [200, { value: [] }])
    await unchanged('unknown run')
    const runs = await postRestli(app, '/runs?action=list', {
      pageOffset: 0,
      pageSize: 10,
      includeSoft: false,
    })
    t.same(
      runs.body.value.map((r: Json) => r.runId),
      ['run-kept'],
    )
  })

  t.test('malformed input to the run actions', async (t) => {
    for (const [action, body] of [
      ['rollback', { dryRun: false }],
      ['rollback', { runId: 'r', dryRun: 'maybe' }],
      ['describe', { start: 0, count: 10 }],
      ['list', { pageSize: 'ten' }],
    ] as const) {
      const res = await postRestli(app, `/runs?action=${action}`, body)
      t.equal(res.status, 400, `${action} ${JSON.stringify(body)}`)
      t.match(res.body, RESTLI_400)
    }
    const reserved = await postRestli(app, '/runs?action=rollback', {
      runId: 'no-run-id-provided',
      dryRun: false,
    })
    t.same(
      [reserved.status, reserved.body.message],
      [
        400,
        'no-run-id-provided is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id',
      ],
    )
    await unchanged('malformed run actions')
  })

  t.test('a malformed URN', async (t) => {
    const calls: Array<[string, unknown]> = [
      ['/entities?action=delete', { urn: 'not-a-urn' }],
      ['/entities?action=delete', { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,only_two)' }],
      ['/entities?action=deleteReferences', { urn: 'urn:li:dataset:bad', dryRun: false }],
      ['/entities?action=exists', { urn: 'not-a-urn' }],
      ['/usageStats?action=query', { resource: 'not-a-urn', duration: 'DAY' }],
      [
        '/aspects?action=ingestProposalBatch',
        {
          proposals: [
            mcp(DS, 'datasetProperties', { description: 'changed' }, 'run-bad'),
            mcp('urn:li:dataset:bad', 'datasetProperties', { description: 'x' }, 'run-bad'),
          ],
          async: 'false',
        },
      ],
    ]
    for (const [url, body] of calls) {
      const res = await postRestli(app, url, body)
      t.equal(res.status, 400, `${url}: 400`)
      t.match(res.body, { ...RESTLI_400, message: /[Ii]nvalid urn|urn/ }, `${url}: DataHub's error body`)
    }
    await unchanged('malformed URNs')
    const kept = await getJson(app, `/aspects/${enc(DS)}?aspect=datasetProperties&version=0`)
    t.equal(
      kept.body.aspect['com.linkedin.dataset.DatasetProperties'].description,
      'kept',
      'the batch was refused whole',
    )
    const openapi = await app.inject({
      method: 'DELETE',
      url: `/openapi/v3/entity/dataset/${enc('not-a-urn')}`,
    })
    t.equal(openapi.statusCode, 400, 'OpenAPI delete of a malformed URN')
    await unchanged('OpenAPI delete of a malformed URN')
  })

  t.test('deleting what does not exist', async (t) => {
    const del = await postRestli(app, '/entities?action=delete', { urn: MISSING })
    t.same([del.status, del.body], [200, { value: { urn: MISSING, rows: 0, timeseriesRows: 0 } }])
    const refs = await postRestli(app, '/entities?action=deleteReferences', { urn: MISSING, dryRun: false })
    t.same([refs.status, refs.body], [200, { value: { total: 0, relatedAspects: [] } }])
    const keyDelete = await postRestli(app, '/aspects?action=ingestProposal', {
      proposal: { entityType: 'dataset', entityUrn: MISSING, changeType: 'DELETE', aspectName: 'datasetKey' },
      async: 'false',
    })
    t.equal(keyDelete.status, 200, 'a key-aspect DELETE of nothing (the emitter hard delete) is not an error')
    await unchanged('deletes of nothing')
    const exists = await postRestli(app, '/entities?action=exists', { urn: MISSING })
    t.same(exists.body, { value: false })
  })
})
