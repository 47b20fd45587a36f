import t from 'tap'
import { adminWrite, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, ingestGolden, type Json } from '../helpers/build.js'
import { badRequest, gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Asset versions over GraphQL, as DataHub serves them: a model's or dataset's
 * `versionProperties`, `versionSet` with its `latestVersion` and `versionsSearch`, and the Python
 * SDK's `link_asset_to_version_set` / `unlink_asset_from_version_set` (`linkAssetVersion`,
 * `unlinkAssetVersion`, with the documents the SDK sends).
 */

const LINK = 'mutation($input: LinkVersionInput!) { linkAssetVersion(input: $input) { urn } }'
const UNLINK = 'mutation($input: UnlinkVersionInput!) { unlinkAssetVersion(input: $input) { urn } }'
const SET = 'urn:li:versionSet:(orders-versions,dataset)'
const ds = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,orders_v${n},PROD)`
const VERSION = `versionProperties { versionSet { urn } version { versionTag } aliases { versionTag } comment isLatest
  created { time actor { urn } } createdInSource { time actor { urn } } }`
const SET_QUERY = `query($urn: String!) { versionSet(urn: $urn) { urn type latestVersion { urn }
  versionsSearch(input: {query: "*", count: 10}) { total searchResults { entity { urn } } } } }`

t.test("MLflow's versioned model on the model page and its version set", async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'mlflow__mlflow_mcps_golden.json')
  const model = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,test-model_1,PROD)'
  const set = 'urn:li:versionSet:(658730e7177b283e4f94410fe4b41519,mlModel)'
  const page = await gql(app, `query($urn: String!) { mlModel(urn: $urn) { ${VERSION} } }`, { urn: model })
  t.notOk(page.errors, 'no errors')
  t.match(page.data.mlModel.versionProperties, {
    versionSet: { urn: set },
    version: { versionTag: '1' },
    aliases: [],
    isLatest: true,
  })
  const answer = await gql(app, SET_QUERY, { urn: set })
  t.notOk(answer.errors, 'no errors')
  t.same(answer.data.versionSet, {
    urn: set,
    type: 'VERSION_SET',
    latestVersion: { urn: model },
    versionsSearch: { total: 1, searchResults: [{ entity: { urn: model } }] },
  })
})

t.test('link and unlink versions as the Python SDK does', async (t) => {
  const { app } = await build(t)
  for (const n of [1, 2, 3])
    await ingestAspect(app, 'dataset', ds(n), 'datasetProperties', { name: `orders v${n}` })
  const link = (n: number, more: Json = {}) =>
    gql(app, LINK, { input: { versionSet: SET, linkedEntity: ds(n), version: `v${n}`, ...more } })

  t.same(
    (await link(1, { comment: 'first', sourceTimestamp: 1_600_000_000_000, sourceCreator: 'jdoe' })).data,
    {
      linkAssetVersion: { urn: SET },
    },
  )
  let v1 = (await gql(app, `{ dataset(urn: "${ds(1)}") { ${VERSION} } }`)).data.dataset.versionProperties
  t.match(v1, {
    versionSet: { urn: SET },
    version: { versionTag: 'v1' },
    comment: 'first',
    isLatest: true,
    created: { actor: { urn: 'urn:li:corpuser:datahub' } },
    createdInSource: { time: 1_600_000_000_000, actor: { urn: 'urn:li:corpuser:jdoe' } },
  })
  await link(2)
  await link(3)
  const stored = await app.inject({ method: 'GET', url: `/entitiesV2/${encodeURIComponent(ds(3))}` })
  t.match(JSON.parse(stored.body).aspects.versionProperties.value, {
    sortId: 'AAAAAAAC',
    versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
  })
  let set = (await gql(app, SET_QUERY, { urn: SET })).data.versionSet
  t.same(set.latestVersion, { urn: ds(3) })
  t.same(
    set.versionsSearch.searchResults.map((r: Json) => r.entity.urn),
    [ds(3), ds(2), ds(1)],
    'newest version first',
  )
  v1 = (await gql(app, `{ dataset(urn: "${ds(1)}") { versionProperties { isLatest } } }`)).data.dataset
  t.same(v1.versionProperties, { isLatest: false })

  t.same((await link(3)).data, { linkAssetVersion: null }, 'linked already: nothing to do')
  const other = await gql(app, LINK, {
    input: { versionSet: 'urn:li:versionSet:(other,dataset)', linkedEntity: ds(3), version: 'x' },
  })
  t.match(badRequest(other, 'linkAssetVersion'), {
    message: `Version already exists for specified entity: ${ds(3)} for a different Version Set: ${SET}`,
    code: 400,
  })
  const wrongType = await gql(app, LINK, {
    input: { versionSet: 'urn:li:versionSet:(models,mlModel)', linkedEntity: ds(1), version: 'x' },
  })
  t.match(badRequest(wrongType, 'linkAssetVersion'), {
    message: "Entity type must match Version Set's specified type: mlModel invalid type: dataset",
  })
  const notSet = await gql(app, LINK, { input: { versionSet: ds(2), linkedEntity: ds(1), version: 'x' } })
  t.match(badRequest(notSet, 'linkAssetVersion'), {
    message: `Version Set urn ${ds(2)} must be of type Version Set.`,
  })

  // Unlinking the latest makes the next one the latest; the last one takes the set with it.
  t.same((await gql(app, UNLINK, { input: { versionSet: SET, unlinkedEntity: ds(3) } })).data, {
    unlinkAssetVersion: { urn: SET },
  })
  set = (await gql(app, SET_QUERY, { urn: SET })).data.versionSet
  t.same(set.latestVersion, { urn: ds(2) })
  t.equal(set.versionsSearch.total, 2)
  const v2 = (await gql(app, `{ dataset(urn: "${ds(2)}") { versionProperties { isLatest } } }`)).data.dataset
  t.same(v2.versionProperties, { isLatest: true })
  t.same((await gql(app, UNLINK, { input: { versionSet: SET, unlinkedEntity: ds(3) } })).data, {
    unlinkAssetVersion: null,
  })
  await gql(app, UNLINK, { input: { versionSet: SET, unlinkedEntity: ds(1) } })
  await gql(app, UNLINK, { input: { versionSet: SET, unlinkedEntity: ds(2) } })
  const gone = await gql(app, `{ versionSet(urn: "${SET}") { latestVersion { urn } } }`)
  t.same(gone.data.versionSet, { latestVersion: null })
  const exists = await app.inject({ method: 'POST', url: '/entities?action=exists', payload: { urn: SET } })
  t.equal(JSON.parse(exists.body).value, false, 'no versions left: the set is gone')
})

t.test('linking needs EDIT_ENTITY on the set and the entity', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, ds(1), 'datasetProperties', { name: 'orders v1' })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const input = { versionSet: SET, linkedEntity: ds(1), version: 'v1' }
  const refused = await gqlAs(built.app, reader, LINK, { input })
  t.equal(refused.body.errors?.[0]?.extensions?.code, 403)
  const admin = await gqlAs(built.app, built.adminToken as string, LINK, { input })
  t.same(admin.body.data, { linkAssetVersion: { urn: SET } }, 'the admin may')
  const unlink = await gqlAs(built.app, reader, UNLINK, { input: { versionSet: SET, unlinkedEntity: ds(1) } })
  t.equal(unlink.body.errors?.[0]?.extensions?.code, 403)
})
