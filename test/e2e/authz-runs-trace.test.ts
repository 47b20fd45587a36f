import t, { type Test } from 'tap'
import { adminWrite, aspectOf, assignRole, deactivatePolicy, post, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'

/**
 * The REST routes DataHub checks beyond writes and entity reads: `/runs` (describe needs READ
 * of every entity, list is open to any caller), the OpenAPI write trace (READ of each URN it
 * names) and metadata-test evaluation (READ of the entity, and its edit with `push`).
 */

const ALICE = 'urn:li:corpuser:alice'
const RITA = 'urn:li:corpuser:rita'
const SEEN = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_runs_seen,PROD)'
const HIDDEN = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_runs_hidden,PROD)'
const TRACE = '/openapi/v1/trace/write/0af7651916cd43dd8448eb211c80319c'
const _enc = encodeURIComponent

/** Alice may view SEEN only; Rita is a Reader (views everything). */
async function setUp(t: Test) {
  const built = await build(t, { auth: true })
  for (const urn of [SEEN, HIDDEN])
    await adminWrite(built, urn, 'datasetProperties', { name: urn, customProperties: {} })
  await deactivatePolicy(built, 'view-entity-page-all')
  await deactivatePolicy(built, 'view-dataset-sensitive')
  await adminWrite(built, 'urn:li:dataHubPolicy:alice-views-one', 'dataHubPolicyInfo', {
    displayName: 'alice views one dataset',
    description: 'Alice may view one dataset',
    type: 'METADATA',
    state: 'ACTIVE',
    privileges: ['VIEW_ENTITY_PAGE'],
    actors: { users: [ALICE], resourceOwners: false, allUsers: false, allGroups: false },
    resources: {
      allResources: false,
      filter: { criteria: [{ field: 'URN', values: [SEEN], condition: 'EQUALS' }] },
    },
    editable: true,
  })
  await assignRole(built, RITA, 'Reader')
  return { built, alice: await tokenFor(built, ALICE), rita: await tokenFor(built, RITA) }
}

t.test('/runs: describe needs READ of every entity; list is open to any caller', async (t) => {
  const { built, alice, rita } = await setUp(t)
  const describe = { runId: 'no-run-id-provided', start: 0, count: 10 }
  const refused = await post(built.app, '/runs?action=describe', alice, describe)
  t.equal(refused.status, 403, 'a grant on one dataset is not READ of every entity')
  t.match(refused.body, { status: 403, message: 'User is unauthorized to get entity' })
  const allowed = await post(built.app, '/runs?action=describe', rita, describe)
  t.equal(allowed.status, 200, 'a Reader may describe a run')
  t.ok(Array.isArray(allowed.body.value))
  t.equal((await post(built.app, '/runs?action=describe', built.adminToken, describe)).status, 200)

  const listed = await post(built.app, '/runs?action=list', alice, {})
  t.equal(listed.status, 200, 'DataHub lists runs to any authenticated caller')
  t.ok(Array.isArray(listed.body.value))
  t.equal(
    (await post(built.app, '/runs?action=list', undefined, {})).status,
    401,
    'but not to anonymous ones',
  )
})

t.test('write trace: READ of every URN in the body, refused with DataHub message', async (t) => {
  const { built, alice } = await setUp(t)
  const one = await post(built.app, TRACE, alice, { [SEEN]: ['datasetProperties'] })
  t.equal(one.status, 200, 'alice may trace the dataset she views')
  t.ok(one.body && typeof one.body === 'object')
  const both = await post(built.app, TRACE, alice, {
    [SEEN]: ['datasetProperties'],
    [HIDDEN]: ['datasetProperties'],
  })
  t.equal(both.status, 403)
  t.match(both.body, {
    status: 403,
    message: `${ALICE} is unauthorized to READ as least one of the requested URNs.`,
  })
  const admin = await post(built.app, TRACE, built.adminToken, { [HIDDEN]: ['datasetProperties'] })
  t.equal(admin.status, 200)
})

t.test(
  'test evaluation: READ of the entity; with push, its edit too, and nothing is stored when refused',
  async (t) => {
    const { built, alice, rita } = await setUp(t)
    const evaluate = (token: string | undefined, body: Record<string, unknown>, path = '/gms/test') =>
      post(built.app, `${path}?action=evaluate`, token, body)

    const seen = await evaluate(alice, { urn: SEEN })
    t.equal(seen.status, 200, 'alice may evaluate tests on the dataset she views')
    t.same(seen.body, { value: { passing: [], failing: [] } })
    for (const path of ['/gms/test', '/test', '/api/gms/test']) {
      const hidden = await evaluate(alice, { urn: HIDDEN }, path)
      t.equal(hidden.status, 403, `${path}: not on one she may not view`)
      t.match(hidden.body, { status: 403, message: `User is unauthorized to get entity ${HIDDEN}` })
    }

    const pushed = await evaluate(rita, { urn: SEEN, push: true })
    t.equal(pushed.status, 403, 'a Reader may not store results')
    t.match(pushed.body, { status: 403, message: `User is unauthorized to modify entity: ${SEEN}` })
    t.equal(await aspectOf(built, SEEN, 'testResults'), undefined, 'nothing stored')
    t.equal((await evaluate(rita, { urn: SEEN })).status, 200, 'but may evaluate')

    const byAdmin = await evaluate(built.adminToken, { urn: SEEN, push: true })
    t.equal(byAdmin.status, 200, 'the admin may push')
    t.same(
      await aspectOf(built, SEEN, 'testResults'),
      { passing: [], failing: [] },
      'and the results are stored',
    )
  },
)
