import t from 'tap'
import { adminWrite, aspectOf, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, ingestExamples, ingestGolden, type Json } from '../helpers/build.js'
import { badRequest, gql, snapshot } from '../helpers/mutation-kit.js'

/**
 * Query entities over GraphQL, as DataHub serves them to its dataset page's Queries tab: the
 * view definitions sources ingest (SYSTEM, from DataHub's Postgres golden file) and the queries
 * users save (MANUAL: `createQuery`, `updateQuery`, `deleteQuery`), listed by `listQueries`.
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
/** The query the bootstrap example saves on OTHER (MANUAL). */
const BOOTSTRAP_QUERY = 'urn:li:query:test-query'
const PG_VIEW_SOURCE =
  'urn:li:dataset:(urn:li:dataPlatform:postgres,postgrestest.public.metadata_aspect_v2,PROD)'

const LIST = `query($input: ListQueriesInput!) { listQueries(input: $input) { start count total queries {
  urn type platform { urn } properties { statement { value language } source name description created { time actor }
    lastModified { time actor } } subjects { dataset { urn } } } } }`
const CREATE = `mutation($input: CreateQueryInput!) { createQuery(input: $input) { urn type
  properties { statement { value language } source name description created { actor } lastModified { actor } }
  subjects { dataset { urn } } } }`
const UPDATE = `mutation($urn: String!, $input: UpdateQueryInput!) { updateQuery(urn: $urn, input: $input) {
  urn properties { statement { value } name description } subjects { dataset { urn } } } }`

const urnsOf = (page: Json): string[] => page.queries.map((q: Json) => q.urn)

t.test('the view definitions a source ingests, on the datasets they are about', async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'postgres__postgres_all_db_mces_with_db_golden.json')
  const answer = await gql(app, LIST, { input: { datasetUrn: PG_VIEW_SOURCE, source: 'SYSTEM' } })
  t.notOk(answer.errors, 'no errors')
  const page = answer.data.listQueries
  t.ok(page.total >= 1, `queries about the dataset (${page.total})`)
  t.match(page.queries[0], {
    type: 'QUERY',
    platform: { urn: 'urn:li:dataPlatform:postgres' },
    properties: { statement: { value: /FROM metadata_aspect_v2/, language: 'SQL' }, source: 'SYSTEM' },
  })
  t.ok(
    page.queries[0].subjects.some((s: Json) => s.dataset.urn === PG_VIEW_SOURCE),
    'the dataset is among its subjects',
  )
  t.equal(
    (await gql(app, LIST, { input: { datasetUrn: PG_VIEW_SOURCE, source: 'MANUAL' } })).data.listQueries
      .total,
    0,
  )
  const search = await gql(
    app,
    '{ searchAcrossEntities(input: {query: "*", count: 100}) { searchResults { entity { type } } } }',
  )
  t.notOk(
    search.data.searchAcrossEntities.searchResults.some((r: Json) => r.entity.type === 'QUERY'),
    'queries are not among the default search types, as in DataHub',
  )
})

