import t from 'tap'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/** `versionedDataset(urn, versionStamp)`: a dataset as it was at the given aspect versions. */

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,shop.orders,PROD)'
const QUERY = `query($urn: String!, $stamp: String) { versionedDataset(urn: $urn, versionStamp: $stamp) {
  urn type name origin platform { urn } properties { description }
  schema { fields { fieldPath } } tags { tags { tag { urn } } } relationships(input: {types: ["DownstreamOf"], direction: OUTGOING}) { total } } }`

const schema = (...paths: string[]) => ({
  schemaName: 'orders',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: paths.map((fieldPath) => ({
    fieldPath,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
  })),
})

t.test('the latest, or the aspects of a stamp at their versions', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', URN, 'datasetProperties', { description: 'first', customProperties: {} })
  await ingestAspect(app, 'dataset', URN, 'schemaMetadata', schema('id'))
  await ingestAspect(app, 'dataset', URN, 'datasetProperties', {
    description: 'second',
    customProperties: {},
  })
  await ingestAspect(app, 'dataset', URN, 'schemaMetadata', schema('id', 'total'))
  await ingestAspect(app, 'dataset', URN, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] })

  const latest = await gql(app, QUERY, { urn: URN })
  t.notOk(latest.errors, 'no errors')
  t.same(latest.data.versionedDataset, {
    urn: URN,
    type: 'DATASET',
    name: 'shop.orders',
    origin: 'PROD',
    platform: { urn: 'urn:li:dataPlatform:hive' },
    properties: { description: 'second' },
    schema: { fields: [{ fieldPath: 'id' }, { fieldPath: 'total' }] },
    tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' } }] },
    relationships: null,
  })
  const old = await gql(app, QUERY, { urn: URN, stamp: 'datasetProperties:1;schemaMetadata:1' })
  t.notOk(old.errors)
  t.match(
    old.data.versionedDataset,
    {
      name: 'shop.orders',
      properties: { description: 'first' },
      schema: { fields: [{ fieldPath: 'id' }] },
      tags: null,
    },
    "the stamp's versions, and only its aspects",
  )
  t.equal(old.data.versionedDataset.schema.fields.length, 1)
  const mixed = await gql(app, QUERY, { urn: URN, stamp: 'datasetProperties:0;schemaMetadata:9' })
  t.match(
    mixed.data.versionedDataset,
    { properties: { description: 'second' }, schema: null },
    'a version that does not exist reads as absent',
  )

  t.same((await gql(app, QUERY, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)' })).data, {
    versionedDataset: null,
  })
  const badStamp = await gql(app, QUERY, { urn: URN, stamp: 'datasetProperties' })
  t.equal(badStamp.errors?.[0]?.message, 'Invalid version stamp cannot be parsed: datasetProperties')
  const badVersion = await gql(app, QUERY, { urn: URN, stamp: 'datasetProperties:x' })
  t.equal(badVersion.errors?.[0]?.message, 'Invalid value for aspect version: x')
  const notDataset = await gql(app, QUERY, { urn: 'urn:li:corpuser:x' })
  t.equal(notDataset.errors?.[0]?.message, 'urn:li:corpuser:x is not a dataset urn')
})
