import { createHash } from 'node:crypto'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * ER model relationships (the Relationships tab between datasets), as DataHub serves them:
 * create (its id DataHub's MD5 of name and datasets), read, search by dataset, update, delete.
 */

const EMPLOYEE = 'urn:li:dataset:(urn:li:dataPlatform:mysql,Employee,PROD)'
const COMPANY = 'urn:li:dataset:(urn:li:dataPlatform:mysql,Company,PROD)'
const CREATE = `mutation($input: ERModelRelationshipUpdateInput!) { createERModelRelationship(input: $input) {
  urn type id properties { name source { urn } destination { urn } relationshipFieldMappings { sourceField destinationField }
  cardinality createdTime createdActor { urn } } editableProperties { name description } } }`
const input = (mappings: Array<[string, string]>, extra: Record<string, unknown> = {}) => ({
  properties: {
    name: 'employee_company',
    source: EMPLOYEE,
    destination: COMPANY,
    relationshipFieldmappings: mappings.map(([sourceField, destinationField]) => ({
      sourceField,
      destinationField,
    })),
    created: true,
  },
  ...extra,
})

async function datasets(app: Parameters<typeof gql>[0]) {
  for (const [urn, name] of [
    [EMPLOYEE, 'Employee'],
    [COMPANY, 'Company'],
  ] as const) {
    await ingestAspect(app, 'dataset', urn, 'datasetProperties', { name, customProperties: {} })
  }
}

t.test(
  "a relationship between two datasets: DataHub's id, its cardinality, found from either dataset",
  async (t) => {
    const { app } = await build(t)
    await datasets(app)
    const before = Date.now()
    const made = await gql(app, CREATE, {
      input: input([['company_id', 'id']], {
        editableProperties: { name: 'Works at', description: 'Employer' },
      }),
    })
    t.notOk(made.errors, 'no errors')
    const id = 'f92ec3efabaf82c727c884466f765ec8'
    t.equal(
      createHash('md5')
        .update(
          `{"Destination":"${COMPANY}","ERModelRelationName":"employee_company","Source":"${EMPLOYEE}"}`,
        )
        .digest('hex'),
      id,
      "DataHub's key: the datasets in string order",
    )
    const rel = made.data.createERModelRelationship
    t.match(rel, {
      urn: `urn:li:erModelRelationship:${id}`,
      type: 'ER_MODEL_RELATIONSHIP',
      id,
      properties: {
        name: 'employee_company',
        source: { urn: EMPLOYEE },
        destination: { urn: COMPANY },
        relationshipFieldMappings: [{ sourceField: 'company_id', destinationField: 'id' }],
        cardinality: 'ONE_ONE',
        createdActor: { urn: 'urn:li:corpuser:datahub' },
      },
      editableProperties: { name: 'Works at', description: 'Employer' },
    })
    t.ok(rel.properties.createdTime >= before, 'created now')

    const reverse = await gql(app, CREATE, {
      input: {
        properties: {
          ...input([]).properties,
          source: COMPANY,
          destination: EMPLOYEE,
          relationshipFieldmappings: [
            { sourceField: 'id', destinationField: 'company_id' },
            { sourceField: 'id', destinationField: 'manager_company_id' },
          ],
        },
      },
    })
    t.equal(reverse.data.createERModelRelationship.urn, rel.urn, 'either direction is the same relationship')
    t.equal(
      reverse.data.createERModelRelationship.properties.cardinality,
      'ONE_N',
      'a source field repeated: one to N',
    )

    const found = await gql(
      app,
      `query($d: String!) { search(input: {type: ER_MODEL_RELATIONSHIP, query: "*", start: 0, count: 10,
      orFilters: [{and: [{field: "source", values: [$d]}]}, {and: [{field: "destination", values: [$d]}]}]}) {
      total searchResults { entity { urn } } } }`,
      { d: EMPLOYEE },
    )
    t.notOk(found.errors)
    t.same(
      found.data.search.searchResults,
      [{ entity: { urn: rel.urn } }],
      "the dataset's Relationships tab finds it",
    )
    const edges = await gql(
      app,
      `query($u: String!) { dataset(urn: $u) { relationships(input: {types: ["ermodelrelationA", "ermodelrelationB"], direction: INCOMING}) {
      total relationships { type entity { urn } } } } }`,
      { u: COMPANY },
    )
    t.same(edges.data.dataset.relationships.relationships, [
      { type: 'ermodelrelationA', entity: { urn: rel.urn } },
    ])

    const updated = await gql(
      app,
      `mutation($u: String!) { updateERModelRelationship(urn: $u, input: {editableProperties: {description: "Who pays them"}}) }`,
      { u: rel.urn },
    )
    t.same(updated.data, { updateERModelRelationship: true })
    const read = await gql(
      app,
      `query($u: String!) { erModelRelationship(urn: $u) { editableProperties { name description } } }`,
      {
        u: rel.urn,
      },
    )
    t.same(read.data.erModelRelationship.editableProperties, { name: null, description: 'Who pays them' })

    t.same(
      (await gql(app, 'mutation($u: String!) { deleteERModelRelationship(urn: $u) }', { u: rel.urn })).data,
      {
        deleteERModelRelationship: true,
      },
    )
    const after = await gql(
      app,
      `query($u: String!) { erModelRelationship(urn: $u) { properties { name } } }`,
      { u: rel.urn },
    )
    t.same(after.data.erModelRelationship.properties, null, 'deleted')
  },
)

t.test('bad input: a clear error, nothing written', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  const none = await gql(app, CREATE, { input: input([]) })
  t.equal(none.errors?.[0]?.message, 'An erModelRelationship needs at least one field mapping')
  const missing = 'urn:li:dataset:(urn:li:dataPlatform:mysql,Missing,PROD)'
  const gone = await gql(app, CREATE, {
    input: { properties: { ...input([['a', 'b']]).properties, destination: missing } },
  })
  t.equal(gone.errors?.[0]?.message, `Dataset ${missing} does not exist`)
  const notDataset = await gql(app, CREATE, {
    input: { properties: { ...input([['a', 'b']]).properties, source: 'urn:li:corpuser:x' } },
  })
  t.equal(notDataset.errors?.[0]?.message, 'urn:li:corpuser:x is not a dataset urn')
  const blank = await gql(app, CREATE, {
    input: { properties: { ...input([['a', 'b']]).properties, name: ' ' } },
  })
  t.equal(blank.errors?.[0]?.message, 'An erModelRelationship needs a name that is not blank')
  const noProps = await gql(app, CREATE, { input: {} })
  t.equal(noProps.errors?.[0]?.message, 'properties are required to create an erModelRelationship')
  const list = await gql(app, '{ search(input: {type: ER_MODEL_RELATIONSHIP, query: "*"}) { total } }')
  t.equal(list.data.search.total, 0, 'none written')
})

