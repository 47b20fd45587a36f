import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { build } from '../helpers/build.js'
import { gql, restAspects, snapshot } from '../helpers/mutation-kit.js'
import {
  badRequest,
  CREATE,
  DS,
  MISSING,
  property,
  REMOVE,
  RETENTION,
  retention,
  seed,
  upsert,
  valuesOf,
} from '../helpers/structured-property-kit.js'

/** upsertStructuredProperties and removeStructuredProperties: values checked against the definition, atomic. */

t.test('upsertStructuredProperties and removeStructuredProperties', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await gql(app, CREATE, { input: retention })
  const owner = await property(app, 'owner', {
    valueType: 'urn:li:dataType:datahub.urn',
    typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
  })
  const tags = await property(app, 'tags', { cardinality: 'MULTIPLE' })
  const day = await property(app, 'day', { valueType: 'urn:li:dataType:datahub.date' })
  const frozen = await property(app, 'frozen', { immutable: true })

  const res = await upsert(app, DS, [
    [RETENTION, [{ numberValue: 30 }]],
    [tags, [{ stringValue: 'a' }, { stringValue: 'b' }]],
  ])
  t.same(res.data.upsertStructuredProperties.properties, [
    { structuredProperty: { urn: RETENTION }, values: [{ numberValue: 30 }], associatedUrn: DS },
    {
      structuredProperty: { urn: tags },
      values: [{ stringValue: 'a' }, { stringValue: 'b' }],
      associatedUrn: DS,
    },
  ])
  const created = (await restAspects(app, DS)).structuredProperties?.value.properties[0].created
  t.equal(created.actor, ROOT_ACTOR)
  await upsert(app, DS, [
    [RETENTION, [{ numberValue: 90 }]],
    [owner, [{ stringValue: 'urn:li:corpuser:jdoe' }]],
    [frozen, [{ stringValue: 'x' }]],
  ])
  t.same(await valuesOf(app), {
    [RETENTION]: [90],
    [tags]: ['a', 'b'],
    [owner]: ['urn:li:corpuser:jdoe'],
    [frozen]: ['x'],
  })
  const stored = (await restAspects(app, DS)).structuredProperties?.value.properties[0]
  t.same([stored.values, stored.created], [[{ double: 90 }], created], 'values replaced, created kept')

  const before = await snapshot(app, DS)
  const bad: Array<[string, Array<[string, Array<Record<string, unknown>>]>, string]> = [
    [MISSING, [[RETENTION, [{ numberValue: 30 }]]], `Asset with provided urn ${MISSING} does not exist`],
    [DS, [['urn:li:structuredProperty:nope', [{ stringValue: 'x' }]]], 'Unexpected null value found.'],
    [
      DS,
      [['urn:li:tag:pii', [{ stringValue: 'x' }]]],
      'Unexpected entity type. Expected: structuredProperty Found: tag',
    ],
    [
      DS,
      [[RETENTION, [{ stringValue: 'abc' }]]],
      `Property: ${RETENTION}, value: {string=abc} should be a number`,
    ],
    [
      DS,
      [[RETENTION, [{ numberValue: 45 }]]],
      `Property: ${RETENTION}, value: {double=45.0} should be one of [{double=30.0}, {double=90.0}]`,
    ],
    [
      DS,
      [[RETENTION, [{ numberValue: 30 }, { numberValue: 90 }]]],
      `Property: ${RETENTION} has cardinality 1, but multiple values were assigned: [{double=30.0}, {double=90.0}]`,
    ],
    [DS, [[tags, [{ numberValue: 1 }]]], `Property: ${tags}, value: {double=1.0} should be a string`],
    [
      DS,
      [[day, [{ stringValue: '2024-02-30' }]]],
      `Property: ${day}, value: {string=2024-02-30} should be a date with format YYYY-MM-DD`,
    ],
    [DS, [[owner, [{ stringValue: 'jdoe' }]]], `Property: ${owner}, value: {string=jdoe} should be an urn`],
    [
      DS,
      [[owner, [{ stringValue: DS }]]],
      `Property: ${owner}, value: {string=${DS}} is not of any supported urn types:[urn:li:entityType:datahub.corpuser]`,
    ],
    [DS, [[frozen, [{ stringValue: 'y' }]]], `Cannot mutate an immutable property: ${frozen}`],
  ]
  for (const [asset, params, message] of bad) {
    t.same(badRequest(await upsert(app, asset, params)), {
      message,
      code: 400,
      type: 'BAD_REQUEST',
    })
  }
  t.equal(await snapshot(app, DS), before, 'nothing written')
  t.same(await valuesOf(app), {
    [RETENTION]: [90],
    [tags]: ['a', 'b'],
    [owner]: ['urn:li:corpuser:jdoe'],
    [frozen]: ['x'],
  })

  const removed = await gql(app, REMOVE, { input: { assetUrn: DS, structuredPropertyUrns: [tags, frozen] } })
  t.same(removed.data.removeStructuredProperties.properties, [
    { structuredProperty: { urn: RETENTION } },
    { structuredProperty: { urn: owner } },
  ])
  t.same(Object.keys(await valuesOf(app)), [RETENTION, owner])
  const missing = await gql(app, REMOVE, { input: { assetUrn: MISSING, structuredPropertyUrns: [tags] } })
  t.same(badRequest(missing), {
    message: `Asset with provided urn ${MISSING} does not exist`,
    code: 400,
    type: 'BAD_REQUEST',
  })
})

t.test('30 concurrent upserts on one entity lose nothing', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const urns: string[] = []
  for (let i = 0; i < 30; i++) urns.push(await property(app, `p${i}`))
  const answers = await Promise.all(urns.map((u, i) => upsert(app, DS, [[u, [{ stringValue: `v${i}` }]]])))
  t.ok(
    answers.every((a) => !a.errors),
    'every call succeeded',
  )
  const values = await valuesOf(app)
  t.equal(Object.keys(values).length, 30, 'all 30 assignments landed')
  t.same(values[urns[7] as string], ['v7'])
  await Promise.all([
    ...urns
      .slice(0, 15)
      .map((u) => gql(app, REMOVE, { input: { assetUrn: DS, structuredPropertyUrns: [u] } })),
    ...urns.slice(15).map((u) => upsert(app, DS, [[u, [{ stringValue: 'again' }]]])),
  ])
  const after = await valuesOf(app)
  t.same(Object.keys(after).sort(), urns.slice(15).sort(), 'removes and upserts interleave without loss')
  t.ok(Object.values(after).every((v) => v[0] === 'again'))
})