t.test('createQuery, updateQuery, deleteQuery and listQueries', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms', 'bootstrap')
  const create = (name: string, subjects: string[]) =>
    gql(app, CREATE, {
      input: {
        properties: {
          name,
          description: `about ${name}`,
          statement: { value: `SELECT * FROM ${name}`, language: 'SQL' },
        },
        subjects: subjects.map((datasetUrn) => ({ datasetUrn })),
      },
    })
  const first = await create('orders', [DS])
  t.notOk(first.errors, 'no errors')
  const created = first.data.createQuery
  t.match(created.urn, /^urn:li:query:[0-9a-f-]{36}$/)
  t.same(created, {
    urn: created.urn,
    type: 'QUERY',
    properties: {
      statement: { value: 'SELECT * FROM orders', language: 'SQL' },
      source: 'MANUAL',
      name: 'orders',
      description: 'about orders',
      created: { actor: 'urn:li:corpuser:datahub' },
      lastModified: { actor: 'urn:li:corpuser:datahub' },
    },
    subjects: [{ dataset: { urn: DS } }],
  })
  await new Promise((resolve) => setTimeout(resolve, 2))
  const second = (await create('customers', [DS, OTHER])).data.createQuery.urn
  const third = (await create('hive only', [OTHER])).data.createQuery.urn

  const onDs = (await gql(app, LIST, { input: { datasetUrn: DS } })).data.listQueries
  t.same(urnsOf(onDs), [second, created.urn], "the dataset's queries, newest first")
  t.match(onDs, { start: 0, count: 100, total: 2 })
  t.same(
    urnsOf(
      (await gql(app, LIST, { input: { datasetUrn: OTHER, source: 'MANUAL' } })).data.listQueries,
    ).sort(),
    [second, third, BOOTSTRAP_QUERY].sort(),
  )
  t.same(
    urnsOf((await gql(app, LIST, { input: { query: 'customers' } })).data.listQueries),
    [second],
    'by text',
  )
  const ascending = await gql(app, LIST, {
    input: { datasetUrn: DS, sortInput: { sortCriterion: { field: 'createdAt', sortOrder: 'ASCENDING' } } },
  })
  t.same(urnsOf(ascending.data.listQueries), [created.urn, second], 'sorted as asked')

  // Concurrent updates of different members keep both (one PATCH each).
  await Promise.all([
    gql(app, UPDATE, { urn: created.urn, input: { properties: { name: 'orders v2' } } }),
    gql(app, UPDATE, { urn: created.urn, input: { properties: { description: 'all orders' } } }),
    gql(app, UPDATE, {
      urn: created.urn,
      input: { properties: { statement: { value: 'SELECT id FROM orders', language: 'SQL' } } },
    }),
  ])
  const updated = await gql(app, UPDATE, { urn: created.urn, input: { subjects: [{ datasetUrn: OTHER }] } })
  t.same(updated.data.updateQuery, {
    urn: created.urn,
    properties: {
      statement: { value: 'SELECT id FROM orders' },
      name: 'orders v2',
      description: 'all orders',
    },
    subjects: [{ dataset: { urn: OTHER } }],
  })
  t.same(
    urnsOf((await gql(app, LIST, { input: { datasetUrn: DS } })).data.listQueries),
    [second],
    'moved off the dataset',
  )

  const missing = 'urn:li:query:nope'
  t.same(
    badRequest(await gql(app, UPDATE, { urn: missing, input: { properties: { name: 'x' } } }), 'updateQuery'),
    {
      message: `Failed to find query with urn ${missing}`,
      code: 404,
      type: 'NOT_FOUND',
    },
  )
  const before = await snapshot(app, created.urn)
  t.same(
    badRequest(await gql(app, UPDATE, { urn: DS, input: { properties: { name: 'x' } } }), 'updateQuery'),
    {
      message: `${DS} is not a query urn`,
      code: 400,
      type: 'BAD_REQUEST',
    },
  )
  const badSubject = await gql(app, UPDATE, {
    urn: created.urn,
    input: { properties: { name: 'y' }, subjects: [{ datasetUrn: 'nope' }] },
  })
  t.equal(badRequest(badSubject, 'updateQuery').code, 400, 'a malformed subject is a 400')
  t.equal(await snapshot(app, created.urn), before, 'nothing written by the refused updates')

  t.same(await gql(app, `mutation { deleteQuery(urn: "${created.urn}") }`), { data: { deleteQuery: true } })
  t.same(
    urnsOf((await gql(app, LIST, { input: { datasetUrn: OTHER } })).data.listQueries).sort(),
    [second, third, BOOTSTRAP_QUERY].sort(),
    'gone',
  )
  t.same(
    await gql(app, `mutation { deleteQuery(urn: "${created.urn}") }`),
    { data: { deleteQuery: true } },
    'again: true',
  )
})

t.test('query edits need EDIT_ENTITY_QUERIES on their datasets, with DataHub messages', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'q', customProperties: {} })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const input = {
    properties: { statement: { value: 'SELECT 1', language: 'SQL' } },
    subjects: [{ datasetUrn: DS }],
  }
  const refused = await gqlAs(built.app, reader, CREATE, { input })
  t.match(refused.body.errors?.[0], {
    message: 'Unauthorized to create Query. Please contact your DataHub administrator for more information.',
    extensions: { code: 403 },
  })
  const urn = (await gqlAs(built.app, built.adminToken as string, CREATE, { input })).body.data.createQuery
    .urn
  const update = await gqlAs(built.app, reader, UPDATE, { urn, input: { properties: { name: 'mine' } } })
  t.match(update.body.errors?.[0], {
    message:
      'Unauthorized to update Query. Please contact your DataHub administrator if this needs corrective action.',
    extensions: { code: 403 },
  })
  const del = await gqlAs(built.app, reader, `mutation { deleteQuery(urn: "${urn}") }`)
  t.match(del.body.errors?.[0], {
    message:
      'Unauthorized to delete Query. Please contact your DataHub administrator if this needs corrective action.',
    extensions: { code: 403 },
  })
  t.match(await aspectOf(built, urn, 'queryProperties'), { statement: { value: 'SELECT 1' } }, 'unchanged')
  t.equal(((await aspectOf(built, urn, 'queryProperties')) as Json).name, undefined, 'not renamed')
})
