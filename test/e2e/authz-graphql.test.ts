import t, { type Test } from 'tap'
import { adminWrite, aspectOf, assignRole, gql, headOf, tokenFor } from '../helpers/actors.js'
import { type Built, build, type Json } from '../helpers/build.js'

/** GraphQL mutations and `me` under DataHub's policies: one check before every mutation resolver. */

const ALICE = 'urn:li:corpuser:alice'
const BOB = 'urn:li:corpuser:bob'
const CAROL = 'urn:li:corpuser:carol'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_gql,PROD)'
const TAG = 'urn:li:tag:Legacy'
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.'
const ASSIGN_REFUSED =
  'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.'

/** One mutation per area, each with valid input, so that only authorization can refuse it. */
const MUTATIONS: Readonly<Record<string, string>> = {
  addTag: `addTag(input: {tagUrn: "${TAG}", resourceUrn: "${DS}"})`,
  addTags: `addTags(input: {tagUrns: ["${TAG}"], resourceUrn: "${DS}"})`,
  removeTag: `removeTag(input: {tagUrn: "${TAG}", resourceUrn: "${DS}"})`,
  batchAddTags: `batchAddTags(input: {tagUrns: ["${TAG}"], resources: [{resourceUrn: "${DS}"}]})`,
  addTerm: `addTerm(input: {termUrn: "urn:li:glossaryTerm:pii", resourceUrn: "${DS}"})`,
  addOwner: `addOwner(input: {ownerUrn: "${ALICE}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER, resourceUrn: "${DS}"})`,
  addLink: `addLink(input: {linkUrl: "https://wiki/x", label: "wiki", resourceUrn: "${DS}"})`,
  updateDescription: `updateDescription(input: {description: "mine now", resourceUrn: "${DS}"})`,
  setDomain: `setDomain(entityUrn: "${DS}", domainUrn: "urn:li:domain:sales")`,
  updateDeprecation: `updateDeprecation(input: {urn: "${DS}", deprecated: true})`,
  updateDataset: `updateDataset(urn: "${DS}", input: {editableProperties: {description: "x"}}) { urn }`,
  createTag: 'createTag(input: {id: "fresh", name: "Fresh"})',
  createDomain: 'createDomain(input: {id: "fresh", name: "Fresh"})',
  createPolicy: `createPolicy(input: {type: PLATFORM, name: "mine", state: ACTIVE, privileges: ["MANAGE_POLICIES"],
    actors: {users: ["${ALICE}"], resourceOwners: false, allUsers: false, allGroups: false}})`,
  batchAssignRole: `batchAssignRole(input: {roleUrn: "urn:li:dataHubRole:Admin", actors: ["${ALICE}"]})`,
  createAccessToken: `createAccessToken(input: {type: PERSONAL, actorUrn: "${BOB}", duration: ONE_HOUR, name: "x"}) { accessToken }`,
  createDataHubFile:
    'createDataHubFile(input: {id: "f", storageKey: "k", originalFileName: "a.png", mimeType: "image/png", sizeInBytes: 1, scenario: ASSET_DOCUMENTATION}) { file { urn } }',
}

/** Mutations above whose type is non-null. */
const NON_NULL = new Set(['createDataHubFile'])

const call = (built: Built, token: string | undefined, name: string) =>
  gql(built.app, token, `mutation { ${MUTATIONS[name]} }`)

/** A dataset, a tag, a term and a domain, written by the admin. */
async function seed(built: Built): Promise<void> {
  await adminWrite(built, DS, 'datasetProperties', { name: 'authz_gql', customProperties: {} })
  await adminWrite(built, TAG, 'tagProperties', { name: 'Legacy' })
  await adminWrite(built, 'urn:li:glossaryTerm:pii', 'glossaryTermInfo', {
    definition: 'personal data',
    termSource: 'INTERNAL',
  })
  await adminWrite(built, 'urn:li:domain:sales', 'domainProperties', { name: 'Sales' })
}

/** What the mutations above would write, read back over REST (both modes). */
const DS_ASPECTS = [
  'globalTags',
  'ownership',
  'glossaryTerms',
  'institutionalMemory',
  'editableDatasetProperties',
  'domains',
  'deprecation',
]
async function written(built: Built): Promise<unknown[]> {
  return Promise.all([
    ...DS_ASPECTS.map((a) => aspectOf(built, DS, a)),
    aspectOf(built, 'urn:li:tag:fresh', 'tagProperties'),
    aspectOf(built, 'urn:li:domain:fresh', 'domainProperties'),
    aspectOf(built, ALICE, 'roleMembership'),
  ])
}

