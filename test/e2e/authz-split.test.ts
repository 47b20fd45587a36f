import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import {
  adminWrite,
  aspectOf,
  assignRole,
  deactivatePolicy,
  get,
  gql,
  post,
  tokenFor,
  upsert,
} from '../helpers/actors.js'
import { type Built, build } from '../helpers/build.js'

/**
 * Authorization in split mode (gateway, metadata service and search service as three
 * processes) gives the answers of one process: searches are checked, and a GraphQL mutation
 * allowed by a grant narrower than EDIT_ENTITY is not refused again as a REST write.
 * Its split-mode half runs under `npm run test:split`; alone it checks the one-process answer.
 */

const EDDIE = 'urn:li:corpuser:eddie'
const NOBODY = 'urn:li:corpuser:nobody'
const READER = 'urn:li:corpuser:reader'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_split,PROD)'
const TAG = 'urn:li:tag:SplitTag'
const enc = encodeURIComponent
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.'

if (process.env.CATALOG_E2E_SPLIT !== '1') {
  // The split-mode half runs in `npm run test:split` (test/split-replay.ts replays this file
  // and authz-reads.test.ts against the three processes); one process answers here.
  t.test('EDIT_ENTITY_TAGS alone adds a tag through GraphQL, one process', async (t) =>
    tagsOnly(t, await build(t, { auth: true })),
  )
} else {
  t.test('split mode: searches, autocomplete and browse are authorized', splitSearch)
  t.test('EDIT_ENTITY_TAGS alone adds a tag through GraphQL, split and one process', async (t) => {
    t.test('split mode', async (t) => tagsOnly(t, await build(t, { auth: true })))
    t.test('one process', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'catalog-authz-split-'))
      t.teardown(() => rmSync(dir, { recursive: true, force: true }))
      await tagsOnly(t, await build(t, { auth: true, dir }))
    })
  })
}

async function splitSearch(t: Test): Promise<void> {
  const built = await build(t, { auth: true })
  const { app } = built
  await adminWrite(built, DS, 'datasetProperties', { name: 'authz_split', customProperties: {} })
  const nobody = await tokenFor(built, NOBODY)
  const reader = await tokenFor(built, READER)
  await assignRole(built, READER, 'Reader')
  const search = { input: 'authz_split', entity: 'dataset', start: 0, count: 10 }
  const found = await post(app, '/entities?action=search', nobody, search)
  t.equal(found.status, 200, 'by default every user searches')
  t.equal(found.body.value.numEntities, 1, 'and finds the dataset')

  await deactivatePolicy(built, 'view-entity-page-all')
  const refusal = [403, 'User is unauthorized to search.', 403]
  const answer = (res: { status: number; body: { message?: string; status?: number } }) => [
    res.status,
    res.body?.message,
    res.body?.status,
  ]
  // The gateway reads the policies from the metadata service's change log: allow it a moment.
  let refused = await post(app, '/entities?action=search', nobody, search)
  for (let i = 0; i < 20 && refused.status === 200; i++) {
    await new Promise((r) => setTimeout(r, 100))
    refused = await post(app, '/entities?action=search', nobody, search)
  }
  t.same(answer(refused), refusal, 'search')
  const auto = { query: 'authz', entity: 'dataset', limit: 10 }
  t.same(answer(await post(app, '/entities?action=autocomplete', nobody, auto)), refusal, 'autocomplete')
  const browse = { path: '/', entity: 'dataset', start: 0, limit: 10 }
  t.same(answer(await post(app, '/entities?action=browse', nobody, browse)), refusal, 'browse')
  const across = { input: 'authz_split', entities: [], start: 0, count: 10 }
  t.same(
    answer(await post(app, '/entities/?action=searchAcrossEntities', nobody, across)),
    refusal,
    'trailing slash',
  )

  const allowed = await post(app, '/entities?action=search', reader, search)
  t.equal(allowed.status, 200, 'the Reader searches')
  t.equal(allowed.body.value.numEntities, 1)
  t.equal((await post(app, '/entities?action=autocomplete', reader, auto)).status, 200, 'and autocompletes')
  t.equal((await post(app, '/entities?action=browse', reader, browse)).status, 200, 'and browses')
  t.equal((await post(app, '/entities?action=search', undefined, search)).status, 401, 'no token: 401')
}

/** EDDIE holds EDIT_ENTITY_TAGS on DS and nothing else that edits. */
async function tagsOnly(t: Test, built: Built): Promise<void> {
  const { app } = built
  await adminWrite(built, DS, 'datasetProperties', { name: 'authz_split', customProperties: {} })
  await adminWrite(built, TAG, 'tagProperties', { name: 'SplitTag' })
  await adminWrite(built, 'urn:li:dataHubPolicy:eddie-tags', 'dataHubPolicyInfo', {
    displayName: 'eddie tags one dataset',
    description: 'EDIT_ENTITY_TAGS on one dataset',
    type: 'METADATA',
    state: 'ACTIVE',
    privileges: ['EDIT_ENTITY_TAGS'],
    actors: { users: [EDDIE], resourceOwners: false, allUsers: false, allGroups: false },
    resources: {
      allResources: false,
      filter: { criteria: [{ field: 'URN', values: [DS], condition: 'EQUALS' }] },
    },
    editable: true,
  })
  const eddie = await tokenFor(built, EDDIE)
  const nobody = await tokenFor(built, NOBODY)
  const addTag = `mutation { addTag(input: {tagUrn: "${TAG}", resourceUrn: "${DS}"}) }`

  const denied = await gql(app, nobody, addTag)
  t.equal(denied.body.errors?.[0]?.message, UNAUTHORIZED, 'a user without the privilege is refused')
  t.equal(await aspectOf(built, DS, 'globalTags'), undefined, 'and nothing is stored')

  let added = await gql(app, eddie, addTag)
  for (let i = 0; i < 20 && added.body.errors; i++) {
    // Split mode: the gateway sees the new policy once it has read the change log.
    await new Promise((r) => setTimeout(r, 100))
    added = await gql(app, eddie, addTag)
  }
  t.same(added.body, { data: { addTag: true } }, 'EDIT_ENTITY_TAGS adds a tag')
  t.same(await aspectOf(built, DS, 'globalTags'), { tags: [{ tag: TAG }] }, 'stored')
  const envelope = await get(app, `/entitiesV2/${enc(DS)}?aspects=List(globalTags)`, built.adminToken)
  t.equal(envelope.body.aspects.globalTags.created.actor, EDDIE, 'written as eddie')

  // REST writes still need EDIT_ENTITY, as DataHub's ingest checks them.
  const rest = await post(
    app,
    '/aspects?action=ingestProposal',
    eddie,
    upsert(DS, 'globalTags', { tags: [] }),
  )
  t.equal(rest.status, 403, 'a REST write of the same aspect is refused')
  t.same(await aspectOf(built, DS, 'globalTags'), { tags: [{ tag: TAG }] }, 'unchanged')
}
