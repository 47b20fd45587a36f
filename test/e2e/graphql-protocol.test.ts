import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import { getIntrospectionQuery } from 'graphql'
import t from 'tap'
import { build, getJson, ingestExamples, type Json, postJson } from '../helpers/build.js'

/** GraphQL transport, error format, validation, limits, introspection and the read/write semantics. */

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
const enc = encodeURIComponent

async function post(
  app: CatalogServer,
  payload: unknown,
): Promise<{ status: number; body: Json; raw: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: payload as Record<string, unknown>,
  })
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, raw: res.body }
}

t.test('transport and error format', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')

  const get = await app.inject({
    method: 'GET',
    url: `/api/graphql?query=${enc(`{ dataset(urn: "${HIVE}") { name } }`)}`,
  })
  t.equal(get.statusCode, 200)
  t.same(JSON.parse(get.body), { data: { dataset: { name: 'SampleHiveDataset' } } }, 'GET serves queries')
  const getMutation = await app.inject({
    method: 'GET',
    url: `/api/graphql?query=${enc('mutation { createTag(input: {name: "x"}) }')}`,
  })
  t.equal(getMutation.statusCode, 405, 'no mutations over GET')
  t.equal(JSON.parse(getMutation.body).errors[0].message, 'Operation cannot be performed via a GET request')

  const badJson = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { 'content-type': 'application/json' },
    payload: '{"query": ',
  })
  t.equal(badJson.statusCode, 400, 'unparseable JSON: 400')
  t.equal(badJson.body, '', 'with an empty body, as DataHub')
  // No query: a GraphQL error over HTTP 200 (graphql-limits.test.ts covers the other malformed bodies).
  const noQuery = await post(app, { variables: {} })
  t.equal(noQuery.status, 200, 'no query: 200')
  t.match(noQuery.body, {
    data: null,
    errors: [{ message: 'The request has no query', extensions: { code: 400, type: 'BAD_REQUEST' } }],
  })

  const syntax = await post(app, { query: '{ dataset(urn: "x") { name }' })
  t.equal(syntax.status, 200)
  t.equal(syntax.body.data, null)
  t.match(syntax.body.errors[0], {
    message: /^Syntax Error/,
    extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' },
  })
  const unknownField = await post(app, { query: `{ dataset(urn: "${HIVE}") { nope } }` })
  t.match(unknownField.body, {
    data: null,
    errors: [
      {
        message: 'Cannot query field "nope" on type "Dataset".',
        extensions: { classification: 'ValidationError' },
      },
    ],
  })
  const wrongVariable = await post(app, {
    query: 'query($urn: String!) { dataset(urn: $urn) { name } }',
    variables: { urn: 5 },
  })
  t.equal(wrongVariable.status, 200)
  t.match(wrongVariable.body.errors[0], {
    message: /String cannot represent a non string value/,
    extensions: { classification: 'ValidationError' },
  })
  const badLong = await post(app, {
    query: `{ dataset(urn: "${HIVE}") { schemaMetadata(version: "abc") { name } } }`,
  })
  t.match(badLong.body.errors[0], {
    message: /Long cannot represent/,
    extensions: { classification: 'ValidationError' },
  })

  const resolverError = await post(app, { query: '{ tag(urn: "urn:li:corpuser:jdoe") { name } }' })
  t.equal(resolverError.status, 200, 'resolver errors answer 200')
  t.same(resolverError.body, {
    data: { tag: null },
    errors: [
      {
        message: 'Invalid urn urn:li:corpuser:jdoe: expected a tag urn',
        locations: [{ line: 1, column: 3 }],
        path: ['tag'],
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
      },
    ],
  })
})

