import t from 'tap'
import { build, getJson, ingestExamples, type Json, postJson } from '../helpers/build.js'
import { EXAMPLE_FILES, type ExampleName, loadExample, preJsonTransform } from '../helpers/examples.js'

const enc = encodeURIComponent
const JDOE = 'urn:li:corpuser:jdoe'
const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`
const LOGGING = ds('hive', 'logging_events')
const CREATED = ds('hive', 'fct_users_created')
const DELETED = ds('hive', 'fct_users_deleted')
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,a-model-package-group,PROD)'

/** The latest value of every (urn, aspect) the example files write, in ingest order. */
function latestAspects(names: ExampleName[]): Map<string, Map<string, Json>> {
  const out = new Map<string, Map<string, Json>>()
  const put = (urn: string, aspect: string, value: Json) => {
    const aspects = out.get(urn) ?? new Map<string, Json>()
    aspects.set(aspect, value)
    out.set(urn, aspects)
  }
  for (const name of names) {
    for (const raw of loadExample(name)) {
      const r = preJsonTransform(raw) as Json
      if (r.proposedSnapshot) {
        const snapshot = Object.values(r.proposedSnapshot)[0] as Json
        for (const a of snapshot.aspects) {
          const [record, value] = Object.entries(a)[0] as [string, Json]
          const short = record.slice(record.lastIndexOf('.') + 1)
          put(snapshot.urn, short.charAt(0).toLowerCase() + short.slice(1), value)
        }
      } else if (r.changeType === 'UPSERT') {
        put(r.entityUrn, r.aspectName, r.aspect.json ?? JSON.parse(r.aspect.value))
      }
    }
  }
  return out
}

const rel = (app: Parameters<typeof getJson>[0], direction: string, urn: string, types: string, extra = '') =>
  getJson(app, `/relationships?direction=${direction}&urn=${enc(urn)}&types=${types}${extra}`)

t.test('relationships over the DataHub example files', async (t) => {
  const { app } = await build(t)
  const names = Object.keys(EXAMPLE_FILES) as ExampleName[]
  await ingestExamples(app, ...names)
  const latest = latestAspects(names)

  t.test('INCOMING OwnedBy on jdoe lists exactly what jdoe owns', async (t) => {
    const owned = [...latest]
      .filter(([, aspects]) => {
        const owners = (aspects.get('ownership')?.owners ?? []) as Json[]
        const admins = (aspects.get('corpGroupInfo')?.admins ?? []) as string[]
        return owners.some((o) => o.owner === JDOE) || admins.includes(JDOE)
      })
      .map(([urn]) => urn)
      .sort()
    t.ok(owned.length >= 10, `jdoe owns ${owned.length} entities in the files`)
    const { status, body } = await rel(app, 'INCOMING', JDOE, 'OwnedBy')
    t.equal(status, 200)
    t.same(body.entities, owned, 'the spec\u2019s entities, ordered by URN')
    t.same(
      body.relationships,
      owned.map((entity) => ({ type: 'OwnedBy', entity })),
    )
    t.same([body.start, body.count, body.total], [0, owned.length, owned.length])
  })

  t.test('OUTGOING DownstreamOf gives upstreams, INCOMING gives downstreams', async (t) => {
    const upstreamsOf = (urn: string) =>
      ((latest.get(urn)?.get('upstreamLineage')?.upstreams ?? []) as Json[]).map((u) => u.dataset as string)
    const up = await rel(app, 'OUTGOING', DELETED, 'DownstreamOf')
    t.same(up.body.entities, upstreamsOf(DELETED).sort())
    t.same(up.body.entities, [LOGGING, CREATED].sort())
    const downstreams = [...latest.keys()].filter((urn) => upstreamsOf(urn).includes(LOGGING)).sort()
    const down = await rel(app, 'INCOMING', LOGGING, 'DownstreamOf')
    t.same(down.body.entities, downstreams)
    t.same(down.body.entities, [ds('s3', 'project/root/events/logging_events_bckp'), CREATED, DELETED].sort())
    const both = await rel(app, 'UNDIRECTED', LOGGING, 'DownstreamOf')
    t.same(both.body.entities, [...downstreams, ds('hive', 'SampleHiveDataset')].sort())
  })

  t.test('INCOMING MemberOf on a SageMaker model group lists its models', async (t) => {
    const { body } = await rel(app, 'INCOMING', GROUP, 'MemberOf')
    t.same(body.entities, [
      'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,the-first-model,PROD)',
      'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,the-second-model,PROD)',
    ])
  })

  t.test('types as List(a,b), repeated types=, or one name; other relationship names', async (t) => {
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_456)'
    const list = await rel(app, 'OUTGOING', job, 'List(Consumes,Produces)')
    t.same(list.body.relationships, [
      { type: 'Consumes', entity: LOGGING },
      { type: 'Produces', entity: DELETED },
    ])
    const repeated = await rel(app, 'OUTGOING', job, 'Consumes', '&types=Produces')
    t.same(repeated.body, list.body)
    const encoded = await rel(app, 'OUTGOING', job, 'List%28Consumes%2CIsPartOf%29')
    t.same(
      encoded.body.entities,
      [LOGGING, 'urn:li:dataFlow:(airflow,dag_abc,PROD)'],
      'key-aspect IsPartOf edge',
    )
    const chart = await rel(app, 'INCOMING', 'urn:li:chart:(looker,baz1)', 'Contains')
    t.same(chart.body.entities, ['urn:li:dashboard:(looker,baz)'])
    const feature = await rel(app, 'OUTGOING', 'urn:li:mlFeature:(user_features,regions)', 'DerivedFrom')
    t.same(feature.body.entities, [CREATED])
    const tagged = await rel(app, 'INCOMING', 'urn:li:tag:Legacy', 'TaggedWith')
    t.ok(tagged.body.entities.includes(ds('hive', 'SampleHiveDataset')))
  })

  t.test('paging: start and count over a deterministic order', async (t) => {
    const all = (await rel(app, 'INCOMING', JDOE, 'OwnedBy')).body
    const page = await rel(app, 'INCOMING', JDOE, 'OwnedBy', '&start=2&count=3')
    t.same([page.body.start, page.body.count, page.body.total], [2, 3, all.total])
    t.same(page.body.entities, all.entities.slice(2, 5))
    const past = await rel(app, 'INCOMING', JDOE, 'OwnedBy', `&start=${all.total}`)
    t.same([past.body.count, past.body.total, past.body.relationships], [0, all.total, []])
    const nothing = await rel(app, 'INCOMING', 'urn:li:corpuser:nobody', 'OwnedBy')
    t.same(nothing.body, { start: 0, count: 0, total: 0, relationships: [], entities: [] })
  })

  t.test('bad input: DataHub 400 bodies', async (t) => {
    const expect400 = async (url: string, pattern: RegExp) => {
      const res = await getJson(app, url)
      t.equal(res.status, 400, url)
      t.equal(res.body.status, 400)
      t.equal(res.body.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
      t.match(res.body.message, pattern)
    }
    await expect400(`/relationships?direction=INCOMING&types=OwnedBy`, /Parameter 'urn' is required/)
    await expect400(`/relationships?urn=${enc(JDOE)}&types=OwnedBy`, /Parameter 'direction' is required/)
    await expect400(`/relationships?direction=INCOMING&urn=${enc(JDOE)}`, /Parameter 'types' is required/)
    await expect400(`/relationships?direction=INCOMING&urn=${enc(JDOE)}&types=List()`, /'types' is required/)
    await expect400(`/relationships?direction=SIDEWAYS&urn=${enc(JDOE)}&types=OwnedBy`, /direction/)
    await expect400(`/relationships?direction=INCOMING&urn=not-a-urn&types=OwnedBy`, /Invalid urn/)
    await expect400(`/relationships?direction=INCOMING&urn=${enc(JDOE)}&types=OwnedBy&count=-1`, /count/)
    await expect400(`/relationships?direction=INCOMING&urn=${enc(JDOE)}&types=OwnedBy&count=100001`, /count/)
    await expect400(`/relationships?direction=INCOMING&urn=${enc(JDOE)}&types=OwnedBy&start=x`, /start/)
  })
})

t.test('edges change with the aspect at once: replaced, deleted, and gone with the entity', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const proposal = (changeType: string, aspectName: string, value?: unknown) => ({
    proposal: {
      entityType: 'dataset',
      entityUrn: DELETED,
      changeType,
      aspectName,
      ...(value ? { aspect: { value: JSON.stringify(value), contentType: 'application/json' } } : {}),
    },
  })
  const upstreams = async () => (await rel(app, 'OUTGOING', DELETED, 'DownstreamOf')).body.entities
  t.same(await upstreams(), [LOGGING, CREATED].sort())

  const write = await postJson(
    app,
    '/aspects?action=ingestProposal',
    proposal('UPSERT', 'upstreamLineage', {
      upstreams: [
        { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: LOGGING, type: 'TRANSFORMED' },
      ],
    }),
  )
  t.equal(write.status, 200)
  t.same(await upstreams(), [LOGGING], 'removing an upstream removes its edge')
  const downOfCreated = await rel(app, 'INCOMING', CREATED, 'DownstreamOf')
  t.notOk(downOfCreated.body.entities.includes(DELETED), 'and from the other end too')

  const del = await postJson(app, '/aspects?action=ingestProposal', proposal('DELETE', 'upstreamLineage'))
  t.equal(del.status, 200)
  t.same(await upstreams(), [], 'deleting the aspect removes its edges')
  const ownersBefore = (await rel(app, 'INCOMING', JDOE, 'OwnedBy')).body.entities
  t.ok(ownersBefore.includes(DELETED))

  const hard = await postJson(app, '/aspects?action=ingestProposal', proposal('DELETE', 'datasetKey'))
  t.equal(hard.status, 200)
  const ownersAfter = (await rel(app, 'INCOMING', JDOE, 'OwnedBy')).body.entities
  t.notOk(ownersAfter.includes(DELETED), 'a hard delete removes the entity\u2019s outgoing edges')
  t.equal(ownersAfter.length, ownersBefore.length - 1)
  const out = await rel(app, 'OUTGOING', DELETED, 'List(OwnedBy,DownstreamOf)')
  t.equal(out.body.total, 0)
})
