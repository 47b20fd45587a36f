import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'
import { property } from '../helpers/structured-property-kit.js'

/**
 * Compliance forms over GraphQL, as DataHub serves them: create, update, delete and read forms;
 * assign them to assets (in batches and by a dynamic filter); answer their prompts, which writes
 * structured properties and completes the form; verify it.
 */

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,forms.orders,PROD)'
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,forms.users,PROD)'
const EVENTS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,forms.events,PROD)'
const FIELD_TYPE = 'urn:li:entityType:datahub.schemaField'
const CREATE = `mutation($input: CreateFormInput!) { createForm(input: $input) { urn type info { name description type
  prompts { id title formUrn type required structuredPropertyParams { structuredProperty { urn } } }
  actors { owners users { urn } groups { urn } isAssignedToMe } } } }`
const READ = `query($urn: String!) { form(urn: $urn) { urn info { name type prompts { id required } actors { owners users { urn } } } } }`
const ASSIGN = `mutation($input: BatchAssignFormInput!) { batchAssignForm(input: $input) }`
const SUBMIT = `mutation($urn: String!, $input: SubmitFormPromptInput!) { submitFormPrompt(urn: $urn, input: $input) }`
const VERIFY = `mutation($input: VerifyFormInput!) { verifyForm(input: $input) }`
const FORMS = `query($u: String!) { dataset(urn: $u) { forms {
  incompleteForms { form { urn } incompletePrompts { id fieldAssociations { completedFieldPrompts { fieldPath } } } completedPrompts { id } }
  completedForms { form { urn } completedPrompts { id } }
  verifications { form { urn } lastModified { actor { urn } } } } } }`

async function datasets(app: Parameters<typeof gql>[0]) {
  for (const [urn, name] of [
    [ORDERS, 'orders'],
    [USERS, 'users'],
    [EVENTS, 'events'],
  ] as const) {
    await ingestAspect(app, 'dataset', urn, 'datasetProperties', { name, customProperties: {} })
  }
  await ingestAspect(app, 'dataset', ORDERS, 'schemaMetadata', {
    schemaName: 'orders',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: ['id', 'email'].map((fieldPath) => ({
      fieldPath,
      nullable: false,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      nativeDataType: 'string',
      recursive: false,
    })),
  })
}

