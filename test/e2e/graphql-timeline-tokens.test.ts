import t from 'tap'
import { adminWrite, assignRole, gql, tokenFor } from '../helpers/actors.js'
import { type Built, build, type Json } from '../helpers/build.js'

/** GraphQL `getTimeline`, `listAccessTokens`, `getAccessToken` and the analytics fields, on stored data. */

const ALICE = 'urn:li:corpuser:alice'
const BOB = 'urn:li:corpuser:bob'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,gql_timeline,PROD)'
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const TIMELINE = `query($input: GetTimelineInput!) { getTimeline(input: $input) { changeTransactions {
  timestampMillis lastSemanticVersion versionStamp changeType actor
  changes { urn category operation modifier parameters { key value } auditStamp { time actor } description } } } }`

const LIST = `query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) {
  start count total tokens { urn type id name actorUrn ownerUrn } } }`

const GET_TOKEN = `query($input: GetAccessTokenInput!) { getAccessToken(input: $input) { accessToken metadata { id } } }`

type Tx = {
  lastSemanticVersion: string
  changes: { category: string; operation: string; modifier: string }[]
}

const errorsOf = (body: Json): string[] => (body.errors ?? []).map((e: { message: string }) => e.message)

/** Three versions of tags and descriptions, each write at its own time. */
async function seedHistory(built: Built): Promise<void> {
  const steps: [string, unknown][] = [
    ['globalTags', { tags: [{ tag: 'urn:li:tag:Legacy' }] }],
    ['editableDatasetProperties', { description: 'first' }],
    ['globalTags', { tags: [{ tag: 'urn:li:tag:Legacy' }, { tag: 'urn:li:tag:Pii' }] }],
    ['editableDatasetProperties', { description: 'second' }],
    ['globalTags', { tags: [{ tag: 'urn:li:tag:Pii' }] }],
  ]
  for (const [aspect, value] of steps) {
    await adminWrite(built, DS, aspect, value)
    await sleep(5)
  }
}

t.test('getTimeline answers the stored versions as change transactions', async (t) => {
  const built = await build(t, { auth: true })
  await seedHistory(built)
  const all = await gql(built.app, built.adminToken, TIMELINE, { input: { urn: DS } })
  t.same(errorsOf(all.body), [], 'no errors')
  const txs = all.body.data.getTimeline.changeTransactions as Tx[]
  t.same(
    txs.map((tx) => tx.changes.map((c) => `${c.category} ${c.operation} ${c.modifier}`)),
    [
      ['TAG ADD urn:li:tag:Legacy'],
      ['DOCUMENTATION ADD null'],
      ['TAG ADD urn:li:tag:Pii'],
      ['DOCUMENTATION MODIFY null'],
      ['TAG REMOVE urn:li:tag:Legacy'],
    ],
    'one transaction per write, oldest first',
  )
  const first = all.body.data.getTimeline.changeTransactions[0]
  t.equal(first.versionStamp, 'none', "DataHub's mapper answers no version stamp")
  t.equal(first.changeType, 'MODIFY')
  t.equal(first.actor, 'urn:li:corpuser:datahub', 'the writer')
  t.equal(first.lastSemanticVersion, '0.0.0-computed')
  t.equal(first.changes[0].urn, DS)
  t.ok(
    first.changes[0].parameters.some((p: { key: string; value: string }) => p.value === 'urn:li:tag:Legacy'),
    'parameters as key/value strings',
  )

  const tags = await gql(built.app, built.adminToken, TIMELINE, {
    input: { urn: DS, changeCategories: ['TAG'] },
  })
  t.same(
    (tags.body.data.getTimeline.changeTransactions as Tx[]).map((tx) => tx.changes.map((c) => c.operation)),
    [['ADD'], ['ADD'], ['REMOVE']],
    'only the asked categories',
  )
  const owners = await gql(built.app, built.adminToken, TIMELINE, {
    input: { urn: DS, changeCategories: ['OWNERSHIP'] },
  })
  t.same(owners.body.data.getTimeline, { changeTransactions: [] }, 'no ownership changes')

  // A Reader may view the entity, so its history too.
  await assignRole(built, ALICE, 'Reader')
  const alice = await tokenFor(built, ALICE)
  const asReader = await gql(built.app, alice, TIMELINE, { input: { urn: DS, changeCategories: ['TAG'] } })
  t.same(asReader.body, tags.body, 'the same history for a Reader')
})

t.test('getTimeline refuses malformed input and answers null where DataHub does', async (t) => {
  const built = await build(t, { auth: true })
  const bad = await gql(built.app, built.adminToken, TIMELINE, { input: { urn: 'not-a-urn' } })
  t.equal(bad.body.data?.getTimeline ?? null, null)
  t.equal(bad.body.errors?.[0]?.extensions?.code, 400, 'a malformed urn is bad input')
  const tag = await gql(built.app, built.adminToken, TIMELINE, { input: { urn: 'urn:li:tag:Legacy' } })
  t.same(tag.body, { data: { getTimeline: null } }, 'an entity type without a timeline answers null')
  const badCategory = await gql(built.app, built.adminToken, TIMELINE, {
    input: { urn: DS, changeCategories: ['LIFECYCLE'] },
  })
  t.ok(errorsOf(badCategory.body)[0]?.includes('LIFECYCLE'), 'a category outside the GraphQL enum is refused')
})