t.test('depth and complexity limits', async (t) => {
  const { app } = await build(t)
  let deep = 'urn'
  for (let i = 0; i < 25; i++) deep = `properties { manager { ${deep} } }`
  const tooDeep = await post(app, { query: `{ corpUser(urn: "urn:li:corpuser:jdoe") { ${deep} } }` })
  t.equal(tooDeep.status, 200)
  t.match(tooDeep.body.errors[0].message, /^Query depth 52 of operation 'anonymous' exceeds the limit of 50$/)
  t.equal(tooDeep.body.data, null)

  const aliases = Array.from({ length: 1001 }, (_, i) => `a${i}: dataset(urn: "${HIVE}") { urn }`).join(' ')
  const wide = await post(app, { query: `query Wide { ${aliases} }` })
  t.match(
    wide.body.errors[0].message,
    /^Query complexity 2002 \(field selections\) of operation 'Wide' exceeds the limit of 2000$/,
  )

  // Fragments doubling 16 times: 131072 fields once expanded, measured without expanding.
  const fragments = ['fragment F0 on Dataset { urn name }']
  for (let i = 1; i <= 16; i++) fragments.push(`fragment F${i} on Dataset { ...F${i - 1} ...F${i - 1} }`)
  const started = Date.now()
  const bomb = await post(app, { query: `{ dataset(urn: "${HIVE}") { ...F16 } } ${fragments.join(' ')}` })
  t.match(
    bomb.body.errors[0].message,
    /^Query size 131073 \(field selections, fragments expanded\) of operation 'anonymous' exceeds the limit of 50000$/,
  )
  t.ok(Date.now() - started < 2000, 'rejected quickly')

  const tooManyTokens = await post(app, { query: `{ ${'__typename '.repeat(25_000)}}` })
  t.equal(tooManyTokens.status, 200)
  t.match(tooManyTokens.body.errors[0].message, /Document contains more that 20000 tokens/)

  const urns = Array.from({ length: 501 }, (_, i) => `urn:li:tag:t${i}`)
  const tooMany = await post(app, {
    query: 'query($u: [String!]!) { entities(urns: $u) { urn } }',
    variables: { u: urns },
  })
  t.equal(tooMany.body.errors[0].message, 'entities takes at most 500 urns, got 501')
})

t.test("introspection is on and the schema names are DataHub's", async (t) => {
  const { app } = await build(t)
  const res = await post(app, { query: getIntrospectionQuery() })
  t.equal(res.status, 200)
  t.notOk(res.body.errors, 'the standard introspection query passes the limits')
  const types = new Map<string, Json>(res.body.data.__schema.types.map((type: Json) => [type.name, type]))
  const fieldsOf = (name: string) =>
    new Map<string, Json>(types.get(name).fields.map((f: Json) => [f.name, f]))
  const dataset = fieldsOf('Dataset')
  for (const name of [
    'urn',
    'type',
    'name',
    'platform',
    'properties',
    'schemaMetadata',
    'editableSchemaMetadata',
    'tags',
    'globalTags',
    'deprecation',
    'ownership',
    'institutionalMemory',
    'status',
    'exists',
  ]) {
    t.ok(dataset.has(name), `Dataset.${name}`)
  }
  t.same(dataset.get('name').type, {
    kind: 'NON_NULL',
    name: null,
    ofType: { kind: 'SCALAR', name: 'String', ofType: null },
  })
  t.same(fieldsOf('TagProperties').get('colorHex').type, { kind: 'SCALAR', name: 'String', ofType: null })
  const mutations = fieldsOf('Mutation')
  for (const name of [
    'updateDataset',
    'updateDescription',
    'createTag',
    'addTag',
    'addTags',
    'removeTag',
    'updateDeprecation',
    'batchUpdateDeprecation',
    'createAccessToken',
    'revokeAccessToken',
  ]) {
    t.ok(mutations.has(name), `Mutation.${name}`)
  }
  const inputs = types.get('TagAssociationInput').inputFields.map((f: Json) => f.name)
  t.same(inputs, ['tagUrn', 'resourceUrn', 'subResourceType', 'subResource'])
  t.same(
    types.get('SubResourceType').enumValues.map((v: Json) => v.name),
    ['DATASET_FIELD'],
  )
})