t.test('a form: created, read, updated, assigned, answered, completed and verified', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  const steward = await property(app, 'io.forms.steward')
  const tier = await property(app, 'io.forms.tier')
  const made = await gql(app, CREATE, {
    input: {
      id: 'governance',
      name: 'Governance',
      description: 'What every table needs',
      type: 'VERIFICATION',
      prompts: [
        {
          id: 'steward',
          title: 'Who stewards it?',
          type: 'STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: steward },
          required: true,
        },
        {
          id: 'tier',
          title: 'Which tier?',
          type: 'STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: tier },
        },
      ],
      actors: { owners: false, users: ['urn:li:corpuser:datahub'] },
    },
  })
  t.notOk(made.errors, 'no errors')
  const FORM = 'urn:li:form:governance'
  t.same(made.data.createForm, {
    urn: FORM,
    type: 'FORM',
    info: {
      name: 'Governance',
      description: 'What every table needs',
      type: 'VERIFICATION',
      prompts: [
        {
          id: 'steward',
          title: 'Who stewards it?',
          formUrn: FORM,
          type: 'STRUCTURED_PROPERTY',
          required: true,
          structuredPropertyParams: { structuredProperty: { urn: steward } },
        },
        {
          id: 'tier',
          title: 'Which tier?',
          formUrn: FORM,
          type: 'STRUCTURED_PROPERTY',
          required: false,
          structuredPropertyParams: { structuredProperty: { urn: tier } },
        },
      ],
      actors: {
        owners: false,
        users: [{ urn: 'urn:li:corpuser:datahub' }],
        groups: null,
        isAssignedToMe: true,
      },
    },
  })
  t.same(
    (await gql(app, READ, { urn: 'urn:li:form:none' })).data,
    { form: null },
    'a form that does not exist is null',
  )
  const blank = await gql(app, CREATE, { input: { id: 'blank', name: '  ' } })
  t.equal(blank.errors?.[0]?.message, 'A form needs a name that is not blank')
  const noParams = await gql(app, CREATE, {
    input: { id: 'bad', name: 'Bad', prompts: [{ title: 'x', type: 'STRUCTURED_PROPERTY' }] },
  })
  t.equal(
    noParams.errors?.[0]?.message,
    'Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params',
  )
  t.same((await gql(app, READ, { urn: 'urn:li:form:bad' })).data, { form: null }, 'nothing written')

  t.same((await gql(app, ASSIGN, { input: { formUrn: FORM, entityUrns: [ORDERS, USERS, ORDERS] } })).data, {
    batchAssignForm: true,
  })
  await gql(app, ASSIGN, { input: { formUrn: FORM, entityUrns: [ORDERS] } })
  const assigned = (await gql(app, FORMS, { u: ORDERS })).data.dataset.forms
  t.same(
    assigned,
    {
      incompleteForms: [
        {
          form: { urn: FORM },
          incompletePrompts: [
            { id: 'steward', fieldAssociations: null },
            { id: 'tier', fieldAssociations: null },
          ],
          completedPrompts: [],
        },
      ],
      completedForms: [],
      verifications: [],
    },
    'assigned once, every prompt to do',
  )

  const early = await gql(app, VERIFY, { input: { formUrn: FORM, entityUrn: ORDERS } })
  t.equal(
    early.errors?.[0]?.message,
    `Form ${FORM} is not in the list of completed forms for this entity. Skipping verification.`,
  )
  const answer = await gql(app, SUBMIT, {
    urn: ORDERS,
    input: {
      promptId: 'steward',
      formUrn: FORM,
      type: 'STRUCTURED_PROPERTY',
      structuredPropertyParams: { structuredPropertyUrn: steward, values: [{ stringValue: 'Ann' }] },
    },
  })
  t.same(answer.data, { submitFormPrompt: true })
  const props = await gql(
    app,
    `query($u: String!) { dataset(urn: $u) { structuredProperties { properties { structuredProperty { urn } values { ... on StringValue { stringValue } } } } } }`,
    { u: ORDERS },
  )
  t.same(
    props.data.dataset.structuredProperties.properties,
    [{ structuredProperty: { urn: steward }, values: [{ stringValue: 'Ann' }] }],
    'the answer is the property value',
  )
  const done = (await gql(app, FORMS, { u: ORDERS })).data.dataset.forms
  t.same(
    done.completedForms,
    [{ form: { urn: FORM }, completedPrompts: [{ id: 'steward' }] }],
    'its required prompts done: completed',
  )
  t.same(done.incompleteForms, [])

  t.same((await gql(app, VERIFY, { input: { formUrn: FORM, entityUrn: ORDERS } })).data, { verifyForm: true })
  t.same((await gql(app, FORMS, { u: ORDERS })).data.dataset.forms.verifications, [
    { form: { urn: FORM }, lastModified: { actor: { urn: 'urn:li:corpuser:datahub' } } },
  ])

  const notAssigned = await gql(app, SUBMIT, {
    urn: EVENTS,
    input: {
      promptId: 'steward',
      formUrn: FORM,
      type: 'STRUCTURED_PROPERTY',
      structuredPropertyParams: { structuredPropertyUrn: steward, values: [{ stringValue: 'Bob' }] },
    },
  })
  t.equal(notAssigned.errors?.[0]?.message, `Form ${FORM} has not been assigned to entity ${EVENTS}`)
  t.equal(
    (
      await gql(
        app,
        `query($u: String!) { dataset(urn: $u) { structuredProperties { properties { values { ... on StringValue { stringValue } } } } } }`,
        { u: EVENTS },
      )
    ).data.dataset.structuredProperties,
    null,
    'an answer refused writes no property either',
  )
  const answerTo = (promptId: string, propertyUrn: string) =>
    gql(app, SUBMIT, {
      urn: USERS,
      input: {
        promptId,
        formUrn: FORM,
        type: 'STRUCTURED_PROPERTY',
        structuredPropertyParams: { structuredPropertyUrn: propertyUrn, values: [{ stringValue: 'x' }] },
      },
    })
  t.equal(
    (await answerTo('nope', steward)).errors?.[0]?.message,
    `Prompt nope is not a prompt of form ${FORM}`,
  )
  t.equal(
    (await answerTo('steward', tier)).errors?.[0]?.message,
    `Prompt steward of form ${FORM} does not ask for ${tier}`,
    'only the property the prompt asks for',
  )
  t.same((await gql(app, FORMS, { u: USERS })).data.dataset.forms.completedForms, [], 'nothing completed')

  const updated = await gql(
    app,
    `mutation($input: UpdateFormInput!) { updateForm(input: $input) { info { name prompts { id } actors { owners users { urn } } } } }`,
    {
      input: {
        urn: FORM,
        name: 'Governance v2',
        promptsToRemove: ['tier'],
        promptsToAdd: [
          {
            id: 'owner',
            title: 'Owner?',
            type: 'STRUCTURED_PROPERTY',
            structuredPropertyParams: { urn: tier },
          },
        ],
        actors: {
          owners: true,
          usersToAdd: ['urn:li:corpuser:ann'],
          usersToRemove: ['urn:li:corpuser:datahub'],
        },
      },
    },
  )
  t.same(updated.data.updateForm.info, {
    name: 'Governance v2',
    prompts: [{ id: 'steward' }, { id: 'owner' }],
    actors: { owners: true, users: [{ urn: 'urn:li:corpuser:ann' }] },
  })
  const missing = await gql(
    app,
    `mutation { updateForm(input: {urn: "urn:li:form:none", name: "x"}) { urn } }`,
  )
  t.equal(missing.errors?.[0]?.message, 'Form with urn urn:li:form:none does not exist')

  t.same(
    (
      await gql(app, `mutation($input: BatchRemoveFormInput!) { batchRemoveForm(input: $input) }`, {
        input: { formUrn: FORM, entityUrns: [USERS] },
      })
    ).data,
    { batchRemoveForm: true },
  )
  t.same(
    (await gql(app, FORMS, { u: USERS })).data.dataset.forms,
    { incompleteForms: [], completedForms: [], verifications: [] },
    'removed',
  )
  const deleted = await gql(app, 'mutation($u: String!) { deleteForm(input: {urn: $u}) }', { u: FORM })
  t.same(deleted.data, { deleteForm: true }, JSON.stringify(deleted.errors))
  t.same((await gql(app, READ, { urn: FORM })).data, { form: null }, 'deleted')
  t.same(
    (await gql(app, FORMS, { u: ORDERS })).data.dataset.forms,
    { incompleteForms: [], completedForms: [], verifications: [] },
    'its assets let go of it, verification included',
  )
})

