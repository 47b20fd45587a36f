/**
 * DataHub's version sets, kept with the writes of `versionProperties` (its
 * VersionPropertiesSideEffect): MLflow, Vertex AI and Unity Catalog models carry them.
 */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, getJson, ingestGolden, type Json, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const SET = 'urn:li:versionSet:(churn,mlModel)'
const model = (n: number) => `urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_${n},PROD)`

const version = (n: number, sortId: string, set = SET) => ({
  entityType: 'mlModel',
  entityUrn: model(n),
  changeType: 'UPSERT',
  aspectName: 'versionProperties',
  aspect: {
    value: JSON.stringify({ versionSet: set, version: { versionTag: String(n) }, aliases: [], sortId }),
    contentType: 'application/json',
  },
})

async function ingest(app: CatalogServer, ...proposals: Json[]) {
  const res = await postJson(app, '/aspects?action=ingestProposalBatch', { proposals })
  return res
}

async function aspect(
  app: CatalogServer,
  urn: string,
  name: string,
  record: string,
): Promise<Json | undefined> {
  const res = await getJson(app, `/aspects/${enc(urn)}?aspect=${name}&version=0`)
  return res.status === 200 ? res.body.aspect[record] : undefined
}

const setProperties = (app: CatalogServer) =>
  aspect(app, SET, 'versionSetProperties', 'com.linkedin.versionset.VersionSetProperties')
const isLatest = async (app: CatalogServer, n: number) =>
  (await aspect(app, model(n), 'versionProperties', 'com.linkedin.common.VersionProperties'))?.isLatest

t.test("MLflow's model version creates its version set", async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'mlflow__mlflow_mcps_golden.json')
  const set = 'urn:li:versionSet:(658730e7177b283e4f94410fe4b41519,mlModel)'
  const props = await aspect(app, set, 'versionSetProperties', 'com.linkedin.versionset.VersionSetProperties')
  t.match(props, {
    latest: 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,test-model_1,PROD)',
    versioningScheme: 'LEXICOGRAPHIC_STRING',
  })
  t.equal(
    (await getJson(app, `/aspects/${enc(set)}?aspect=versionSetKey&version=0`)).status,
    200,
    'the set exists',
  )
})

t.test('the latest version follows the sort ids, in one call or across calls', async (t) => {
  const { app } = await build(t)
  t.equal((await ingest(app, version(1, '0000000001'))).status, 200)
  t.match(await setProperties(app), { latest: model(1), versioningScheme: 'LEXICOGRAPHIC_STRING' })
  t.equal(await isLatest(app, 1), true)

  await ingest(app, version(2, '0000000002'))
  t.match(await setProperties(app), { latest: model(2) })
  t.equal(await isLatest(app, 2), true)
  t.equal(await isLatest(app, 1), false, 'the previous latest is no longer')

  await ingest(app, version(0, '0000000000'))
  t.match(await setProperties(app), { latest: model(2) }, 'an older version does not take over')
  t.equal(await isLatest(app, 0), false)

  await ingest(app, version(3, '0000000003'), version(4, '0000000004'))
  t.match(await setProperties(app), { latest: model(4) })
  t.equal(await isLatest(app, 3), false, 'superseded within the same call')
  t.equal(await isLatest(app, 4), true)
  t.equal(await isLatest(app, 2), false)

  await ingest(app, version(4, '0000000004'))
  t.equal(await isLatest(app, 4), true, 'written again, still the latest')

  // Search leaves out the versions that are not the latest, unless asked not to (DataHub's flag).
  const search = async (searchFlags?: Json) => {
    const { body } = await postJson(app, '/entities?action=search', {
      entity: 'mlModel',
      input: '*',
      start: 0,
      count: 10,
      ...(searchFlags ? { searchFlags } : {}),
    })
    return body.value.entities as string[]
  }
  t.same(await search(), [model(4)], 'the latest version only')
  t.same(
    (await search({ filterNonLatestVersions: false })).sort(),
    [0, 1, 2, 3, 4].map(model).sort(),
    'every version',
  )
  const plain = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,unversioned,PROD)'
  await ingest(app, {
    entityType: 'mlModel',
    entityUrn: plain,
    changeType: 'UPSERT',
    aspectName: 'mlModelProperties',
    aspect: { value: JSON.stringify({ description: 'no versions' }), contentType: 'application/json' },
  })
  t.same((await search()).sort(), [model(4), plain].sort(), 'an entity that is no version is found')
})

t.test('a version of another entity type than its set is refused, nothing written', async (t) => {
  const { app } = await build(t)
  const res = await ingest(app, version(1, '0000000001', 'urn:li:versionSet:(churn,dataset)'))
  t.equal(res.status, 422)
  t.match(res.body.message, 'Version Set specified entity type does not match, expected type: dataset')
  t.equal(
    await aspect(app, model(1), 'versionProperties', 'com.linkedin.common.VersionProperties'),
    undefined,
  )
})

t.test('a set whose latest is no longer a version takes the next one written', async (t) => {
  const { app } = await build(t)
  await ingest(app, version(1, '0000000005'))
  const removed = await ingest(app, {
    entityType: 'mlModel',
    entityUrn: model(1),
    changeType: 'DELETE',
    aspectName: 'versionProperties',
  })
  t.equal(removed.status, 200)
  const next = await ingest(app, version(2, '0000000001'))
  t.equal(next.status, 200, 'not refused')
  t.match(await setProperties(app), { latest: model(2) })
  t.equal(await isLatest(app, 2), true)
})

t.test('versions of one set written at the same time: one latest, none refused', async (t) => {
  const { app } = await build(t)
  const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => ingest(app, version(n, `000000000${n}`))))
  t.same(
    answers.map((a) => a.status),
    [200, 200, 200, 200, 200, 200],
  )
  t.match(await setProperties(app), { latest: model(6) })
  const latest = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => isLatest(app, n)))
  t.same(latest, [false, false, false, false, false, true], 'only the highest sort id is the latest')
})
