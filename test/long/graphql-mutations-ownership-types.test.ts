import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, headOf, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/** createOwnershipType, updateOwnershipType, deleteOwnershipType (DataHub's OwnershipTypeService). */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,owned,PROD)'
const ALICE = 'urn:li:corpuser:alice'
const CREATE = `mutation($input: CreateOwnershipTypeInput!) { createOwnershipType(input: $input) {
  urn type info { name description created { actor } lastModified { actor } } } }`
const UPDATE = `mutation($urn: String!, $input: UpdateOwnershipTypeInput!) { updateOwnershipType(urn: $urn, input: $input) {
  urn info { name description } } }`
const LIST = '{ listOwnershipTypes(input: {}) { total ownershipTypes { urn info { name } } } }'
const OWNERS = `query($urn: String!) { dataset(urn: $urn) { ownership { owners { owner { ... on CorpUser { urn } } ownershipType { urn } } } } }`

t.test('create, update and list ownership types', async (t) => {
  const { app } = await build(t)
  const created = await gql(app, CREATE, { input: { name: 'Steward', description: 'Looks after it' } })
  t.same(created.errors, undefined)
  const made = created.data.createOwnershipType
  t.match(made.urn, /^urn:li:ownershipType:[0-9a-f-]{36}$/, 'a random id')
  t.same(made, {
    urn: made.urn,
    type: 'CUSTOM_OWNERSHIP_TYPE',
    info: {
      name: 'Steward',
      description: 'Looks after it',
      created: { actor: ROOT_ACTOR },
      lastModified: { actor: ROOT_ACTOR },
    },
  })
  const stored = (await restAspects(app, made.urn)).ownershipTypeInfo?.value
  t.match(stored, { name: 'Steward', description: 'Looks after it', created: { actor: ROOT_ACTOR } })

  const updated = await gql(app, UPDATE, { urn: made.urn, input: { name: 'Data Steward' } })
  t.same(updated.data.updateOwnershipType, {
    urn: made.urn,
    info: { name: 'Data Steward', description: 'Looks after it' },
  })
  const after = (await restAspects(app, made.urn)).ownershipTypeInfo?.value
  t.same(after.created, stored.created, 'created kept')
  t.ok(after.lastModified.time >= stored.lastModified.time)

  const list = await gql(app, LIST)
  t.same(list.data.listOwnershipTypes, {
    total: 1,
    ownershipTypes: [{ urn: made.urn, info: { name: 'Data Steward' } }],
  })
})

t.test('concurrent updates of name and description both land', async (t) => {
  const { app } = await build(t)
  const urn = (await gql(app, CREATE, { input: { name: 'a', description: 'b' } })).data.createOwnershipType
    .urn
  const answers = await Promise.all([
    gql(app, UPDATE, { urn, input: { name: 'New name' } }),
    gql(app, UPDATE, { urn, input: { description: 'New description' } }),
  ])
  t.same(
    answers.map((a) => a.errors),
    [undefined, undefined],
  )
  t.match((await restAspects(app, urn)).ownershipTypeInfo?.value, {
    name: 'New name',
    description: 'New description',
  })
})

t.test('bad input gets DataHub errors and writes nothing', async (t) => {
  const built = await build(t)
  const { app } = built
  const head = await headOf(built)
  const missing = 'urn:li:ownershipType:none'
  const unknown = await gql(app, UPDATE, { urn: missing, input: { name: 'x' } })
  t.same(badRequest(unknown, 'updateOwnershipType'), {
    message: `Failed to update Ownership Type. Ownership Type with urn ${missing} does not exist.`,
    code: 400,
    type: 'BAD_REQUEST',
  })
  const wrongType = await gql(app, UPDATE, { urn: ALICE, input: { name: 'x' } })
  t.match(badRequest(wrongType, 'updateOwnershipType'), { code: 400, type: 'BAD_REQUEST' })
  const deleteWrong = await gql(app, `mutation { deleteOwnershipType(urn: "${DS}") }`)
  t.same(badRequest(deleteWrong, 'deleteOwnershipType'), {
    message: `${DS} is not an ownershipType urn`,
    code: 400,
    type: 'BAD_REQUEST',
  })
  const malformed = await gql(app, 'mutation { deleteOwnershipType(urn: "not a urn") }')
  t.match(badRequest(malformed, 'deleteOwnershipType'), { code: 400, type: 'BAD_REQUEST' })
  t.same(
    await gql(app, `mutation { deleteOwnershipType(urn: "${missing}") }`),
    {
      data: { deleteOwnershipType: true },
    },
    'an absent one answers true, as DataHub does',
  )
  t.same((await gql(app, LIST)).data.listOwnershipTypes.total, 0)
  t.equal(await headOf(built), head, 'nothing written: the change log did not move')
})