t.test('a column prompt completes once every column is answered', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  const pii = await property(app, 'io.forms.pii', { entityTypes: [FIELD_TYPE] })
  await gql(app, CREATE, {
    input: {
      id: 'columns',
      name: 'Columns',
      prompts: [
        {
          id: 'pii',
          title: 'PII?',
          type: 'FIELDS_STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: pii },
          required: true,
        },
      ],
    },
  })
  const FORM = 'urn:li:form:columns'
  await gql(app, ASSIGN, { input: { formUrn: FORM, entityUrns: [ORDERS] } })
  const submit = (fieldPath: string | null) =>
    gql(app, SUBMIT, {
      urn: ORDERS,
      input: {
        promptId: 'pii',
        formUrn: FORM,
        type: 'FIELDS_STRUCTURED_PROPERTY',
        fieldPath,
        structuredPropertyParams: { structuredPropertyUrn: pii, values: [{ stringValue: 'yes' }] },
      },
    })
  t.equal(
    (await submit(null)).errors?.[0]?.message,
    'Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY',
  )
  t.notOk((await submit('id')).errors)
  const half = (await gql(app, FORMS, { u: ORDERS })).data.dataset.forms
  t.same(
    half.incompleteForms[0].incompletePrompts,
    [{ id: 'pii', fieldAssociations: { completedFieldPrompts: [{ fieldPath: 'id' }] } }],
    'one column of two: still to do',
  )
  const column = await gql(
    app,
    `query($u: String!) { entity(urn: $u) { ... on SchemaFieldEntity { structuredProperties { properties { values { ... on StringValue { stringValue } } } } } } }`,
    { u: `urn:li:schemaField:(${ORDERS},id)` },
  )
  t.same(
    column.data.entity.structuredProperties.properties,
    [{ values: [{ stringValue: 'yes' }] }],
    'the answer is on the column',
  )
  t.notOk((await submit('email')).errors)
  const full = (await gql(app, FORMS, { u: ORDERS })).data.dataset.forms
  t.same(
    full.completedForms,
    [{ form: { urn: FORM }, completedPrompts: [{ id: 'pii' }] }],
    'every column answered: completed',
  )
  const noSchema = await gql(app, ASSIGN, { input: { formUrn: FORM, entityUrns: [USERS] } })
  t.notOk(noSchema.errors)
  const refused = await gql(app, SUBMIT, {
    urn: USERS,
    input: {
      promptId: 'pii',
      formUrn: FORM,
      type: 'FIELDS_STRUCTURED_PROPERTY',
      fieldPath: 'id',
      structuredPropertyParams: { structuredPropertyUrn: pii, values: [{ stringValue: 'yes' }] },
    },
  })
  t.equal(refused.errors?.[0]?.message, `Schema metadata does not exist on entity ${USERS}.`)
})

