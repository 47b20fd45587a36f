import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, restAspects, snapshot } from '../helpers/mutation-kit.js'
import {
  badRequest,
  CREATE,
  DATASET_TYPE,
  DS,
  ENTITY,
  NUMBER_TYPE,
  property,
  REMOVE,
  RETENTION,
  retention,
  UPDATE,
  UPSERT,
} from '../helpers/structured-property-kit.js'

/** createStructuredProperty, updateStructuredProperty, deleteStructuredProperty and who may call them. */

t.test('createStructuredProperty and the structuredProperty query', async (t) => {
  const { app } = await build(t)
  const res = await gql(app, CREATE, { input: retention })
  const created = res.data.createStructuredProperty
  t.match(created, {
    urn: RETENTION,
    type: 'STRUCTURED_PROPERTY',
    exists: true,
    definition: {
      qualifiedName: 'io.acryl.privacy.retentionTime',
      displayName: 'Retention Time',
      description: 'Days to keep',
      cardinality: 'SINGLE',
      immutable: false,
      valueType: {
        urn: NUMBER_TYPE,
        type: 'DATA_TYPE',
        info: { type: 'NUMBER', qualifiedName: 'datahub.number' },
      },
      entityTypes: [
        {
          urn: DATASET_TYPE,
          type: 'ENTITY_TYPE',
          info: { type: 'DATASET', qualifiedName: 'datahub.dataset' },
        },
      ],
      allowedValues: [
        { value: { numberValue: 30 }, description: 'a month' },
        { value: { numberValue: 90 }, description: null },
      ],
      typeQualifier: null,
      created: { actor: { urn: ROOT_ACTOR } },
    },
    settings: { isHidden: false, showInSearchFilters: true, showInAssetSummary: false },
  })
  const stored = await restAspects(app, RETENTION)
  t.match(stored.propertyDefinition?.value, {
    qualifiedName: 'io.acryl.privacy.retentionTime',
    valueType: NUMBER_TYPE,
    entityTypes: [DATASET_TYPE],
    allowedValues: [{ value: { double: 30 }, description: 'a month' }, { value: { double: 90 } }],
  })
  const read = await gql(app, `query { structuredProperty(urn: "${RETENTION}") { ${ENTITY} } }`)
  t.same(read.data.structuredProperty, created, 'read back the same')

  const before = await snapshot(app, RETENTION)
  t.same(badRequest(await gql(app, CREATE, { input: retention })), {
    message: 'A structured property already exists with this urn',
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.equal(await snapshot(app, RETENTION), before, 'the existing property is untouched')
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ id: 'a', qualifiedName: 'b' }, 'Qualified name and the ID of a structured property must match'],
    [
      { qualifiedName: 'hidden', settings: { isHidden: true, showAsAssetBadge: true } },
      'Cannot have property isHidden = true while other display location settings are also true.',
    ],
  ]
  for (const [input, message] of bad) {
    const answer = await gql(app, CREATE, { input: { ...retention, ...input } })
    t.same(badRequest(answer), { message, code: 400, type: 'BAD_REQUEST' })
  }
  const wrongType = await gql(app, CREATE, {
    input: { ...retention, qualifiedName: 'w', valueType: DATASET_TYPE },
  })
  t.equal(badRequest(wrongType).code, 400, 'a value type that is no data type')
  for (const id of ['a', 'b', 'hidden', 'w']) {
    const exists = await gql(app, `query { entityExists(urn: "urn:li:structuredProperty:${id}") }`)
    t.equal(exists.data.entityExists, false, `${id}: nothing written`)
  }
})

