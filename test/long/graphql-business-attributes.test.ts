import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Business attributes over GraphQL, as DataHub serves them: create, update, delete, list, read,
 * and their attachment to columns (`SchemaFieldEntity.businessAttributes`).
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,ba.customers,PROD)'
const EMAIL_FIELD = `urn:li:schemaField:(${DS},email)`
const PHONE_FIELD = `urn:li:schemaField:(${DS},phone)`
const FIELDS = `properties { name description type created { time actor } lastModified { time } }`
const CREATE = `mutation($input: CreateBusinessAttributeInput!) { createBusinessAttribute(input: $input) {
  urn type ${FIELDS} ownership { owners { owner { ... on CorpUser { urn } } type } } } }`
const UPDATE = `mutation($urn: String!, $input: UpdateBusinessAttributeInput!) {
  updateBusinessAttribute(urn: $urn, input: $input) { urn ${FIELDS} } }`
const ATTACH = `mutation($input: AddBusinessAttributeInput!) { addBusinessAttribute(input: $input) }`
const DETACH = `mutation($input: AddBusinessAttributeInput!) { removeBusinessAttribute(input: $input) }`
const COLUMNS = `query($urn: String!) { dataset(urn: $urn) { schemaMetadata { fields { fieldPath
  schemaFieldEntity { urn fieldPath parent { urn } businessAttributes { businessAttribute {
    associatedUrn businessAttribute { urn properties { name } } } } } } } } }`

async function withSchema(app: Parameters<typeof gql>[0]) {
  await ingestAspect(app, 'dataset', DS, 'schemaMetadata', {
    schemaName: 'customers',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: ['email', 'phone'].map((fieldPath) => ({
      fieldPath,
      nullable: false,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      nativeDataType: 'string',
      recursive: false,
    })),
  })
}

t.test('create, read, list, update and delete an attribute', async (t) => {
  const { app } = await build(t)
  const made = await gql(app, CREATE, {
    input: { id: 'email', name: 'Email address', description: 'A contact email', type: 'STRING' },
  })
  t.notOk(made.errors, 'no errors')
  const created = made.data.createBusinessAttribute
  t.match(created, {
    urn: 'urn:li:businessAttribute:email',
    type: 'BUSINESS_ATTRIBUTE',
    properties: {
      name: 'Email address',
      description: 'A contact email',
      type: 'STRING',
      created: { actor: 'urn:li:corpuser:datahub' },
    },
    ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' }] },
  })

  const blank = await gql(app, CREATE, { input: { id: 'blank', name: ' ' } })
  t.equal(blank.errors?.[0]?.message, 'A business attribute needs a name that is not blank')
  const again = await gql(app, CREATE, { input: { id: 'email', name: 'Other' } })
  t.equal(again.errors?.[0]?.message, 'This Business Attribute already exists!')
  const sameName = await gql(app, CREATE, { input: { id: 'email2', name: 'Email address' } })
  t.equal(
    sameName.errors?.[0]?.message,
    '"Email address" already exists as Business Attribute. Please pick a unique name.',
  )
  t.equal(sameName.errors?.[0]?.extensions?.code, 409)
  const noId = await gql(app, CREATE, { input: { name: 'Phone number' } })
  t.match(
    noId.data.createBusinessAttribute.urn,
    /^urn:li:businessAttribute:[0-9a-f-]{36}$/,
    'a UUID without an id',
  )

  const list = await gql(
    app,
    `{ listBusinessAttributes(input: {start: 0, count: 10}) { start count total businessAttributes { urn properties { name } } } }`,
  )
  t.equal(list.data.listBusinessAttributes.total, 2)
  t.same(
    list.data.listBusinessAttributes.businessAttributes
      .map((a: { properties: { name: string } }) => a.properties.name)
      .sort(),
    ['Email address', 'Phone number'],
  )
  const found = await gql(
    app,
    `{ listBusinessAttributes(input: {query: "phone"}) { total businessAttributes { urn } } }`,
  )
  t.equal(found.data.listBusinessAttributes.total, 1, 'by query')

  const beforeUpdate = Date.now()
  const updated = await gql(app, UPDATE, {
    urn: created.urn,
    input: { description: 'Where we write to', type: 'NUMBER' },
  })
  t.match(updated.data.updateBusinessAttribute.properties, {
    name: 'Email address',
    description: 'Where we write to',
    type: 'NUMBER',
  })
  t.ok(
    updated.data.updateBusinessAttribute.properties.lastModified.time >= beforeUpdate,
    'lastModified is now',
  )
  const renamed = await gql(app, UPDATE, { urn: created.urn, input: { name: 'Email address' } })
  t.notOk(renamed.errors, 'keeping its own name is no conflict')
  const taken = await gql(app, UPDATE, { urn: created.urn, input: { name: 'Phone number' } })
  t.equal(taken.errors?.[0]?.extensions?.code, 409, "another attribute's name is")
  const missing = await gql(app, UPDATE, {
    urn: 'urn:li:businessAttribute:none',
    input: { description: 'x' },
  })
  t.equal(
    missing.errors?.[0]?.message,
    'Failed to update Business Attribute. Business Attribute with urn urn:li:businessAttribute:none does not exist.',
  )

  const read = await gql(
    app,
    `query($u: String!) { businessAttribute(urn: $u) { urn properties { name type } } }`,
    {
      u: created.urn,
    },
  )
  t.same(read.data.businessAttribute, {
    urn: created.urn,
    properties: { name: 'Email address', type: 'NUMBER' },
  })
})