function refused(t: Test, answer: { status: number; body: Json }, name: string, message = UNAUTHORIZED) {
  t.equal(answer.status, 200, `${name}: HTTP 200, as DataHub answers GraphQL errors`)
  // A refused field of a non-null type nulls the whole answer's data.
  t.same(answer.body.data, NON_NULL.has(name) ? null : { [name]: null }, `${name}: no data`)
  t.match(answer.body.errors?.[0], { message, path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
}

t.test('a Reader runs no mutation, and nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  const alice = await tokenFor(built, ALICE)
  await assignRole(built, ALICE, 'Reader')
  const [head, before] = [await headOf(built), await written(built)]
  for (const name of Object.keys(MUTATIONS)) {
    refused(
      t,
      await call(built, alice, name),
      name,
      name === 'batchAssignRole' ? ASSIGN_REFUSED : UNAUTHORIZED,
    )
  }
  t.same(await written(built), before, 'nothing was written')
  t.equal(await headOf(built), head, 'the change log did not move (one-process mode)')
  const noToken = await call(built, undefined, 'addTag')
  t.equal(noToken.status, 401, 'no token: 401 before any resolver')
})

t.test('an Editor edits tags, owners and docs, but manages no policy', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  const alice = await tokenFor(built, ALICE)
  await assignRole(built, ALICE, 'Reader')
  refused(t, await call(built, alice, 'addTag'), 'addTag')
  await assignRole(built, ALICE, 'Editor')
  t.same((await call(built, alice, 'addTag')).body, { data: { addTag: true } }, 'the new role counts at once')
  t.same((await call(built, alice, 'updateDescription')).body, { data: { updateDescription: true } })
  t.same((await call(built, alice, 'addOwner')).body, { data: { addOwner: true } })
  t.same(
    (await call(built, alice, 'createTag')).body,
    { data: { createTag: 'urn:li:tag:fresh' } },
    'MANAGE_TAGS',
  )
  const own = await gql(
    built.app,
    alice,
    `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${ALICE}", duration: ONE_HOUR, name: "mine"}) { accessToken } }`,
  )
  t.type(own.body.data?.createAccessToken?.accessToken, 'string', 'a personal token for herself')
  const tags = await aspectOf(built, DS, 'globalTags')
  t.same(tags, { tags: [{ tag: TAG }] }, 'the tag is stored')

  const [head, before] = [await headOf(built), await written(built)]
  refused(t, await call(built, alice, 'createPolicy'), 'createPolicy')
  refused(t, await call(built, alice, 'batchAssignRole'), 'batchAssignRole', ASSIGN_REFUSED)
  refused(t, await call(built, alice, 'createAccessToken'), 'createAccessToken')
  // No rule for createDataHubFile: it fails closed.
  refused(t, await call(built, alice, 'createDataHubFile'), 'createDataHubFile')
  t.same(await written(built), before, 'none of them wrote')
  t.equal(await headOf(built), head, 'not even elsewhere (one-process mode)')
})

t.test('an Admin and the root user pass every check', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  const carol = await tokenFor(built, CAROL)
  await assignRole(built, CAROL, 'Admin')
  for (const token of [carol, built.adminToken]) {
    t.same((await call(built, token, 'addTag')).body, { data: { addTag: true } })
    // Past the authorizer, a mutation not served yet says so (and not 403).
    const unserved = await call(built, token, 'createDataHubFile')
    t.match(unserved.body.errors[0], {
      message: 'Mutation.createDataHubFile is not served by this catalog yet',
    })
    t.not(unserved.body.errors[0].extensions.code, 403)
  }
})

t.test('an Admin other than root manages the tokens of other users (MANAGE_ACCESS_TOKENS)', async (t) => {
  const built = await build(t, { auth: true })
  const carol = await tokenFor(built, CAROL)
  await assignRole(built, CAROL, 'Admin')
  const created = await gql(
    built.app,
    carol,
    `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${BOB}", duration: ONE_HOUR, name: "for bob"}) { accessToken metadata { id actorUrn ownerUrn } } }`,
  )
  t.notOk(created.body.errors, JSON.stringify(created.body.errors?.[0]))
  const minted = created.body.data?.createAccessToken
  t.match(minted?.metadata, { actorUrn: BOB, ownerUrn: CAROL }, 'a token for bob, owned by carol')
  const bob = await tokenFor(built, BOB)
  const bobs = await gql(
    built.app,
    bob,
    `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${BOB}", duration: ONE_HOUR, name: "own"}) { metadata { id } } }`,
  )
  const bobsId = bobs.body.data?.createAccessToken?.metadata?.id
  const revoked = await gql(built.app, carol, `mutation { revokeAccessToken(tokenId: "${bobsId}") }`)
  t.same(revoked.body, { data: { revokeAccessToken: true } }, 'and revokes a token bob minted for himself')
  const refused = await gql(
    built.app,
    bob,
    `mutation { revokeAccessToken(tokenId: "${minted?.metadata?.id}") }`,
  )
  t.same(refused.body.data?.revokeAccessToken, true, 'the actor of a token may revoke it too, as in DataHub')
})

const ME =
  '{ me { corpUser { urn } platformPrivileges { managePolicies manageTags createTags generatePersonalAccessTokens viewAnalytics manageIdentities } } }'