t.test('updateStructuredProperty only widens the definition', async (t) => {
  const { app } = await build(t)
  await gql(app, CREATE, { input: retention })
  const free = await property(app, 'free')
  const res = await gql(app, UPDATE, {
    input: {
      urn: RETENTION,
      displayName: 'Retention',
      newAllowedValues: [{ numberValue: 180 }],
      setCardinalityAsMultiple: true,
      newEntityTypes: ['urn:li:entityType:datahub.chart'],
      settings: { isHidden: false, showInAssetSummary: true },
    },
  })
  const d = res.data.updateStructuredProperty
  t.same(
    [d.definition.displayName, d.definition.description, d.definition.cardinality],
    ['Retention', 'Days to keep', 'MULTIPLE'],
  )
  t.same(
    d.definition.allowedValues.map((v: { value: { numberValue: number } }) => v.value.numberValue),
    [30, 90, 180],
  )
  t.same(
    d.definition.entityTypes.map((e: { info: { type: string } }) => e.info.type),
    ['DATASET', 'CHART'],
  )
  t.match(d.settings, { showInSearchFilters: true, showInAssetSummary: true })
  const before = await snapshot(app, free)
  const bad: Array<[Record<string, unknown>, string]> = [
    [
      { urn: 'urn:li:structuredProperty:nope', displayName: 'x' },
      'Attempting to update a structured property with no definition aspect.',
    ],
    [
      { urn: free, newAllowedValues: [{ stringValue: 'a' }] },
      'Cannot restrict values that were previously allowed',
    ],
    [
      { urn: free, settings: { isHidden: true, showInColumnsTable: true } },
      'Cannot have property isHidden = true while other display location settings are also true.',
    ],
  ]
  for (const [input, message] of bad) {
    t.same(badRequest(await gql(app, UPDATE, { input })), {
      message,
      code: 400,
      type: 'BAD_REQUEST',
    })
  }
  t.equal(await snapshot(app, free), before, 'nothing written')
})

t.test('deleteStructuredProperty', async (t) => {
  const { app } = await build(t)
  const urn = await property(app, 'doomed')
  t.same(await gql(app, `mutation { deleteStructuredProperty(input: {urn: "${urn}"}) }`), {
    data: { deleteStructuredProperty: true },
  })
  const read = await gql(
    app,
    `query { structuredProperty(urn: "${urn}") { exists definition { qualifiedName } } }`,
  )
  t.same(
    read.data.structuredProperty,
    { exists: false, definition: { qualifiedName: '' } },
    "DataHub's default definition",
  )
  const other = await gql(app, `mutation { deleteStructuredProperty(input: {urn: "${DS}"}) }`)
  t.same(badRequest(other), {
    message: `${DS} is not a structured property urn`,
    code: 400,
    type: 'BAD_REQUEST',
  })
})

t.test('a Reader may not define or assign structured properties', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'sp_orders', customProperties: {} })
  const made = await gqlAs(built.app, built.adminToken, CREATE, { input: retention })
  t.equal(made.body.data.createStructuredProperty.urn, RETENTION, 'the admin may')
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const calls: Array<[string, string, Record<string, unknown>, string]> = [
    [
      'createStructuredProperty',
      CREATE,
      { input: { ...retention, qualifiedName: 'mine' } },
      'Unable to create structured property. Please contact your admin.',
    ],
    [
      'updateStructuredProperty',
      UPDATE,
      { input: { urn: RETENTION, displayName: 'x' } },
      'Unable to update structured property. Please contact your admin.',
    ],
    [
      'upsertStructuredProperties',
      UPSERT,
      {
        input: {
          assetUrn: DS,
          structuredPropertyInputParams: [
            { structuredPropertyUrn: RETENTION, values: [{ numberValue: 30 }] },
          ],
        },
      },
      `Not authorized to update properties on the gives urn ${DS}`,
    ],
    [
      'removeStructuredProperties',
      REMOVE,
      { input: { assetUrn: DS, structuredPropertyUrns: [RETENTION] } },
      `Not authorized to update properties on the gives urn ${DS}`,
    ],
  ]
  const before = [
    await aspectOf(built, RETENTION, 'propertyDefinition'),
    await aspectOf(built, DS, 'structuredProperties'),
  ]
  for (const [name, query, variables, message] of calls) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, null, `${name}: no data (a non-null field)`)
    t.match(res.body.errors?.[0], { message, path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  const deleted = await gqlAs(
    built.app,
    token,
    `mutation { deleteStructuredProperty(input: {urn: "${RETENTION}"}) }`,
  )
  t.match(deleted.body.errors?.[0], {
    message: 'Unable to delete structured property. Please contact your admin.',
    extensions: { code: 403 },
  })
  t.same(
    [
      await aspectOf(built, RETENTION, 'propertyDefinition'),
      await aspectOf(built, DS, 'structuredProperties'),
    ],
    before,
    'nothing written',
  )
  t.equal(await aspectOf(built, 'urn:li:structuredProperty:mine', 'propertyDefinition'), undefined)
})