t.test('attach to columns, read on the schema, detach; a delete lets go of its columns', async (t) => {
  const { app } = await build(t)
  await withSchema(app)
  const attribute = (await gql(app, CREATE, { input: { id: 'email', name: 'Email address' } })).data
    .createBusinessAttribute.urn
  const attached = await gql(app, ATTACH, {
    input: {
      businessAttributeUrn: attribute,
      resourceUrn: [{ resourceUrn: EMAIL_FIELD }, { resourceUrn: PHONE_FIELD }],
    },
  })
  t.same(attached.data, { addBusinessAttribute: true })
  const columns = (await gql(app, COLUMNS, { urn: DS })).data.dataset.schemaMetadata.fields
  t.same(columns[0], {
    fieldPath: 'email',
    schemaFieldEntity: {
      urn: EMAIL_FIELD,
      fieldPath: 'email',
      parent: { urn: DS },
      businessAttributes: {
        businessAttribute: {
          associatedUrn: EMAIL_FIELD,
          businessAttribute: { urn: attribute, properties: { name: 'Email address' } },
        },
      },
    },
  })
  const detached = await gql(app, DETACH, {
    input: { businessAttributeUrn: attribute, resourceUrn: [{ resourceUrn: PHONE_FIELD }] },
  })
  t.same(detached.data, { removeBusinessAttribute: true })
  const after = (await gql(app, COLUMNS, { urn: DS })).data.dataset.schemaMetadata.fields
  t.same(
    after[1].schemaFieldEntity.businessAttributes,
    { businessAttribute: null },
    'the phone column has none',
  )
  const twice = await gql(app, DETACH, {
    input: { businessAttributeUrn: attribute, resourceUrn: [{ resourceUrn: PHONE_FIELD }] },
  })
  t.equal(twice.errors?.[0]?.message, 'Schema field has not attached with business attribute')

  const unknown = await gql(app, ATTACH, {
    input: {
      businessAttributeUrn: 'urn:li:businessAttribute:none',
      resourceUrn: [{ resourceUrn: PHONE_FIELD }],
    },
  })
  t.equal(unknown.errors?.[0]?.message, 'This urn does not exist: urn:li:businessAttribute:none')
  const notField = await gql(app, ATTACH, {
    input: {
      businessAttributeUrn: attribute,
      resourceUrn: [{ resourceUrn: PHONE_FIELD }, { resourceUrn: DS }],
    },
  })
  t.equal(notField.errors?.[0]?.message, `${DS} is not a schemaField urn`)
  t.same(
    (await gql(app, COLUMNS, { urn: DS })).data.dataset.schemaMetadata.fields[1].schemaFieldEntity
      .businessAttributes,
    { businessAttribute: null },
    'nothing written for a call with a bad column',
  )

  const deleted = await gql(app, 'mutation($u: String!) { deleteBusinessAttribute(urn: $u) }', {
    u: attribute,
  })
  t.same(deleted.data, { deleteBusinessAttribute: true })
  const gone = (await gql(app, COLUMNS, { urn: DS })).data.dataset.schemaMetadata.fields[0].schemaFieldEntity
  t.same(gone.businessAttributes, null, "the column's attachment went with it")
  const again = await gql(app, 'mutation($u: String!) { deleteBusinessAttribute(urn: $u) }', { u: attribute })
  t.equal(again.errors?.[0]?.message, `This urn does not exist: ${attribute}`)
})