t.test('entity, entities and the other entity queries', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap', 'tagsAndTerms')
  const one = await post(app, {
    query: `{ entity(urn: "urn:li:corpuser:jdoe") { urn type ... on CorpUser { username properties { displayName email active } info { fullName } } } }`,
  })
  t.same(one.body.data.entity, {
    urn: 'urn:li:corpuser:jdoe',
    type: 'CORP_USER',
    username: 'jdoe',
    properties: { displayName: 'John Doe', email: 'jdoe@linkedin.com', active: true },
    info: { fullName: 'John Doe' },
  })
  const many = await post(app, {
    query: 'query($u: [String!]!) { entities(urns: $u) { urn type } }',
    variables: { u: [HIVE, 'not-a-urn', 'urn:li:dataHubFile:x', 'urn:li:tag:Legacy'] },
  })
  t.same(
    many.body.data.entities,
    [{ urn: HIVE, type: 'DATASET' }, null, null, { urn: 'urn:li:tag:Legacy', type: 'TAG' }],
    'one bad element never fails the list',
  )
  t.same(
    many.body.errors.map((e: Json) => e.path),
    [
      ['entities', 1],
      ['entities', 2],
    ],
  )

  const group = await post(app, {
    query: `{ corpGroup(urn: "urn:li:corpGroup:bfoo") { name properties { email description } info { admins { urn username } groups } }
      missing: corpGroup(urn: "urn:li:corpGroup:nobody") { urn name properties { email } exists } }`,
  })
  t.same(group.body.data.corpGroup, {
    name: 'bfoo',
    properties: { email: 'bfoo@linkedin.com', description: 'This group is full of bfoos!' },
    info: {
      admins: [
        { urn: 'urn:li:corpuser:jdoe', username: 'jdoe' },
        { urn: ROOT_ACTOR, username: 'datahub' },
      ],
      groups: ['urn:li:corpGroup:jdoe'],
    },
  })
  t.same(
    group.body.data.missing,
    { urn: 'urn:li:corpGroup:nobody', name: 'nobody', properties: null, exists: false },
    'a missing group is non-null with null properties (test_e2e.py)',
  )

  const dashboard = await post(app, {
    query:
      '{ dashboard(urn: "urn:li:dashboard:(looker,baz)") { tool dashboardId platform { name properties { displayName } } properties { name } ownership { owners { owner { ... on CorpGroup { name } } } } } }',
  })
  t.match(dashboard.body.data.dashboard, {
    tool: 'looker',
    dashboardId: 'baz',
    platform: { name: 'looker' },
    properties: { name: String },
    ownership: { owners: [{ owner: { name: 'bfoo' } }] },
  })
  const term = await post(app, {
    query:
      '{ glossaryTerm(urn: "urn:li:glossaryTerm:SavingAccount") { name hierarchicalName properties { name definition termSource } } }',
  })
  t.match(term.body.data.glossaryTerm, {
    name: 'SavingAccount',
    hierarchicalName: 'SavingAccount',
    properties: { definition: String },
  })
  const platform = await post(app, {
    query:
      '{ dataPlatform(urn: "urn:li:dataPlatform:hive") { name properties { type displayName datasetNameDelimiter } } }',
  })
  t.same(platform.body.data.dataPlatform, {
    name: 'hive',
    properties: { type: 'FILE_SYSTEM', displayName: 'Hive', datasetNameDelimiter: '.' },
  })
  const exists = await post(app, {
    query: `{ yes: entityExists(urn: "${HIVE}") no: entityExists(urn: "urn:li:tag:nope") }`,
  })
  t.same(exists.body.data, { yes: true, no: false })
})