t.test('a dynamic assignment gives the form to every matching asset', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  const steward = await property(app, 'io.forms.steward')
  await gql(app, CREATE, {
    input: {
      id: 'kafka',
      name: 'Kafka',
      prompts: [
        { id: 's', title: 'S', type: 'STRUCTURED_PROPERTY', structuredPropertyParams: { urn: steward } },
      ],
    },
  })
  const res = await gql(
    app,
    `mutation { createDynamicFormAssignment(input: {formUrn: "urn:li:form:kafka", orFilters: [{and: [{field: "platform", values: ["urn:li:dataPlatform:kafka"]}]}]}) }`,
  )
  t.same(res.data, { createDynamicFormAssignment: true })
  t.same(
    (await gql(app, FORMS, { u: EVENTS })).data.dataset.forms.incompleteForms.map(
      (f: { form: { urn: string } }) => f.form.urn,
    ),
    ['urn:li:form:kafka'],
  )
  t.same((await gql(app, FORMS, { u: ORDERS })).data.dataset.forms, null, 'a hive dataset is not given it')
})

t.test('privileges: managing forms; answering and verifying need an assigned actor', async (t) => {
  const built = await build(t, { auth: true })
  for (const urn of [ORDERS, USERS])
    await adminWrite(built, urn, 'datasetProperties', { name: 'x', customProperties: {} })
  const steward = (
    await gqlAs(
      built.app,
      built.adminToken,
      `mutation { createStructuredProperty(input: {qualifiedName: "io.forms.steward", valueType: "urn:li:dataType:datahub.string", entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`,
    )
  ).body.data.createStructuredProperty.urn
  const ann = 'urn:li:corpuser:ann'
  const bob = 'urn:li:corpuser:bob'
  for (const user of [ann, bob]) await assignRole(built, user, 'Reader')
  const made = await gqlAs(built.app, built.adminToken, CREATE, {
    input: {
      id: 'f',
      name: 'F',
      type: 'VERIFICATION',
      actors: { owners: false, users: [ann] },
      prompts: [
        {
          id: 's',
          title: 'S',
          type: 'STRUCTURED_PROPERTY',
          structuredPropertyParams: { urn: steward },
          required: true,
        },
      ],
    },
  })
  t.equal(made.body.data.createForm.info.actors.isAssignedToMe, false, 'the admin is not assigned')
  await gqlAs(built.app, built.adminToken, ASSIGN, {
    input: { formUrn: 'urn:li:form:f', entityUrns: [ORDERS] },
  })
  const annToken = await tokenFor(built, ann)
  const bobToken = await tokenFor(built, bob)
  const refusedCreate = await gqlAs(built.app, bobToken, CREATE, { input: { id: 'mine', name: 'Mine' } })
  t.equal(refusedCreate.body.errors?.[0]?.message, 'Unable to create form. Please contact your admin.')
  const refusedAssign = await gqlAs(built.app, bobToken, ASSIGN, {
    input: { formUrn: 'urn:li:form:f', entityUrns: [USERS] },
  })
  t.equal(
    refusedAssign.body.errors?.[0]?.message,
    'Unauthorized to perform this action. Please contact your DataHub administrator.',
  )
  t.equal(await aspectOf(built, USERS, 'forms'), undefined, 'not assigned')

  const submitAs = (token: string) =>
    gqlAs(built.app, token, SUBMIT, {
      urn: ORDERS,
      input: {
        promptId: 's',
        formUrn: 'urn:li:form:f',
        type: 'STRUCTURED_PROPERTY',
        structuredPropertyParams: { structuredPropertyUrn: steward, values: [{ stringValue: 'me' }] },
      },
    })
  const notMine = await submitAs(bobToken)
  t.equal(
    notMine.body.errors?.[0]?.message,
    'Failed to authorize form on entity as form with urn urn:li:form:f is not assigned to user',
  )
  t.equal(await aspectOf(built, ORDERS, 'structuredProperties'), undefined, 'no value written')
  t.same((await submitAs(annToken)).body.data, { submitFormPrompt: true }, 'the assigned user answers')
  const verifyAs = (token: string) =>
    gqlAs(built.app, token, VERIFY, { input: { formUrn: 'urn:li:form:f', entityUrn: ORDERS } })
  t.equal(
    (await verifyAs(bobToken)).body.errors?.[0]?.message,
    'Failed to authorize form on entity as form with urn urn:li:form:f is not assigned to user',
  )
  t.same((await verifyAs(annToken)).body.data, { verifyForm: true }, 'and verifies')
  const read = await gqlAs(
    built.app,
    annToken,
    READ.replace('owners users { urn }', 'owners users { urn } isAssignedToMe'),
    { urn: 'urn:li:form:f' },
  )
  t.equal(read.body.data.form.info.actors.isAssignedToMe, true)
})

