import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { build, ingestExamples } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** addOwner, addOwners, removeOwner, batchAddOwners, batchRemoveOwners (DataHub's OwnerUtils). */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const CHART = 'urn:li:chart:(looker,test-tags-terms-sample-chart)'
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:kafka,no-such-dataset,PROD)'
const ALICE = 'urn:li:corpuser:alice'
const JDOE = 'urn:li:corpuser:jdoe'
const DATAHUB = 'urn:li:corpuser:datahub'
const ENG = 'urn:li:corpGroup:eng'
const sys = (type: string) => `urn:li:ownershipType:__system__${type.toLowerCase()}`

const OWNERS = `query($urn: String!) { dataset(urn: $urn) { ownership { owners {
  owner { ... on CorpUser { urn } ... on CorpGroup { urn } } type ownershipType { urn } } } } }`

async function owners(app: CatalogServer, urn = DS): Promise<string[]> {
  const body = await gql(app, OWNERS, { urn })
  return (body.data.dataset.ownership?.owners ?? []).map(
    (o: { owner: { urn: string }; type: string; ownershipType: { urn: string } | null }) =>
      `${o.owner.urn} ${o.type} ${o.ownershipType?.urn ?? '-'}`,
  )
}

async function setup(t: Test) {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  for (const user of ['alice', 'jdoe', 'datahub']) {
    await ingestAspect(app, 'corpuser', `urn:li:corpuser:${user}`, 'corpUserKey', { username: user })
  }
  await ingestAspect(app, 'corpGroup', ENG, 'corpGroupKey', { name: 'eng' })
  return app
}

const ADD_OWNER = `mutation($owner: String!, $kind: OwnerEntityType!, $type: OwnershipType, $typeUrn: String, $urn: String!) {
  addOwner(input: {ownerUrn: $owner, ownerEntityType: $kind, type: $type, ownershipTypeUrn: $typeUrn, resourceUrn: $urn}) }`
const REMOVE_OWNER = `mutation($owner: String!, $typeUrn: String, $urn: String!) {
  removeOwner(input: {ownerUrn: $owner, ownershipTypeUrn: $typeUrn, resourceUrn: $urn}) }`

t.test('addOwner, addOwners and removeOwner change what GraphQL and REST show', async (t) => {
  const app = await setup(t)
  t.same(await owners(app), [
    `${JDOE} DATAOWNER ${sys('DATAOWNER')}`,
    `${DATAHUB} DATAOWNER ${sys('DATAOWNER')}`,
  ])

  const added = await gql(app, ADD_OWNER, {
    owner: ALICE,
    kind: 'CORP_USER',
    type: 'TECHNICAL_OWNER',
    urn: DS,
  })
  t.same(added, { data: { addOwner: true } })
  t.same(await owners(app), [
    `${JDOE} DATAOWNER ${sys('DATAOWNER')}`,
    `${DATAHUB} DATAOWNER ${sys('DATAOWNER')}`,
    `${ALICE} TECHNICAL_OWNER ${sys('TECHNICAL_OWNER')}`,
  ])
  const rest = (await restAspects(app, DS)).ownership?.value
  t.same(
    rest.owners[2],
    { owner: ALICE, type: 'TECHNICAL_OWNER', typeUrn: sys('TECHNICAL_OWNER'), source: { type: 'MANUAL' } },
    'REST shows the owner as DataHub writes it: typeUrn and a MANUAL source',
  )
  t.equal(rest.lastModified.actor, ROOT_ACTOR, 'lastModified is the caller')

  // An owner written before ownership types (no typeUrn) is the same owner when its type maps to it.
  await gql(app, ADD_OWNER, { owner: JDOE, kind: 'CORP_USER', type: 'DATAOWNER', urn: DS })
  const afterJdoe = await owners(app)
  t.equal(
    afterJdoe.filter((o) => o.startsWith(`${JDOE} `)).length,
    1,
    'the legacy entry is replaced, not doubled',
  )
  t.equal(
    (await restAspects(app, DS)).ownership?.value.owners.find((o: { owner: string }) => o.owner === JDOE)
      .typeUrn,
    sys('DATAOWNER'),
  )

  const many = await gql(
    app,
    `mutation($urn: String!) { addOwners(input: {resourceUrn: $urn, owners: [
      {ownerUrn: "${ENG}", ownerEntityType: CORP_GROUP, type: BUSINESS_OWNER},
      {ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, ownershipTypeUrn: "${sys('DATA_STEWARD')}"}]}) }`,
    { urn: DS },
  )
  t.same(many, { data: { addOwners: true } })
  const withBoth = await owners(app)
  t.ok(withBoth.includes(`${ENG} BUSINESS_OWNER ${sys('BUSINESS_OWNER')}`), 'the group is an owner')
  t.ok(withBoth.includes(`${ALICE} TECHNICAL_OWNER ${sys('TECHNICAL_OWNER')}`), 'alice keeps her first type')
  t.ok(
    withBoth.includes(`${ALICE} NONE ${sys('DATA_STEWARD')}`),
    'and gains a second (type NONE, as DataHub)',
  )

  t.same(await gql(app, REMOVE_OWNER, { owner: ALICE, typeUrn: sys('DATA_STEWARD'), urn: DS }), {
    data: { removeOwner: true },
  })
  const afterRemove = await owners(app)
  t.notOk(
    afterRemove.some((o) => o.includes('data_steward')),
    'only that ownership type is removed',
  )
  t.ok(afterRemove.includes(`${ALICE} TECHNICAL_OWNER ${sys('TECHNICAL_OWNER')}`))
  await gql(app, REMOVE_OWNER, { owner: DATAHUB, urn: DS })
  t.notOk(
    (await owners(app)).some((o) => o.startsWith(`${DATAHUB} `)),
    'no type: every entry of the owner goes',
  )
})