t.test("me reports the caller's platform privileges from its policies", async (t) => {
  const built = await build(t, { auth: true })
  const alice = await tokenFor(built, ALICE)
  const me = async (token: string | undefined) => (await gql(built.app, token, ME)).body.data.me
  t.same(
    (await me(alice)).platformPrivileges,
    {
      managePolicies: false,
      manageTags: false,
      createTags: false,
      generatePersonalAccessTokens: true,
      viewAnalytics: true,
      manageIdentities: false,
    },
    'no role: the "All Users" policy only',
  )
  await assignRole(built, ALICE, 'Editor')
  t.match((await me(alice)).platformPrivileges, { managePolicies: false, manageTags: true, createTags: true })
  await assignRole(built, ALICE, 'Admin')
  t.match((await me(alice)).platformPrivileges, { managePolicies: true, manageIdentities: true })
  const root = await me(built.adminToken)
  t.equal(root.corpUser.urn, 'urn:li:corpuser:datahub')
  t.ok(
    Object.values(root.platformPrivileges).every((v) => v === true),
    'the root user holds them all',
  )
})

t.test('roles are listed and assigned the way DataHub does it', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  const alice = await tokenFor(built, ALICE)
  const list = await gql(
    built.app,
    alice,
    '{ listRoles(input: {}) { start count total roles { urn type name } } }',
  )
  t.same(list.body.data.listRoles, {
    start: 0,
    count: 3,
    total: 3,
    roles: ['Admin', 'Editor', 'Reader'].map((name) => ({
      urn: `urn:li:dataHubRole:${name}`,
      type: 'DATAHUB_ROLE',
      name,
    })),
  })
  const edit = await gql(built.app, alice, '{ listRoles(input: {query: "edit"}) { total roles { name } } }')
  t.same(edit.body.data.listRoles, { total: 1, roles: [{ name: 'Editor' }] })

  const assign = (roleUrn: string | null, token = built.adminToken) =>
    gql(
      built.app,
      token,
      'mutation($role: String, $actors: [String!]!) { batchAssignRole(input: {roleUrn: $role, actors: $actors}) }',
      { role: roleUrn, actors: [ALICE, 'urn:li:corpGroup:eng'] },
    )
  refused(t, await assign('urn:li:dataHubRole:Admin', alice), 'batchAssignRole', ASSIGN_REFUSED)
  refused(t, await call(built, alice, 'addTag'), 'addTag')
  t.same((await assign('urn:li:dataHubRole:Editor')).body, { data: { batchAssignRole: true } })
  t.same(
    [
      await aspectOf(built, ALICE, 'roleMembership'),
      await aspectOf(built, 'urn:li:corpGroup:eng', 'roleMembership'),
    ],
    [{ roles: ['urn:li:dataHubRole:Editor'] }, { roles: ['urn:li:dataHubRole:Editor'] }],
    'roleMembership of the user and of the group',
  )
  t.same((await call(built, alice, 'addTag')).body, { data: { addTag: true } }, 'the Editor edits at once')

  const head = await headOf(built)
  const missing = await assign('urn:li:dataHubRole:Nope')
  t.match(missing.body.errors[0], {
    message: 'Role urn:li:dataHubRole:Nope does not exist',
    extensions: { code: 400 },
  })
  t.equal(await headOf(built), head, 'an unknown role writes nothing (one-process mode)')
  t.same(
    await aspectOf(built, ALICE, 'roleMembership'),
    { roles: ['urn:li:dataHubRole:Editor'] },
    'unchanged',
  )

  t.same((await assign(null)).body, { data: { batchAssignRole: true } }, 'no role: roles removed')
  refused(t, await call(built, alice, 'removeTag'), 'removeTag')
})

t.test('getGrantedPrivileges answers for oneself, on a resource or platform-wide', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  const alice = await tokenFor(built, ALICE)
  await assignRole(built, ALICE, 'Editor')
  const granted = async (actor: string, resourceUrn?: string) =>
    gql(
      built.app,
      alice,
      'query($input: GetGrantedPrivilegesInput!) { getGrantedPrivileges(input: $input) { privileges } }',
      {
        input: {
          actorUrn: actor,
          ...(resourceUrn ? { resourceSpec: { resourceType: 'DATASET', resourceUrn } } : {}),
        },
      },
    )
  const onDataset = (await granted(ALICE, DS)).body.data.getGrantedPrivileges.privileges as string[]
  for (const p of ['EDIT_ENTITY', 'EDIT_ENTITY_TAGS', 'VIEW_ENTITY_PAGE', 'MANAGE_TAGS'])
    t.ok(onDataset.includes(p), `on the dataset: ${p}`)
  t.notOk(onDataset.includes('MANAGE_POLICIES'), 'not MANAGE_POLICIES')
  const platform = (await granted(ALICE)).body.data.getGrantedPrivileges.privileges as string[]
  t.ok(platform.includes('MANAGE_TAGS') && platform.includes('GENERATE_PERSONAL_ACCESS_TOKENS'))
  t.notOk(platform.includes('EDIT_ENTITY'), 'metadata policies with a resource filter need a resource')
  const other = await granted(BOB)
  t.match(other.body.errors[0], {
    message: 'Unauthorized to get privileges for the given author.',
    extensions: { code: 403 },
  })
})