t.test('deleting a form held by more assets than a search page takes it off every one', async (t) => {
  const { app } = await build(t)
  const urns = Array.from(
    { length: 620 },
    (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,forms.many_${i},PROD)`,
  )
  const res = await app.inject({
    method: 'POST',
    url: '/aspects?action=ingestProposalBatch',
    headers: { 'x-restli-protocol-version': '2.0.0' },
    payload: {
      proposals: urns.map((urn, i) => ({
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: {
          value: JSON.stringify({ name: `many_${i}`, customProperties: {} }),
          contentType: 'application/json',
        },
      })),
    },
  })
  t.equal(res.statusCode, 200)
  await gql(app, CREATE, { input: { id: 'many', name: 'Many' } })
  t.notOk(
    (await gql(app, ASSIGN, { input: { formUrn: 'urn:li:form:many', entityUrns: urns } })).errors,
    'assigned to all',
  )
  t.notOk((await gql(app, 'mutation { deleteForm(input: {urn: "urn:li:form:many"}) }')).errors)
  const held = await gql(
    app,
    '{ searchAcrossEntities(input: {query: "*", orFilters: [{and: [{field: "incompleteForms", values: ["urn:li:form:many"]}]}]}) { total } }',
  )
  t.equal(held.data.searchAcrossEntities.total, 0, 'no asset holds it any more')
  t.same(
    (await gql(app, FORMS, { u: urns[619] as string })).data.dataset.forms.incompleteForms,
    [],
    'the last one neither',
  )
})