t.test('batchAddOwners and batchRemoveOwners edit every resource', async (t) => {
  const app = await setup(t)
  const chartOwners = async () =>
    ((await restAspects(app, CHART)).ownership?.value.owners ?? []).map((o: { owner: string }) => o.owner)
  const add = await gql(
    app,
    `mutation { batchAddOwners(input: {owners: [{ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER}],
      resources: [{resourceUrn: "${DS}"}, {resourceUrn: "${CHART}"}]}) }`,
  )
  t.same(add, { data: { batchAddOwners: true } })
  t.ok((await owners(app)).some((o) => o.startsWith(`${ALICE} `)))
  t.same(await chartOwners(), [ALICE], 'the chart gets an ownership aspect')
  const remove = await gql(
    app,
    `mutation { batchRemoveOwners(input: {ownerUrns: ["${ALICE}", "${JDOE}"], resources: [{resourceUrn: "${DS}"}, {resourceUrn: "${CHART}"}]}) }`,
  )
  t.same(remove, { data: { batchRemoveOwners: true } })
  t.same(await owners(app), [`${DATAHUB} DATAOWNER ${sys('DATAOWNER')}`])
  t.same(await chartOwners(), [])
})

t.test('bad input: DataHub messages over HTTP 200, nothing written', async (t) => {
  const app = await setup(t)
  const before = { ds: await snapshot(app, DS), chart: await snapshot(app, CHART) }
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    [
      'addOwner',
      ADD_OWNER,
      { owner: ALICE, kind: 'CORP_USER', type: 'NONE', urn: MISSING },
      `Failed to change ownership for resource ${MISSING}. Resource does not exist.`,
    ],
    [
      'addOwner',
      ADD_OWNER,
      { owner: 'urn:li:corpuser:ghost', kind: 'CORP_USER', type: 'NONE', urn: DS },
      'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:ghost does not exist.',
    ],
    [
      'addOwner',
      ADD_OWNER,
      { owner: ALICE, kind: 'CORP_GROUP', type: 'NONE', urn: DS },
      `Failed to change ownership for resource(s). Expected a corp group urn, found ${ALICE}`,
    ],
    [
      'addOwner',
      ADD_OWNER,
      { owner: ENG, kind: 'CORP_USER', type: 'NONE', urn: DS },
      `Failed to change ownership for resource(s). Expected a corp user urn, found ${ENG}.`,
    ],
    [
      'addOwner',
      ADD_OWNER,
      { owner: ALICE, kind: 'CORP_USER', urn: DS },
      'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.',
    ],
    [
      'addOwner',
      ADD_OWNER,
      { owner: ALICE, kind: 'CORP_USER', typeUrn: 'urn:li:ownershipType:custom', urn: DS },
      'Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:custom does not exist.',
    ],
    [
      'removeOwner',
      REMOVE_OWNER,
      { owner: ALICE, urn: MISSING },
      `Failed to change ownership for resource ${MISSING}. Resource does not exist.`,
    ],
    [
      'batchAddOwners',
      `mutation { batchAddOwners(input: {owners: [{ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, type: NONE}],
        resources: [{resourceUrn: "${CHART}"}, {resourceUrn: "${DS}", subResource: "x", subResourceType: DATASET_FIELD}]}) }`,
      {},
      'Malformed input provided: owners cannot be applied to subresources.',
    ],
    [
      'batchAddOwners',
      `mutation { batchAddOwners(input: {owners: [{ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, type: NONE}],
        resources: [{resourceUrn: "${CHART}"}, {resourceUrn: "${MISSING}"}]}) }`,
      {},
      `Failed to update resource with urn ${MISSING}. Entity does not exist.`,
    ],
  ]
  for (const [field, query, variables, message] of cases) {
    const body = await gql(app, query, variables)
    t.same(badRequest(body, field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  const malformed = await gql(app, ADD_OWNER, {
    owner: 'not-a-urn',
    kind: 'CORP_USER',
    type: 'NONE',
    urn: DS,
  })
  t.same(
    { code: malformed.errors[0].extensions.code, data: malformed.data },
    { code: 400, data: { addOwner: null } },
    'a malformed owner URN is a 400',
  )
  t.equal(await snapshot(app, DS), before.ds, 'the dataset is unchanged')
  t.equal(await snapshot(app, CHART), before.chart, 'the chart is unchanged (a failed batch writes nothing)')
})
