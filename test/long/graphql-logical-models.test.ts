import t from 'tap'
import { adminWrite, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/**
 * Logical models as DataHub serves them: a model made with its columns, physical datasets and
 * their columns linked to it and unlinked, a schema change that unlinks what it breaks, and
 * `setLogicalParent`.
 */

const CREATE = 'mutation($input: CreateLogicalModelInput!) { createLogicalModel(input: $input) }'
const LINK = 'mutation($input: LinkPhysicalChildInput!) { linkPhysicalChild(input: $input) }'
const UNLINK = 'mutation($input: UnlinkPhysicalChildInput!) { unlinkPhysicalChild(input: $input) }'
const UPDATE = 'mutation($input: UpdateLogicalModelSchemaInput!) { updateLogicalModelSchema(input: $input) }'
const SET_PARENT = 'mutation($input: SetLogicalParentInput!) { setLogicalParent(input: $input) }'
const MODEL = 'urn:li:dataset:(urn:li:dataPlatform:logical,customer,PROD)'
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,db.customers,PROD)'
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`
const PARENT = `query($urn: String!) { dataset(urn: $urn) { logicalParent { urn }
  physicalChildren: relationships(input: {types: ["PhysicalInstanceOf"], direction: INCOMING}) { total relationships { entity { urn } } } } }`

function physicalSchema(...paths: string[]) {
  return {
    schemaName: 'customers',
    platform: 'urn:li:dataPlatform:snowflake',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: paths.map((fieldPath) => ({
      fieldPath,
      nativeDataType: 'varchar',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
    })),
  }
}

t.test('a model, its instances and their columns', async (t) => {
  const { app } = await build(t)
  const made = await gql(app, CREATE, {
    input: {
      name: 'customer',
      displayName: 'Customer',
      columns: [
        { fieldPath: 'id', type: 'NUMBER' },
        { fieldPath: 'email', type: 'STRING' },
      ],
    },
  })
  t.notOk(made.errors, 'no errors')
  t.equal(made.data.createLogicalModel, MODEL)
  const model = await gql(
    app,
    `{ dataset(urn: "${MODEL}") { properties { name } platform { properties { logical } }
      schemaMetadata { fields { fieldPath nativeDataType type } } } }`,
  )
  t.same(model.data.dataset, {
    properties: { name: 'Customer' },
    platform: { properties: { logical: true } },
    schemaMetadata: {
      fields: [
        { fieldPath: 'id', nativeDataType: 'NUMBER', type: 'NUMBER' },
        { fieldPath: 'email', nativeDataType: 'STRING', type: 'STRING' },
      ],
    },
  })
  const again = await gql(app, CREATE, {
    input: { name: 'customer', columns: [{ fieldPath: 'id', type: 'NUMBER' }] },
  })
  t.equal(again.errors?.[0]?.message, `A logical model already exists at ${MODEL}.`)
  for (const [input, message] of [
    [{ name: ' ', columns: [{ fieldPath: 'id', type: 'NUMBER' }] }, 'Logical model name must not be empty.'],
    [{ name: 'x', columns: [] }, 'A logical model must have at least one column.'],
    [
      {
        name: 'x',
        columns: [
          { fieldPath: 'id', type: 'NUMBER' },
          { fieldPath: 'id', type: 'STRING' },
        ],
      },
      'Duplicate column field path: id',
    ],
    [
      {
        name: 'x',
        platform: 'urn:li:dataPlatform:averyveryverylongname',
        columns: [{ fieldPath: 'id', type: 'NUMBER' }],
      },
      "Platform name 'averyveryverylongname' exceeds the maximum length of 15 characters.",
    ],
  ] as const) {
    t.equal((await gql(app, CREATE, { input })).errors?.[0]?.message, message, message)
  }
  await ingestAspect(app, 'dataPlatform', 'urn:li:dataPlatform:snowflake', 'dataPlatformInfo', {
    name: 'snowflake',
    type: 'RELATIONAL_DB',
    datasetNameDelimiter: '.',
  })
  const physical = await gql(app, CREATE, {
    input: {
      name: 'x',
      platform: 'urn:li:dataPlatform:snowflake',
      columns: [{ fieldPath: 'id', type: 'NUMBER' }],
    },
  })
  t.equal(
    physical.errors?.[0]?.message,
    'Cannot create a logical model on platform urn:li:dataPlatform:snowflake: it is not a logical platform.',
  )

  // A physical dataset linked to the model, column by column.
  await ingestAspect(app, 'dataset', ORDERS, 'schemaMetadata', physicalSchema('customer_id', 'mail', 'notes'))
  const badColumn = await gql(app, LINK, {
    input: {
      logicalParentUrn: MODEL,
      childUrn: ORDERS,
      columnMappings: [{ parentFieldPath: 'id', childFieldPath: 'nope' }],
    },
  })
  t.equal(badColumn.errors?.[0]?.message, `Field path 'nope' not found on child dataset ${ORDERS}`)
  t.equal((await restAspects(app, ORDERS)).logicalParent, undefined, 'nothing written')
  const linked = await gql(app, LINK, {
    input: {
      logicalParentUrn: MODEL,
      childUrn: ORDERS,
      columnMappings: [
        { parentFieldPath: 'id', childFieldPath: 'customer_id' },
        { parentFieldPath: 'email', childFieldPath: 'mail' },
      ],
    },
  })
  t.same(linked.data, { linkPhysicalChild: true })
  const child = await gql(app, PARENT, { urn: ORDERS })
  t.same(child.data.dataset.logicalParent, { urn: MODEL })
  const parent = await gql(app, PARENT, { urn: MODEL })
  t.same(parent.data.dataset.physicalChildren, { total: 1, relationships: [{ entity: { urn: ORDERS } }] })
  const column = await gql(
    app,
    `{ entity(urn: "${field(ORDERS, 'mail')}") { ... on SchemaFieldEntity { logicalParent { urn } } } }`,
  )
  t.same(column.data.entity.logicalParent, { urn: field(MODEL, 'email') })

  // Retyping `email` breaks its mapping; `id` stays.
  t.same(
    (
      await gql(app, UPDATE, {
        input: {
          urn: MODEL,
          columns: [
            { fieldPath: 'id', type: 'NUMBER' },
            { fieldPath: 'email', type: 'NUMBER' },
            { fieldPath: 'name', type: 'STRING' },
          ],
        },
      })
    ).data,
    { updateLogicalModelSchema: true },
  )
  t.same(
    (await restAspects(app, field(ORDERS, 'mail'))).logicalParent?.value,
    {},
    'the broken column link is gone',
  )
  t.equal(
    (await restAspects(app, field(ORDERS, 'customer_id'))).logicalParent?.value.parent.destinationUrn,
    field(MODEL, 'id'),
    'the other stays',
  )
  t.same(
    (await gql(app, PARENT, { urn: ORDERS })).data.dataset.logicalParent,
    { urn: MODEL },
    'so does the dataset link',
  )
  // Removing `id` too breaks the last mapping: the dataset link goes with it.
  await gql(app, UPDATE, { input: { urn: MODEL, columns: [{ fieldPath: 'name', type: 'STRING' }] } })
  t.same(
    (await gql(app, PARENT, { urn: ORDERS })).data.dataset.logicalParent,
    null,
    'no mapping left, no link',
  )
  const noSchema = await gql(app, UPDATE, {
    input: {
      urn: 'urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD)',
      columns: [{ fieldPath: 'a', type: 'STRING' }],
    },
  })
  t.equal(
    noSchema.errors?.[0]?.message,
    'Logical model urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD) has no schema to update.',
  )

  // Link again, then unlink: the dataset and its linked columns let go.
  await gql(app, LINK, {
    input: {
      logicalParentUrn: MODEL,
      childUrn: ORDERS,
      columnMappings: [{ parentFieldPath: 'name', childFieldPath: 'notes' }],
    },
  })
  t.same((await gql(app, UNLINK, { input: { childUrn: ORDERS } })).data, { unlinkPhysicalChild: true })
  t.same((await gql(app, PARENT, { urn: ORDERS })).data.dataset.logicalParent, null)
  t.same((await restAspects(app, field(ORDERS, 'notes'))).logicalParent?.value, {})
  t.equal((await gql(app, PARENT, { urn: MODEL })).data.dataset.physicalChildren.total, 0)

  // setLogicalParent: a dataset's parent is a dataset, a column's a column.
  t.same((await gql(app, SET_PARENT, { input: { resourceUrn: ORDERS, parentUrn: MODEL } })).data, {
    setLogicalParent: true,
  })
  t.same((await gql(app, PARENT, { urn: ORDERS })).data.dataset.logicalParent, { urn: MODEL })
  const mixed = await gql(app, SET_PARENT, {
    input: { resourceUrn: field(ORDERS, 'mail'), parentUrn: MODEL },
  })
  t.equal(mixed.errors?.[0]?.message, 'The logical parent of a schemaField must be a schemaField')
  const noParent = await gql(app, SET_PARENT, {
    input: { resourceUrn: ORDERS, parentUrn: 'urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD)' },
  })
  t.equal(
    noParent.errors?.[0]?.message,
    'Entity urn:li:dataset:(urn:li:dataPlatform:logical,none,PROD) does not exist',
  )
  await gql(app, SET_PARENT, { input: { resourceUrn: ORDERS } })
  t.same((await gql(app, PARENT, { urn: ORDERS })).data.dataset.logicalParent, null, 'unset')
})

t.test('who may: CREATE_LOGICAL_MODELS for models, EDIT_ENTITY on both ends for links', async (t) => {
  const built = await build(t, { auth: true })
  const admin = 'urn:li:corpuser:admin'
  await assignRole(built, admin, 'Admin')
  const token = await tokenFor(built, admin)
  const create = await gqlAs(built.app, token, CREATE, {
    input: { name: 'm', columns: [{ fieldPath: 'a', type: 'STRING' }] },
  })
  t.equal(
    create.body.errors?.[0]?.message,
    'Unauthorized to create logical models. Please contact your DataHub administrator.',
  )
  const update = await gqlAs(built.app, token, UPDATE, {
    input: { urn: MODEL, columns: [{ fieldPath: 'a', type: 'STRING' }] },
  })
  t.equal(
    update.body.errors?.[0]?.message,
    'Unauthorized to edit logical models. Please contact your DataHub administrator.',
  )
  await gqlAs(built.app, built.adminToken, CREATE, {
    input: { name: 'customer', columns: [{ fieldPath: 'a', type: 'STRING' }] },
  })
  await adminWrite(built, ORDERS, 'schemaMetadata', physicalSchema('a'))
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const readerToken = await tokenFor(built, reader)
  for (const [query, input] of [
    [LINK, { logicalParentUrn: MODEL, childUrn: ORDERS }],
    [UNLINK, { childUrn: ORDERS }],
    [SET_PARENT, { resourceUrn: ORDERS, parentUrn: MODEL }],
  ] as const) {
    const refused = await gqlAs(built.app, readerToken, query, { input })
    t.equal(refused.body.errors?.[0]?.extensions?.code, 403, 'a Reader may not')
  }
  const linked = await gqlAs(built.app, token, LINK, { input: { logicalParentUrn: MODEL, childUrn: ORDERS } })
  t.same(linked.body.data, { linkPhysicalChild: true }, 'an Admin edits both')
})

t.test('no physical dataset becomes a model, and no dataset an instance of itself', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', ORDERS, 'schemaMetadata', physicalSchema('a'))
  const onPhysical = await gql(app, CREATE, {
    input: {
      name: 'm',
      platform: 'urn:li:dataPlatform:snowflake',
      columns: [{ fieldPath: 'a', type: 'STRING' }],
    },
  })
  t.equal(
    onPhysical.errors?.[0]?.message,
    'Cannot create a logical model on platform urn:li:dataPlatform:snowflake: it is not a logical platform.',
    'a platform with datasets and no info is a physical one',
  )
  t.equal(
    (await restAspects(app, 'urn:li:dataPlatform:snowflake')).dataPlatformInfo,
    undefined,
    'not made logical',
  )
  const retype = await gql(app, UPDATE, {
    input: { urn: ORDERS, columns: [{ fieldPath: 'b', type: 'STRING' }] },
  })
  t.equal(retype.errors?.[0]?.message, `${ORDERS} is not a logical model`)
  t.equal(
    (await restAspects(app, ORDERS)).schemaMetadata?.value.fields[0].fieldPath,
    'a',
    'its schema is unchanged',
  )

  await gql(app, CREATE, { input: { name: 'customer', columns: [{ fieldPath: 'a', type: 'STRING' }] } })
  const self = await gql(app, SET_PARENT, { input: { resourceUrn: ORDERS, parentUrn: ORDERS } })
  t.equal(self.errors?.[0]?.message, `${ORDERS} cannot be a logical instance of itself`)
  await gql(app, SET_PARENT, { input: { resourceUrn: ORDERS, parentUrn: MODEL } })
  const cycle = await gql(app, LINK, { input: { logicalParentUrn: ORDERS, childUrn: MODEL } })
  t.equal(cycle.errors?.[0]?.message, `${MODEL} cannot be a logical instance of itself`)

  // A column link outlives its column in the schema; it can still be cleared.
  await gql(app, SET_PARENT, { input: { resourceUrn: field(ORDERS, 'a'), parentUrn: field(MODEL, 'a') } })
  await ingestAspect(app, 'dataset', ORDERS, 'schemaMetadata', physicalSchema('b'))
  const cleared = await gql(app, SET_PARENT, { input: { resourceUrn: field(ORDERS, 'a') } })
  t.same(cleared.data, { setLogicalParent: true }, 'a dropped column lets go')
  t.same((await restAspects(app, field(ORDERS, 'a'))).logicalParent?.value, {})
})