t.test('deleteOwnershipType removes the type and, by default, the owners naming it', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'corpuser', ALICE, 'corpUserInfo', { active: true })
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'owned', customProperties: {} })
  const make = async (name: string) =>
    (await gql(app, CREATE, { input: { name, description: name } })).data.createOwnershipType.urn as string
  const [gone, kept] = [await make('Gone'), await make('Kept')]
  for (const typeUrn of [gone, kept]) {
    const added = await gql(
      app,
      `mutation($t: String!) { addOwner(input: {ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, ownershipTypeUrn: $t, resourceUrn: "${DS}"}) }`,
      { t: typeUrn },
    )
    t.same(added, { data: { addOwner: true } })
  }
  t.same(await gql(app, `mutation { deleteOwnershipType(urn: "${gone}") }`), {
    data: { deleteOwnershipType: true },
  })
  const owners = (await gql(app, OWNERS, { urn: DS })).data.dataset.ownership.owners
  t.same(
    owners,
    [{ owner: { urn: ALICE }, ownershipType: { urn: kept } }],
    'the owner of the deleted type is gone',
  )
  t.same(Object.keys(await restAspects(app, gone)), ['ownershipTypeKey'], 'the type is hard-deleted')
  t.same(
    (await gql(app, LIST)).data.listOwnershipTypes.ownershipTypes.map((o: { urn: string }) => o.urn),
    [kept],
  )

  t.same(await gql(app, `mutation { deleteOwnershipType(urn: "${kept}", deleteReferences: false) }`), {
    data: { deleteOwnershipType: true },
  })
  t.equal(
    (await restAspects(app, DS)).ownership?.value.owners[0].typeUrn,
    kept,
    'deleteReferences: false leaves the owners as they are',
  )

  const system = 'urn:li:ownershipType:__system__technical_owner'
  t.same(await gql(app, `mutation { deleteOwnershipType(urn: "${system}") }`), {
    data: { deleteOwnershipType: true },
  })
  t.same(
    (await restAspects(app, system)).status?.value,
    { removed: true },
    'a system type is only soft-deleted',
  )
})

t.test('a Reader may not manage ownership types; nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  const admin = await gqlAs(built.app, built.adminToken, CREATE, {
    input: { name: 'Mine', description: 'd' },
  })
  const urn = admin.body.data.createOwnershipType.urn as string
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  await adminWrite(built, reader, 'corpUserInfo', { active: true })
  const token = await tokenFor(built, reader)
  const before = await aspectOf(built, urn, 'ownershipTypeInfo')
  const calls: Record<string, [string, Record<string, unknown>?]> = {
    createOwnershipType: [CREATE, { input: { name: 'Theirs', description: 'd' } }],
    updateOwnershipType: [UPDATE, { urn, input: { name: 'x' } }],
    deleteOwnershipType: [`mutation { deleteOwnershipType(urn: "${urn}") }`],
  }
  for (const [name, [query, variables]] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(await aspectOf(built, urn, 'ownershipTypeInfo'), before, 'unchanged')
  const list = await gqlAs(built.app, built.adminToken, LIST)
  t.equal(list.body.data.listOwnershipTypes.total, 1, 'no second type')
})
