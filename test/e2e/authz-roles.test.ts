import t from 'tap'
import { adminWrite, assignRole, get, post, tokenFor, upsert } from '../helpers/actors.js'
import { build } from '../helpers/build.js'

/** REST reads and writes by DataHub role: Reader, Editor, and a user with none. */

const ALICE = 'urn:li:corpuser:alice'
const EDDIE = 'urn:li:corpuser:eddie'
const NOBODY = 'urn:li:corpuser:nobody'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_roles,PROD)'
const ENC = encodeURIComponent(DS)
const SEARCH = { input: 'authz_roles', entity: 'dataset', start: 0, count: 10 }
const tags = (tag: string) => upsert(DS, 'globalTags', { tags: [{ tag }] })
const ingest = '/aspects?action=ingestProposal'

t.test('a Reader reads and searches but writes nothing; an Editor edits but manages no policy', async (t) => {
  const built = await build(t, { auth: true })
  const { app } = built
  await adminWrite(built, DS, 'datasetProperties', { name: 'authz_roles', customProperties: {} })
  const reader = await tokenFor(built, ALICE)
  const editor = await tokenFor(built, EDDIE)
  await assignRole(built, ALICE, 'Reader')
  await assignRole(built, EDDIE, 'Editor')

  t.equal((await get(app, `/entities/${ENC}`, reader)).status, 200, 'Reader: GET /entities/{urn}')
  t.equal((await get(app, `/entitiesV2/${ENC}`, reader)).status, 200, 'Reader: GET /entitiesV2/{urn}')
  t.equal((await get(app, `/aspects/${ENC}?aspect=datasetProperties`, reader)).status, 200, 'Reader: aspect')
  const found = await post(app, '/entities?action=search', reader, SEARCH)
  t.equal(found.status, 200, 'Reader: search')
  t.equal(found.body.value.numEntities, 1)

  const head = await built.store.head()
  const refused = await post(app, ingest, reader, tags('urn:li:tag:r'))
  t.same(
    [refused.status, refused.body.message],
    [403, `User ${ALICE} is unauthorized to modify entity: HttpStatus: 403 Urn: ${DS}`],
  )
  t.equal(await built.store.head(), head, 'Reader: nothing stored')

  t.equal((await post(app, ingest, editor, tags('urn:li:tag:e'))).status, 200, 'Editor: tags')
  const owners = upsert(DS, 'ownership', {
    owners: [{ owner: EDDIE, type: 'DATAOWNER' }],
    lastModified: { time: 0, actor: EDDIE },
  })
  t.equal((await post(app, ingest, editor, owners)).status, 200, 'Editor: owners')
  const docs = upsert(DS, 'editableDatasetProperties', { description: 'by eddie' })
  t.equal((await post(app, ingest, editor, docs)).status, 200, 'Editor: docs')
  const stored = (await built.store.latest([DS], ['globalTags'])).get(DS)?.[0]?.value
  t.same(stored, { tags: [{ tag: 'urn:li:tag:e' }] })

  const before = await built.store.head()
  const policy = upsert('urn:li:dataHubPolicy:eddie', 'dataHubPolicyInfo', {
    displayName: 'eddie',
    type: 'PLATFORM',
    state: 'ACTIVE',
    privileges: ['MANAGE_POLICIES'],
    actors: { users: [EDDIE], resourceOwners: false, allUsers: false, allGroups: false },
    editable: true,
  })
  t.equal((await post(app, ingest, editor, policy)).status, 403, 'Editor: no policy')
  const promote = upsert(EDDIE, 'roleMembership', { roles: ['urn:li:dataHubRole:Admin'] })
  t.equal((await post(app, ingest, editor, promote)).status, 403, 'Editor: no role for himself')
  const truncate = await post(app, '/operations?action=truncateTimeseriesAspect', editor, {
    entityType: 'dataset',
    aspect: 'datasetProfile',
    endTimeMillis: Date.now(),
    dryRun: false,
  })
  t.equal(truncate.status, 403, 'Editor: no operations')
  t.equal(await built.store.head(), before, 'none of them stored anything')
})