t.test('access tokens: listed by their owner, by an admin, refused to others', async (t) => {
  const built = await build(t, { auth: true })
  await assignRole(built, ALICE, 'Reader')
  await assignRole(built, BOB, 'Reader')
  const alice = await tokenFor(built, ALICE)
  const bob = await tokenFor(built, BOB)
  const own = await gql(
    built.app,
    alice,
    `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${ALICE}", duration: ONE_DAY, name: "alice own"}) { metadata { id } } }`,
  )
  const ownId = own.body.data?.createAccessToken?.metadata?.id
  t.type(ownId, 'string', 'alice mints a token of her own')

  const mine = await gql(built.app, alice, LIST, {
    input: { filters: [{ field: 'ownerUrn', values: [ALICE] }] },
  })
  t.same(errorsOf(mine.body), [])
  t.same(
    mine.body.data.listAccessTokens,
    {
      start: 0,
      count: 20,
      total: 1,
      tokens: [
        {
          urn: `urn:li:dataHubAccessToken:${ownId}`,
          type: 'ACCESS_TOKEN',
          id: ownId,
          name: 'alice own',
          actorUrn: ALICE,
          ownerUrn: ALICE,
        },
      ],
    },
    'her own token, listed after creation',
  )
  for (const [why, token, filters] of [
    ['without the ownerUrn filter', alice, []],
    ["another user's tokens", alice, [{ field: 'ownerUrn', values: [BOB] }]],
    ['her own and more', alice, [{ field: 'ownerUrn', values: [ALICE, BOB] }]],
  ] as const) {
    const refused = await gql(built.app, token, LIST, { input: { filters } })
    t.same(errorsOf(refused.body), [UNAUTHORIZED], `a Reader listing ${why} is refused`)
    t.equal(refused.body.data, null)
  }

  const admin = await gql(built.app, built.adminToken, LIST, {
    input: { filters: [{ field: 'actorUrn', values: [ALICE, BOB] }] },
  })
  const listed = admin.body.data.listAccessTokens
  t.equal(listed.total, 3, "the admin lists anyone's: alice's and bob's minted by the admin, alice's own")
  t.same(
    listed.tokens.map((x: { ownerUrn: string; actorUrn: string }) => `${x.ownerUrn} ${x.actorUrn}`).sort(),
    [`${ALICE} ${ALICE}`, `urn:li:corpuser:datahub ${ALICE}`, `urn:li:corpuser:datahub ${BOB}`],
  )
  const page = await gql(built.app, built.adminToken, LIST, {
    input: { start: 1, count: 1, filters: [{ field: 'actorUrn', values: [ALICE, BOB] }] },
  })
  t.same(
    { ...page.body.data.listAccessTokens, tokens: page.body.data.listAccessTokens.tokens.length },
    { start: 1, count: 1, total: 3, tokens: 1 },
    'paged',
  )
  t.ok(bob, 'bob has a token')
})

t.test('getAccessToken mints a working personal token for the caller only', async (t) => {
  const built = await build(t, { auth: true })
  await assignRole(built, ALICE, 'Reader')
  const alice = await tokenFor(built, ALICE)
  const minted = await gql(built.app, alice, GET_TOKEN, {
    input: { type: 'PERSONAL', actorUrn: ALICE, duration: 'ONE_HOUR' },
  })
  t.same(errorsOf(minted.body), [])
  const token = minted.body.data.getAccessToken.accessToken
  t.type(token, 'string')
  t.equal(minted.body.data.getAccessToken.metadata, null, 'DataHub answers the token alone')
  const me = await gql(built.app, token, '{ me { corpUser { urn } } }')
  t.equal(me.body.data?.me?.corpUser?.urn, ALICE, 'the token authenticates alice')

  const count = async () =>
    (
      await gql(built.app, built.adminToken, LIST, {
        input: { filters: [{ field: 'actorUrn', values: [ALICE, BOB] }] },
      })
    ).body.data.listAccessTokens.total
  const before = await count()
  const forBob = await gql(built.app, alice, GET_TOKEN, {
    input: { type: 'PERSONAL', actorUrn: BOB, duration: 'ONE_HOUR' },
  })
  t.same(errorsOf(forBob.body), [UNAUTHORIZED], 'not for another user')
  const byAdmin = await gql(built.app, built.adminToken, GET_TOKEN, {
    input: { type: 'PERSONAL', actorUrn: BOB, duration: 'ONE_HOUR' },
  })
  t.same(errorsOf(byAdmin.body), [UNAUTHORIZED], 'not even by an admin')
  const service = await gql(built.app, alice, GET_TOKEN, {
    input: { type: 'SERVICE_ACCOUNT', actorUrn: ALICE, duration: 'ONE_HOUR' },
  })
  t.same(errorsOf(service.body), ['Unsupported AccessTokenType SERVICE_ACCOUNT provided'])
  t.equal(await count(), before, 'no refused call stored a token')
})

t.test('analytics and product updates answer as DataHub does with the features off', async (t) => {
  const built = await build(t)
  const enabled = await gql(
    built.app,
    undefined,
    '{ isAnalyticsEnabled appConfig { analyticsConfig { enabled } } }',
  )
  t.same(enabled.body.data, { isAnalyticsEnabled: false, appConfig: { analyticsConfig: { enabled: false } } })
  const highlights = await gql(built.app, undefined, '{ getHighlights { value title body } }')
  t.same(highlights.body.data, null)
  t.same(errorsOf(highlights.body), [
    "The field at path '/getHighlights' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.  The graphql specification requires that the parent field be set to null, or if that is non nullable that it bubble up null to its parent and so on. The non-nullable type is '[Highlight!]' within parent type 'Query'",
  ])
  const update = await gql(
    built.app,
    undefined,
    '{ latestProductUpdate { id title } appConfig { featureFlags { showProductUpdates } } }',
  )
  t.same(update.body, {
    data: { latestProductUpdate: null, appConfig: { featureFlags: { showProductUpdates: false } } },
  })
})
