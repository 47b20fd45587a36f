import t from 'tap'
import { build, getJson, type Json, postJson } from '../helpers/build.js'

/**
 * PATCH proposals and CREATE / CREATE_ENTITY over HTTP, as DataHub's Python emitter sends them:
 * a patch versions, derives edges and updates search like an UPSERT; a patch that breaks the
 * schema is refused whole.
 */

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,patch.orders,PROD)'
const UP = 'urn:li:dataset:(urn:li:dataPlatform:hive,patch.raw_orders,PROD)'
const JDOE = 'urn:li:corpuser:jdoe'
const esc = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')

interface ProposalOptions {
  changeType?: string
  contentType?: string
  entityType?: string
  headers?: Record<string, string>
}

function propose(app: Json, urn: string, aspectName: string, aspect: unknown, options: ProposalOptions = {}) {
  return postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: options.entityType ?? 'dataset',
      entityUrn: urn,
      changeType: options.changeType ?? 'PATCH',
      aspectName,
      aspect: {
        value: JSON.stringify(aspect),
        contentType: options.contentType ?? 'application/json-patch+json',
      },
      ...(options.headers ? { headers: options.headers } : {}),
    },
    async: 'false',
  })
}

const aspectOf = async (app: Json, urn: string, aspect: string, version = 0) =>
  (await getJson(app, `/aspects/${enc(urn)}?aspect=${aspect}&version=${version}`)).body

t.test('PATCH proposals through ingestProposal', async (t) => {
  const { app } = await build(t)

  t.test('a patch on a new entity starts from the default and creates the entity', async (t) => {
    const res = await propose(app, DS, 'globalTags', [
      { op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } },
    ])
    t.equal(res.status, 200)
    const v2 = await getJson(app, `/entitiesV2/${enc(DS)}`)
    t.same(v2.body.aspects.globalTags.value, { tags: [{ tag: 'urn:li:tag:pii' }] })
    t.ok(v2.body.aspects.datasetKey, 'the key aspect was written')
    t.ok(v2.body.aspects.browsePaths, 'and the default aspects')
  })

  t.test('a patch versions like an UPSERT, and an idempotent patch adds no version', async (t) => {
    const add = [{ op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } }]
    t.equal((await propose(app, DS, 'globalTags', add)).status, 200)
    t.equal((await propose(app, DS, 'globalTags', add)).status, 200)
    const v0 = await aspectOf(app, DS, 'globalTags', 0)
    t.same(v0.aspect['com.linkedin.common.GlobalTags'].tags, [
      { tag: 'urn:li:tag:pii' },
      { tag: 'urn:li:tag:gold' },
    ])
    const v1 = await aspectOf(app, DS, 'globalTags', 1)
    t.same(v1.aspect['com.linkedin.common.GlobalTags'].tags, [{ tag: 'urn:li:tag:pii' }])
    const v2 = await getJson(app, `/aspects/${enc(DS)}?aspect=globalTags&version=2`)
    t.equal(v2.status, 404, 'the repeated patch made no version')
  })

  t.test('DataHub’s object form, with the application/json content type', async (t) => {
    const res = await propose(
      app,
      DS,
      'ownership',
      {
        patch: [{ op: 'add', path: `/owners/${JDOE}/DATAOWNER`, value: { owner: JDOE, type: 'DATAOWNER' } }],
      },
      { contentType: 'application/json' },
    )
    t.equal(res.status, 200)
    const owners = (await aspectOf(app, DS, 'ownership')).aspect['com.linkedin.common.Ownership'].owners
    t.same(owners, [{ owner: JDOE, type: 'DATAOWNER' }])
  })

  t.test('edges and search follow a patch', async (t) => {
    const lineage = [
      { op: 'add', path: `/upstreams/${esc(UP)}`, value: { dataset: UP, type: 'TRANSFORMED' } },
    ]
    t.equal((await propose(app, DS, 'upstreamLineage', lineage)).status, 200)
    const rel = await getJson(
      app,
      `/relationships?direction=OUTGOING&urn=${enc(DS)}&types=List(DownstreamOf)`,
    )
    t.same(
      rel.body.relationships.map((r: Json) => r.entity),
      [UP],
      'the DownstreamOf edge exists',
    )
    const props = [{ op: 'add', path: '/description', value: 'patched zebra orders' }]
    t.equal((await propose(app, DS, 'editableDatasetProperties', props)).status, 200)
    const found = await postJson(app, '/entities?action=search', {
      input: 'zebra',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.same(found.body.value.entities, [DS], 'search sees the patched description')

    t.equal(
      (await propose(app, DS, 'upstreamLineage', [{ op: 'remove', path: `/upstreams/${esc(UP)}` }])).status,
      200,
    )
    const gone = await getJson(
      app,
      `/relationships?direction=OUTGOING&urn=${enc(DS)}&types=List(DownstreamOf)`,
    )
    t.same(gone.body.relationships, [], 'removing the upstream removes the edge')
  })

  t.test('the newest SDK keys tags, terms and owners by attribution source', async (t) => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,patch.attributed,PROD)'
    const source = 'urn:li:platformResource:ingestion'
    const attribution = { time: 1700000000000, actor: 'urn:li:corpuser:datahub', source }
    // DataHub's Python SDK (aspect_helpers/tags.py, terms.py, ownership.py): add_* sends the full
    // key path with "" for an absent type URN or source, in GenericJsonPatch's object form.
    const body = (patch: unknown[]) => ({ arrayPrimaryKeys: {}, patch, forceGenericPatch: false })
    const tag = 'urn:li:tag:pii'
    const term = 'urn:li:glossaryTerm:ssn'
    for (const [aspect, patch] of [
      [
        'globalTags',
        [
          { op: 'add', path: `/tags/${tag}/`, value: { tag } },
          { op: 'add', path: `/tags/${tag}/${source}`, value: { tag, attribution } },
        ],
      ],
      ['glossaryTerms', [{ op: 'add', path: `/terms/${term}/${source}`, value: { urn: term, attribution } }]],
      [
        'ownership',
        [{ op: 'add', path: `/owners/${JDOE}/DATAOWNER//`, value: { owner: JDOE, type: 'DATAOWNER' } }],
      ],
    ] as const) {
      const res = await propose(app, urn, aspect, body([...patch]))
      t.equal(res.status, 200, `${aspect} accepted`)
    }
    const aspects = (await getJson(app, `/entitiesV2/${enc(urn)}`)).body.aspects
    t.same(aspects.globalTags.value.tags, [{ tag }, { tag, attribution }], 'one tag entry per source')
    t.same(aspects.glossaryTerms.value.terms, [{ urn: term, attribution }])
    t.same(aspects.ownership.value.owners, [{ owner: JDOE, type: 'DATAOWNER' }], 'the "" keys are not stored')
  })

  t.test('a patch that breaks the schema is a 422 naming the field, and changes nothing', async (t) => {
    const before = await aspectOf(app, DS, 'ownership')
    const res = await propose(app, DS, 'ownership', [
      {
        op: 'add',
        path: '/owners/urn:li:corpuser:x/BOGUS',
        value: { owner: 'urn:li:corpuser:x', type: 'BOGUS' },
      },
    ])
    t.equal(res.status, 422)
    t.match(res.body.message, /owners\/1\/type.*"BOGUS" is not an enum symbol/)
    t.same(await aspectOf(app, DS, 'ownership'), before)
  })

  t.test('bad patches are refused with the reason', async (t) => {
    const cases: Array<[unknown, ProposalOptions, number, RegExp]> = [
      [[{ op: 'merge', path: '/a' }], {}, 400, /unsupported op "merge"/],
      [{ patch: 'x' }, {}, 400, /"patch" must be an array/],
      [[{ op: 'replace', path: '/nothing', value: 1 }], {}, 422, /no value at \/nothing/],
      [
        [{ op: 'add', path: '/a', value: 1 }],
        { contentType: 'text/plain' },
        422,
        /contentType text\/plain is not supported/,
      ],
    ]
    for (const [body, options, status, message] of cases) {
      const res = await propose(app, DS, 'globalTags', body, options)
      t.equal(res.status, status, JSON.stringify(body))
      t.match(res.body.message, message)
    }
    const series = await propose(app, DS, 'datasetProfile', [{ op: 'add', path: '/rowCount', value: 1 }])
    t.equal(series.status, 422)
    t.match(series.body.message, /ChangeType not supported: PATCH for aspect datasetProfile/)
  })
})

