import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { gateway } from '@catalog/gateway'
import { createServer } from '@catalog/http-kit'
import { createMetadataServices } from '@catalog/metadata-service'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t, { type Test } from 'tap'
import {
  CREATED,
  DELETED,
  ds,
  HDFS,
  HIVE,
  KAFKA,
  LOGGING,
  TASK_123,
  TASK_456,
} from '../helpers/bootstrap-urns.js'
import { build, getJson, ingestExamples, type Json, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const BCKP = ds('s3', 'project/root/events/logging_events_bckp')
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:science,churnModel,PROD)'
const REGIONS = 'urn:li:mlFeature:(user_features,regions)'
const PREMIUM = 'urn:li:mlFeature:(user_features,is_premium_user)'
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,a-model-package-group,PROD)'
const FIRST_MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,the-first-model,PROD)'
const TRAINING_JOB =
  'urn:li:dataJob:(urn:li:dataFlow:(sagemaker,training:a-training-job,PROD),arn:aws:sagemaker:us-west-2:123412341234:training-job/a-training-job)'

type App = Parameters<typeof getJson>[0]

const lineage = async (app: App, body: Record<string, unknown>) => {
  const res = await postJson(app, '/relationships?action=getLineage', body)
  if (res.status !== 200) throw new Error(`getLineage ${res.status}: ${JSON.stringify(res.body)}`)
  return res.body.value as Json
}
const degrees = (value: Json) =>
  Object.fromEntries((value.relationships as Json[]).map((r) => [r.entity, r.degree]))

const propose = (app: App, entityType: string, entityUrn: string, aspectName: string, value: unknown) =>
  postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType,
      entityUrn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    },
  })

/** The one-process catalog with lineage bounds of the test's choosing. */
async function buildWithLimits(
  t: Test,
  lineageLimits: { maxHops: number; maxNodes: number; timeBudgetMs: number },
): Promise<App> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lineage-'))
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  const app = createServer()
  const metadata = createMetadataServices(new Registry(), store, undefined, { lineage: lineageLimits })
  await app.register(gateway, { backends: { kind: 'embedded', metadata } })
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return app
}