t.test('reads follow the policies: without "All Users - View Entity Page" only roles read', async (t) => {
  const built = await build(t, { auth: true })
  const { app } = built
  await adminWrite(built, DS, 'datasetProperties', { name: 'authz_roles', customProperties: {} })
  const reader = await tokenFor(built, ALICE)
  const nobody = await tokenFor(built, NOBODY)
  await assignRole(built, ALICE, 'Reader')
  t.equal((await get(app, `/entities/${ENC}`, nobody)).status, 200, 'by default every user reads')

  const policy = (
    await built.store.latest(['urn:li:dataHubPolicy:view-entity-page-all'], ['dataHubPolicyInfo'])
  ).get('urn:li:dataHubPolicy:view-entity-page-all')?.[0]?.value
  t.ok(policy, 'the default policy is stored')
  await adminWrite(built, 'urn:li:dataHubPolicy:view-entity-page-all', 'dataHubPolicyInfo', {
    ...policy,
    state: 'INACTIVE',
  })

  const entity = await get(app, `/entities/${ENC}`, nobody)
  t.same([entity.status, entity.body.message], [403, `User is unauthorized to get entity ${DS}`], 'at once')
  const aspect = await get(app, `/aspects/${ENC}?aspect=datasetProperties`, nobody)
  t.same([aspect.status, aspect.body.message], [403, `User is unauthorized to get aspect for ${DS}`])
  const search = await post(app, '/entities?action=search', nobody, SEARCH)
  t.same([search.status, search.body.message], [403, 'User is unauthorized to search.'])
  const rels = `/relationships?urn=${ENC}&direction=OUTGOING&types=List(DownstreamOf)`
  const related = await get(app, rels, nobody)
  t.same([related.status, related.body.message], [403, `User is unauthorized to get entity lineage: ${DS}`])
  const series = { urn: DS, entity: 'dataset', aspect: 'datasetProfile', limit: 10 }
  const profile = await post(app, '/aspects?action=getTimeseriesAspectValues', nobody, series)
  t.same(
    [profile.status, profile.body.message],
    [403, `User is unauthorized to get timeseries aspect for ${DS}`],
  )
  const openApiRefusal = [403, `${NOBODY} is unauthorized to READ  entities.`]
  const v3 = await get(app, `/openapi/v3/entity/dataset/${ENC}`, nobody)
  t.same([v3.status, v3.body.message], openApiRefusal, 'OpenAPI v3: one entity')
  const batch = await post(app, '/openapi/v3/entity/dataset/batchGet', nobody, [{ urn: DS }])
  t.same([batch.status, batch.body.message], openApiRefusal, 'OpenAPI v3: batchGet')
  const scroll = await get(app, '/openapi/v3/entity/dataset?count=10', nobody)
  t.same([scroll.status, scroll.body.message], openApiRefusal, 'OpenAPI v3: scroll')
  t.equal(
    (await get(app, `/openapi/v3/entity/dataset/${ENC}`, reader)).status,
    200,
    'the Reader reads OpenAPI',
  )
  t.equal((await get(app, '/openapi/v3/entity/dataset?count=10', reader)).status, 200)
  t.equal((await get(app, rels, reader)).status, 200, 'the Reader reads relationships')
  t.equal((await post(app, '/aspects?action=getTimeseriesAspectValues', reader, series)).status, 200)
  t.equal((await get(app, `/entities/${ENC}`, reader)).status, 200, 'the Reader still reads')
  t.equal((await post(app, '/entities?action=search', reader, SEARCH)).status, 200, 'and searches')
  t.equal((await get(app, `/entities/${ENC}`, built.adminToken)).status, 200, 'so does the admin')
  t.equal((await get(app, `/entities/${ENC}`, undefined)).status, 401, 'no token: 401')
})