t.test('privileges: creating, managing, and attaching on the dataset', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'customers', customProperties: {} })
  const attribute = (
    await gqlAs(built.app, built.adminToken, CREATE, { input: { id: 'email', name: 'Email' } })
  ).body.data.createBusinessAttribute.urn
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const refused = [
    await gqlAs(built.app, token, CREATE, { input: { id: 'mine', name: 'Mine' } }),
    await gqlAs(built.app, token, UPDATE, { urn: attribute, input: { description: 'x' } }),
    await gqlAs(built.app, token, 'mutation($u: String!) { deleteBusinessAttribute(urn: $u) }', {
      u: attribute,
    }),
    await gqlAs(built.app, token, ATTACH, {
      input: { businessAttributeUrn: attribute, resourceUrn: [{ resourceUrn: EMAIL_FIELD }] },
    }),
  ]
  for (const r of refused) {
    t.equal(
      r.body.errors?.[0]?.message,
      'Unauthorized to perform this action. Please contact your DataHub administrator.',
    )
  }
  t.equal(
    await aspectOf(built, 'urn:li:businessAttribute:mine', 'businessAttributeInfo'),
    undefined,
    'nothing created',
  )
  t.equal(await aspectOf(built, EMAIL_FIELD, 'businessAttributes'), undefined, 'nothing attached')
  const listed = await gqlAs(built.app, token, '{ listBusinessAttributes(input: {}) { total } }')
  t.equal(listed.body.data.listBusinessAttributes.total, 1, 'anyone may list them')

  const editor = 'urn:li:corpuser:editor'
  await assignRole(built, editor, 'Editor')
  const editorToken = await tokenFor(built, editor)
  const byOwner = await gqlAs(built.app, editorToken, ATTACH, {
    input: { businessAttributeUrn: attribute, resourceUrn: [{ resourceUrn: EMAIL_FIELD }] },
  })
  t.same(byOwner.body.data, { addBusinessAttribute: true }, "EDIT_ENTITY on the column's dataset is enough")
})

t.test("an attribute's tags, terms and description live in its info", async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'tag', 'urn:li:tag:pii', 'tagProperties', { name: 'pii' })
  await ingestAspect(app, 'glossaryTerm', 'urn:li:glossaryTerm:contact', 'glossaryTermInfo', {
    definition: 'Contact details',
    termSource: 'INTERNAL',
  })
  const attribute = (await gql(app, CREATE, { input: { id: 'email', name: 'Email' } })).data
    .createBusinessAttribute.urn
  const edits = [
    `mutation($u: String!) { addTag(input: {tagUrn: "urn:li:tag:pii", resourceUrn: $u}) }`,
    `mutation($u: String!) { addTerm(input: {termUrn: "urn:li:glossaryTerm:contact", resourceUrn: $u}) }`,
    `mutation($u: String!) { updateDescription(input: {description: "Where we write to", resourceUrn: $u}) }`,
  ]
  for (const edit of edits) t.notOk((await gql(app, edit, { u: attribute })).errors, edit.slice(27, 45))
  const read = await gql(
    app,
    `query($u: String!) { businessAttribute(urn: $u) { properties { name description
      tags { tags { associatedUrn tag { urn name } } } glossaryTerms { terms { term { urn } } } } } }`,
    { u: attribute },
  )
  t.same(read.data.businessAttribute.properties, {
    name: 'Email',
    description: 'Where we write to',
    tags: { tags: [{ associatedUrn: attribute, tag: { urn: 'urn:li:tag:pii', name: 'pii' } }] },
    glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:contact' } }] },
  })
  const removed = await gql(
    app,
    `mutation($u: String!) { removeTag(input: {tagUrn: "urn:li:tag:pii", resourceUrn: $u}) }`,
    {
      u: attribute,
    },
  )
  t.notOk(removed.errors)
  const after = await gql(
    app,
    `query($u: String!) { businessAttribute(urn: $u) { properties { tags { tags { tag { urn } } } } } }`,
    {
      u: attribute,
    },
  )
  t.same(after.data.businessAttribute.properties.tags, { tags: [] }, 'removed')
})
