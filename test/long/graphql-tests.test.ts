import t from 'tap'
import { adminWrite, aspectOf, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, type Json, postJson } from '../helpers/build.js'
import { badRequest, gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Metadata tests over GraphQL, as DataHub's web UI (Govern > Tests) uses them: `createTest`,
 * `updateTest`, `deleteTest`, `listTests`, `test(urn)` and a dataset's `testResults` after
 * `/gms/test?action=evaluate` pushed them.
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,tested,PROD)'
const DOCUMENTED = JSON.stringify({
  on: { types: ['dataset'] },
  rules: { property: 'datasetProperties.description', operator: 'exists' },
})
const NAMED = JSON.stringify({
  on: { types: ['dataset'] },
  rules: { property: 'datasetProperties.name', operator: 'exists' },
})

const CREATE = 'mutation($input: CreateTestInput!) { createTest(input: $input) }'
const UPDATE = 'mutation($urn: String!, $input: UpdateTestInput!) { updateTest(urn: $urn, input: $input) }'
const LIST = `query($input: ListTestsInput!) { listTests(input: $input) { start count total
  tests { urn type name category description definition { json } } } }`
const RESULTS = `query($urn: String!) { dataset(urn: $urn) { testResults {
  passing { type test { urn name } } failing { type test { urn name } } } } }`

const input = (name: string, json: string, more: Json = {}) => ({
  name,
  category: 'Documentation',
  description: `${name} test`,
  definition: { json },
  ...more,
})

t.test('create, list, read, update, evaluate and delete a test', async (t) => {
  const { app } = await build(t)
  const created = await gql(app, CREATE, { input: input('Documented', DOCUMENTED, { id: 'documented' }) })
  t.same(created.data, { createTest: 'urn:li:test:documented' })
  const random = await gql(app, CREATE, { input: input('Named', NAMED) })
  t.match(random.data.createTest, /^urn:li:test:[0-9a-f-]{36}$/, 'a random id without one')

  let list = await gql(app, LIST, { input: {} })
  t.notOk(list.errors, 'no errors')
  t.match(list.data.listTests, { start: 0, total: 2 })
  t.same(list.data.listTests.tests.map((x: Json) => x.name).sort(), ['Documented', 'Named'])
  list = await gql(app, LIST, { input: { query: 'Documented' } })
  t.same(list.data.listTests.tests, [
    {
      urn: 'urn:li:test:documented',
      type: 'TEST',
      name: 'Documented',
      category: 'Documentation',
      description: 'Documented test',
      definition: { json: DOCUMENTED },
    },
  ])

  const updated = await gql(app, UPDATE, {
    urn: 'urn:li:test:documented',
    input: input('Documented datasets', DOCUMENTED, { category: 'Quality', description: null }),
  })
  t.same(updated.data, { updateTest: 'urn:li:test:documented' })
  const one = await gql(app, '{ test(urn: "urn:li:test:documented") { name category description } }')
  t.same(one.data.test, { name: 'Documented datasets', category: 'Quality', description: null })

  // Results, once evaluated with push: the dataset has a name and no description.
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'tested' })
  t.same((await gql(app, RESULTS, { urn: DS })).data.dataset.testResults, null, 'none before')
  const evaluated = await postJson(app, '/gms/test?action=evaluate', { urn: DS, push: true })
  t.equal(evaluated.status, 200)
  let results = (await gql(app, RESULTS, { urn: DS })).data.dataset.testResults
  t.same(results.failing, [
    { type: 'FAILURE', test: { urn: 'urn:li:test:documented', name: 'Documented datasets' } },
  ])
  t.same(results.passing, [{ type: 'SUCCESS', test: { urn: random.data.createTest, name: 'Named' } }])

  const deleted = await gql(app, 'mutation { deleteTest(urn: "urn:li:test:documented") }')
  t.same(deleted.data, { deleteTest: true })
  t.same((await gql(app, LIST, { input: {} })).data.listTests.total, 1)
  results = (await gql(app, RESULTS, { urn: DS })).data.dataset.testResults
  t.same(results.failing, [], 'its results went with it')
  const again = await gql(app, 'mutation { deleteTest(urn: "urn:li:test:documented") }')
  t.same(again.data, { deleteTest: true }, 'deleting a deleted test is fine')
})

t.test('a bad definition gets a clear error and writes nothing', async (t) => {
  const { app } = await build(t)
  const cases: Array<[Json, RegExp]> = [
    [input('Broken', '{not json'), /^Failed to validate test definition: \n.*not valid JSON/s],
    [input('NoTypes', JSON.stringify({ rules: {} })), /^Failed to validate test definition: /],
    [{ ...input('Missing', ''), definition: {} }, /a JSON test definition is required/],
  ]
  for (const [test, message] of cases) {
    const answer = await gql(app, CREATE, { input: test })
    t.match(badRequest(answer, 'createTest'), { code: 400, type: 'BAD_REQUEST', message }, test.name)
  }
  t.equal((await gql(app, LIST, { input: {} })).data.listTests.total, 0, 'no test written')
  const notTest = await gql(app, UPDATE, { urn: DS, input: input('x', DOCUMENTED) })
  t.match(badRequest(notTest, 'updateTest'), { code: 400 })
})

t.test('tests need MANAGE_TESTS', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const create = await gqlAs(built.app, reader, CREATE, { input: input('Mine', DOCUMENTED, { id: 'mine' }) })
  t.equal(create.body.errors?.[0]?.extensions?.code, 403, 'create refused')
  t.equal(await aspectOf(built, 'urn:li:test:mine', 'testInfo'), undefined, 'nothing written')
  const list = await gqlAs(built.app, reader, LIST, { input: {} })
  t.equal(list.body.errors?.[0]?.extensions?.code, 403, 'list refused')
  const admin = await gqlAs(built.app, built.adminToken as string, CREATE, {
    input: input('Mine', DOCUMENTED, { id: 'mine' }),
  })
  t.same(admin.body.data, { createTest: 'urn:li:test:mine' }, 'the admin may')
  const del = await gqlAs(built.app, reader, 'mutation { deleteTest(urn: "urn:li:test:mine") }')
  t.equal(del.body.errors?.[0]?.extensions?.code, 403, 'delete refused')
})