t.test('multi-hop lineage over the bootstrap example', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap', 'sagemaker')

  t.test('upstream: every lineage edge type in its direction, with degrees and paths', async (t) => {
    const up = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
    t.same(degrees(up), {
      [TASK_456]: 1,
      [LOGGING]: 1,
      [CREATED]: 1,
      [TASK_123]: 2,
      [HIVE]: 2,
      [HDFS]: 3,
      [KAFKA]: 4,
    })
    t.same(
      up.relationships.map((r: Json) => r.entity),
      [TASK_456, CREATED, LOGGING, TASK_123, HIVE, HDFS, KAFKA],
      'ordered by degree, then URN',
    )
    const byEntity = new Map(up.relationships.map((r: Json) => [r.entity, r]))
    t.equal(
      (byEntity.get(TASK_456) as Json).type,
      'Produces',
      'a job producing the dataset is upstream of it',
    )
    t.same((byEntity.get(TASK_123) as Json).path, [DELETED, TASK_456, TASK_123])
    t.equal((byEntity.get(TASK_123) as Json).type, 'DownstreamOf')
    t.same((byEntity.get(KAFKA) as Json).path, [DELETED, LOGGING, HIVE, HDFS, KAFKA])
    t.same([up.total, up.count, up.isPartial, up.maxHops], [7, 7, false, 10])
    t.same(up.entities, [TASK_456, CREATED, LOGGING, TASK_123, HIVE, HDFS, KAFKA])
  })

  t.test('downstream: datasets, jobs, charts, dashboards and ML features', async (t) => {
    const down = await lineage(app, { urn: KAFKA, direction: 'DOWNSTREAM', maxHops: 10 })
    const d = degrees(down)
    t.equal(d[HDFS], 1)
    t.equal(d['urn:li:chart:(looker,baz1)'], 1, 'a chart consuming the dataset')
    t.equal(d['urn:li:dashboard:(looker,baz)'], 2, 'the dashboard containing the chart')
    t.equal(d['urn:li:chart:(looker,baz2)'], 2)
    t.equal(d[HIVE], 2)
    t.equal(d[LOGGING], 3)
    for (const urn of [CREATED, DELETED, BCKP, TASK_123, TASK_456]) t.equal(d[urn], 4, urn)
    t.equal(d[REGIONS], 5, 'a feature derived from a dataset is downstream of it')
    t.notOk(KAFKA in d, 'the start is never a result')
  })

  t.test('maxHops bounds the walk and says when it cut it', async (t) => {
    const one = await lineage(app, { urn: DELETED, direction: 'UPSTREAM' })
    t.same(
      [one.maxHops, one.total, one.isPartial, one.partialReason],
      [1, 3, true, 'MAX_HOPS'],
      'default 1 hop',
    )
    const capped = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 50 })
    t.equal(capped.maxHops, 10, 'capped at the configured maximum')
    const enough = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 4 })
    t.same([enough.total, enough.isPartial], [7, false])
  })

  t.test('paging over (degree, urn) and the GET form', async (t) => {
    const all = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
    const page = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10, start: 2, count: 3 })
    t.same([page.start, page.count, page.total], [2, 3, 7])
    t.same(page.relationships, all.relationships.slice(2, 5))
    const get = await getJson(
      app,
      `/lineage?urn=${enc(DELETED)}&direction=UPSTREAM&maxHops=10&start=2&count=3`,
    )
    t.equal(get.status, 200)
    t.same(get.body, page, 'the GET form answers the same object, unwrapped')
  })

  t.test('a model reaches warehouse datasets only through the features it lists', async (t) => {
    const res = await propose(app, 'mlModel', MODEL, 'mlModelProperties', {
      description: 'churn',
      mlFeatures: [REGIONS, PREMIUM],
      groups: [GROUP],
    })
    t.equal(res.status, 200)
    const up = await lineage(app, { urn: MODEL, direction: 'UPSTREAM', maxHops: 3 })
    const first = up.relationships.filter((r: Json) => r.degree === 1)
    t.same(
      first.map((r: Json) => [r.entity, r.type]),
      [
        [PREMIUM, 'Consumes'],
        [REGIONS, 'Consumes'],
      ],
      'one hop up: only the features',
    )
    const datasets = up.relationships.filter((r: Json) => r.entity.startsWith('urn:li:dataset:'))
    t.ok(datasets.length > 0)
    for (const r of datasets) {
      t.ok(r.path[1].startsWith('urn:li:mlFeature:'), `${r.entity} is reached through a feature`)
    }
    const created = datasets.find((r: Json) => r.entity === CREATED)
    t.same([created.degree, created.type, created.path], [2, 'DerivedFrom', [MODEL, PREMIUM, CREATED]])

    const down = await lineage(app, { urn: CREATED, direction: 'DOWNSTREAM', maxHops: 2 })
    const model = down.relationships.find((r: Json) => r.entity === MODEL)
    t.same([model.degree, model.type], [2, 'Consumes'], 'the model is downstream of the feature sources')
    const group = await lineage(app, { urn: MODEL, direction: 'DOWNSTREAM' })
    t.same(group.entities, [GROUP], 'MemberOf (isUpstream false): the group is downstream of its model')
    const members = await lineage(app, { urn: GROUP, direction: 'UPSTREAM' })
    t.ok(members.entities.includes(MODEL) && members.entities.includes(FIRST_MODEL))

    const science = await lineage(app, {
      urn: 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)',
      direction: 'UPSTREAM',
      maxHops: 10,
    })
    t.same(
      [science.total, science.isPartial],
      [0, false],
      'a model listing no features has no dataset lineage',
    )
    const sagemaker = await lineage(app, { urn: FIRST_MODEL, direction: 'UPSTREAM', maxHops: 2 })
    t.same(sagemaker.relationships[0].entity, TRAINING_JOB, 'TrainedBy: the training job is upstream')
    for (const r of sagemaker.relationships.filter((x: Json) => x.entity.startsWith('urn:li:dataset:'))) {
      t.same(r.path.slice(0, 2), [FIRST_MODEL, TRAINING_JOB], `${r.entity} is reached through the job`)
    }
  })

  t.test('soft-deleted entities are skipped and not traversed, unless asked for', async (t) => {
    t.equal((await propose(app, 'dataset', LOGGING, 'status', { removed: true })).status, 200)
    const up = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
    t.same(degrees(up), { [TASK_456]: 1, [CREATED]: 1, [TASK_123]: 2 })
    const all = await lineage(app, {
      urn: DELETED,
      direction: 'UPSTREAM',
      maxHops: 10,
      includeSoftDeleted: true,
    })
    t.equal(all.total, 7)
    t.equal((await propose(app, 'dataset', LOGGING, 'status', { removed: false })).status, 200)
    t.equal((await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })).total, 7)
  })

  t.test('cycles terminate', async (t) => {
    const res = await propose(app, 'dataset', KAFKA, 'upstreamLineage', {
      upstreams: [
        { auditStamp: { time: 0, actor: 'urn:li:corpuser:x' }, dataset: DELETED, type: 'TRANSFORMED' },
      ],
    })
    t.equal(res.status, 200)
    const up = await lineage(app, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
    t.same([up.total, up.isPartial], [7, false], 'the way back to the start adds nothing')
    const down = await lineage(app, { urn: DELETED, direction: 'DOWNSTREAM', maxHops: 10 })
    t.equal(degrees(down)[KAFKA], 1)
    t.notOk(down.entities.includes(DELETED))
  })

  t.test('bad input: DataHub 400 bodies', async (t) => {
    const expect400 = async (body: Record<string, unknown>, pattern: RegExp) => {
      const res = await postJson(app, '/relationships?action=getLineage', body)
      t.equal(res.status, 400, JSON.stringify(body))
      t.equal(res.body.status, 400)
      t.equal(res.body.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
      t.match(res.body.message, pattern)
    }
    await expect400({ direction: 'UPSTREAM' }, /Parameter 'urn' is required/)
    await expect400({ urn: DELETED }, /Parameter 'direction' is required/)
    await expect400({ urn: DELETED, direction: 'SIDEWAYS' }, /direction/)
    await expect400({ urn: DELETED, direction: 'UPSTREAM', maxHops: 0 }, /maxHops/)
    await expect400({ urn: 'dataset:x', direction: 'UPSTREAM' }, /Invalid urn/)
    await expect400({ urn: DELETED, direction: 'UPSTREAM', count: 1e9 }, /count/)
    const get = await getJson(app, `/lineage?urn=${enc(DELETED)}&direction=UP`)
    t.equal(get.status, 400)
  })
})

t.test('the node and time budgets cut the answer and say so', async (t) => {
  const small = await buildWithLimits(t, { maxHops: 3, maxNodes: 2, timeBudgetMs: 10_000 })
  await ingestExamples(small, 'bootstrap')
  const nodes = await lineage(small, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
  t.same([nodes.maxHops, nodes.total, nodes.isPartial, nodes.partialReason], [3, 2, true, 'NODE_BUDGET'])
  t.same(nodes.entities, [TASK_456, CREATED], 'the first entities in (degree, urn) order')

  const hops = await lineage(small, { urn: HDFS, direction: 'UPSTREAM', maxHops: 10 })
  t.same([hops.total, hops.isPartial], [1, false], 'within every bound: complete')

  const slow = await buildWithLimits(t, { maxHops: 10, maxNodes: 10_000, timeBudgetMs: 0 })
  await ingestExamples(slow, 'bootstrap')
  const time = await lineage(slow, { urn: DELETED, direction: 'UPSTREAM', maxHops: 10 })
  t.same([time.isPartial, time.partialReason], [true, 'TIME_BUDGET'])
})