t.test('CREATE and CREATE_ENTITY refuse what exists, with DataHub’s messages', async (t) => {
  const { app } = await build(t)
  const NEW = 'urn:li:dataset:(urn:li:dataPlatform:hive,create.t,PROD)'
  const upsert = (changeType: string, value: Json, headers?: Record<string, string>) =>
    propose(app, NEW, 'status', value, {
      changeType,
      contentType: 'application/json',
      ...(headers ? { headers } : {}),
    })
  t.equal((await upsert('CREATE_ENTITY', { removed: false })).status, 200, 'a new entity is created')
  const again = await upsert('CREATE_ENTITY', { removed: true })
  t.equal(again.status, 422)
  t.match(
    again.body.message,
    /Cannot perform CREATE_ENTITY if not exists since the entity key already exists/,
  )
  const create = await upsert('CREATE', { removed: true })
  t.equal(create.status, 422)
  t.match(create.body.message, /Cannot perform CREATE since the aspect already exists/)
  t.equal(
    (await upsert('CREATE', { removed: true }, { 'If-None-Match': '*' })).status,
    200,
    'If-None-Match: * drops it',
  )
  const status = (await aspectOf(app, NEW, 'status')).aspect['com.linkedin.common.Status']
  t.same(status, { removed: false }, 'nothing was overwritten')
})

t.test('an explicitly sent key aspect is stored as sent', async (t) => {
  const { app } = await build(t)
  const urn = 'urn:li:dashboard:(powerbi,dashboards.abc)'
  const key = { dashboardTool: 'powerbi', dashboardId: 'powerbi.linkedin.com/dashboards/abc' }
  const res = await propose(app, urn, 'dashboardKey', key, {
    changeType: 'UPSERT',
    contentType: 'application/json',
    entityType: 'dashboard',
  })
  t.equal(res.status, 200)
  const v2 = await getJson(app, `/entitiesV2/${enc(urn)}?aspects=List(dashboardKey)`)
  t.same(v2.body.aspects.dashboardKey.value, key)
})