t.test('dataset fields: schema (with versions), ownership, links', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const query = `{ dataset(urn: "${HIVE}") { name origin platform { name } properties { name origin description customProperties { key value } }
    schemaMetadata { name version platformUrn fields { fieldPath nativeDataType type nullable } }
    ownership { owners { owner { ... on CorpUser { username } } type ownershipType { urn } } lastModified { actor } }
    institutionalMemory { elements { url label author { urn } } }
    status { removed } browsePaths { path } } }`
  const res = await post(app, { query })
  t.notOk(res.body.errors)
  const ds = res.body.data.dataset
  t.equal(ds.name, 'SampleHiveDataset')
  t.equal(ds.origin, 'PROD')
  t.same(ds.platform, { name: 'hive' })
  t.ok(ds.schemaMetadata.fields.length > 0, 'schema fields')
  t.match(ds.schemaMetadata.fields[0], { fieldPath: String, type: /^[A-Z]+$/, nullable: Boolean })
  t.match(ds.ownership.owners[0], {
    owner: { username: String },
    type: String,
    ownershipType: { urn: /^urn:li:ownershipType:/ },
  })
  t.same(ds.status, { removed: false })

  const stored = await getJson(app, `/aspects/${enc(HIVE)}?aspect=schemaMetadata&version=0`)
  const schema = stored.body.aspect['com.linkedin.schema.SchemaMetadata']
  const ingest = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: HIVE,
      changeType: 'UPSERT',
      aspectName: 'schemaMetadata',
      aspect: { value: JSON.stringify({ ...schema, hash: 'second' }), contentType: 'application/json' },
    },
  })
  t.equal(ingest.status, 200)
  const versions = await post(app, {
    query: `{ dataset(urn: "${HIVE}") { latest: schemaMetadata { hash aspectVersion } first: schemaMetadata(version: 1) { hash aspectVersion } none: schemaMetadata(version: 9) { hash } } }`,
  })
  t.same(versions.body.data.dataset, {
    latest: { hash: 'second', aspectVersion: 0 },
    first: { hash: schema.hash, aspectVersion: 1 },
    none: null,
  })
})

t.test('updateDataset writes whole aspects and returns the dataset', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,graphqlUpdated,PROD)'
  const res = await post(app, {
    query: `mutation($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) {
      urn exists editableProperties { description }
      institutionalMemory { elements { url description author { urn } } }
      ownership { owners { owner { ... on CorpUser { urn } } type } lastModified { actor } }
      tags { tags { tag { urn } } }
      deprecation { deprecated note actor }
      editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description tags { tags { tag { urn } } } } } } }`,
    variables: {
      urn,
      input: {
        editableProperties: { description: 'Edited *markdown*' },
        institutionalMemory: {
          elements: [{ url: 'https://wiki/x', description: 'Runbook', author: 'urn:li:corpuser:jdoe' }],
        },
        ownership: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }] },
        tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' } }] },
        deprecation: { deprecated: true, note: 'old' },
        editableSchemaMetadata: {
          editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'field a', globalTags: { tags: [] } }],
        },
      },
    },
  })
  t.notOk(res.body.errors)
  t.same(
    res.body.data.updateDataset,
    {
      urn,
      exists: true,
      editableProperties: { description: 'Edited *markdown*' },
      institutionalMemory: {
        elements: [
          { url: 'https://wiki/x', description: 'Runbook', author: { urn: 'urn:li:corpuser:jdoe' } },
        ],
      },
      ownership: {
        owners: [{ owner: { urn: 'urn:li:corpuser:jdoe' }, type: 'TECHNICAL_OWNER' }],
        lastModified: { actor: ROOT_ACTOR },
      },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
      deprecation: { deprecated: true, note: 'old', actor: ROOT_ACTOR },
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'field a', tags: { tags: [] } }],
      },
    },
    'like DataHub, updateDataset creates a dataset that did not exist',
  )

  const badOwner = await post(app, {
    query:
      'mutation($urn: String!) { updateDataset(urn: $urn, input: {ownership: {owners: [{owner: "urn:li:corpuser"}]}}) { urn } }',
    variables: { urn },
  })
  t.match(badOwner.body.errors[0], {
    message: /urn/i,
    extensions: { code: 400, type: 'BAD_REQUEST' },
  })
  const v2 = await getJson(app, `/entitiesV2/${enc(urn)}?aspects=List(ownership)`)
  t.equal(
    v2.body.aspects.ownership.value.owners[0].owner,
    'urn:li:corpuser:jdoe',
    'a refused update changes nothing',
  )
})