t.test('privileges: edit on both datasets', async (t) => {
  const built = await build(t, { auth: true })
  for (const urn of [EMPLOYEE, COMPANY])
    await adminWrite(built, urn, 'datasetProperties', { name: 'x', customProperties: {} })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const refused = await gqlAs(built.app, token, CREATE, { input: input([['company_id', 'id']]) })
  t.equal(
    refused.body.errors?.[0]?.message,
    'Unauthorized to create erModelRelationship. Please contact your DataHub administrator.',
  )
  const urn = `urn:li:erModelRelationship:f92ec3efabaf82c727c884466f765ec8`
  t.equal(await aspectOf(built, urn, 'erModelRelationshipProperties'), undefined, 'nothing written')
  const editor = 'urn:li:corpuser:editor'
  await assignRole(built, editor, 'Editor')
  const made = await gqlAs(built.app, await tokenFor(built, editor), CREATE, {
    input: input([['company_id', 'id']]),
  })
  t.equal(made.body.data?.createERModelRelationship?.urn, urn, 'an Editor edits datasets, so may relate them')

  const UPDATE =
    'mutation($u: String!, $input: ERModelRelationshipUpdateInput!) { updateERModelRelationship(urn: $u, input: $input) }'
  const editorToken = await tokenFor(built, editor)
  const docs = await gqlAs(built.app, editorToken, UPDATE, {
    u: urn,
    input: { editableProperties: { description: 'Employer' } },
  })
  t.same(docs.body.data, { updateERModelRelationship: true }, 'its description with EDIT_ENTITY_DOCS')
  const repoint = await gqlAs(built.app, editorToken, UPDATE, {
    u: urn,
    input: { ...input([['x', 'y']]), editableProperties: { description: 'Employer' } },
  })
  t.equal(
    repoint.body.errors?.[0]?.message,
    'Unauthorized to perform this action. Please contact your DataHub administrator.',
    'but not its properties: they need EDIT_ENTITY on it',
  )
  t.same(
    ((await aspectOf(built, urn, 'erModelRelationshipProperties')) as { relationshipFieldMappings: unknown })
      .relationshipFieldMappings,
    [{ sourceField: 'company_id', destinationField: 'id' }],
    'unchanged',
  )
})
