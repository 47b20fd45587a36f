import t from 'tap'
import { build, getJson, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,versions.topic,PROD)'
const upsert = (aspectName: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    ...extra,
  },
})
const del = (aspectName: string) => ({
  proposal: { entityType: 'dataset', entityUrn: DS, changeType: 'DELETE', aspectName },
})

t.test('DataHub versioning over HTTP', async (t) => {
  const { app } = await build(t)
  const ingest = (body: unknown) => postJson(app, '/aspects?action=ingestProposal', body)
  const version = async (aspect: string, v: number) =>
    (await getJson(app, `/aspects/${enc(DS)}?aspect=${aspect}&version=${v}`)).body
  t.equal(
    (
      await ingest(
        upsert(
          'datasetProperties',
          { description: 'a' },
          { systemMetadata: { runId: 'r1', lastObserved: 1 } },
        ),
      )
    ).status,
    200,
  )
  await ingest(upsert('datasetProperties', { description: 'b' }))
  await ingest(upsert('datasetProperties', { description: 'b' }))
  await ingest(upsert('datasetProperties', { description: 'c' }))
  t.same(await version('datasetProperties', 0), {
    version: 0,
    aspect: { 'com.linkedin.dataset.DatasetProperties': { description: 'c' } },
  })
  t.same((await version('datasetProperties', 1)).aspect['com.linkedin.dataset.DatasetProperties'], {
    description: 'a',
  })
  t.same((await version('datasetProperties', 2)).aspect['com.linkedin.dataset.DatasetProperties'], {
    description: 'b',
  })
  t.equal(
    (await getJson(app, `/aspects/${enc(DS)}?aspect=datasetProperties&version=3`)).status,
    404,
    'the identical write made no version',
  )

  const v2 = await getJson(app, `/entitiesV2/${enc(DS)}`)
  t.same(
    v2.body.aspects.browsePaths.value,
    { paths: ['/prod/kafka/versions'] },
    'default browse path from the dotted name, lower-cased',
  )
  t.same(v2.body.aspects.dataPlatformInstance.value, { platform: 'urn:li:dataPlatform:kafka' })
  t.equal(v2.body.aspects.datasetProperties.systemMetadata.runId, 'no-run-id-provided')

  t.test('DELETE of an aspect removes it', async (t) => {
    t.equal((await ingest(del('datasetProperties'))).status, 200)
    t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=datasetProperties&version=0`)).status, 404)
  })

  t.test('soft delete is the status aspect; the entity stays readable', async (t) => {
    await ingest(upsert('status', { removed: true }))
    const read = await getJson(app, `/entitiesV2/${enc(DS)}`)
    t.same(read.body.aspects.status.value, { removed: true })
  })

  t.test('DELETE of the key aspect deletes the entity', async (t) => {
    t.equal((await ingest(del('datasetKey'))).status, 200)
    t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=datasetKey&version=0`)).status, 404)
    t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=status&version=0`)).status, 404)
    const read = await getJson(app, `/entitiesV2/${enc(DS)}`)
    t.equal(read.status, 200, 'a missing entity still answers 200')
    t.same(Object.keys(read.body.aspects), ['datasetKey'])
    t.equal(
      read.body.aspects.datasetKey.created.actor,
      'urn:li:corpuser:__datahub_system',
      'synthesized key aspect',
    )
  })

  t.test('raw (unencoded) URNs in paths work too', async (t) => {
    await ingest(upsert('status', { removed: false }))
    const raw = await getJson(app, `/entitiesV2/${DS}`)
    t.equal(raw.status, 200)
    t.ok(raw.body.aspects.status)
  })

  t.test('snapshot ingest: several aspects in one call, empty body, systemMetadata optional', async (t) => {
    const user = 'urn:li:corpuser:fbar'
    const body = (systemMetadata?: unknown) => ({
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.CorpUserSnapshot': {
            urn: user,
            aspects: [
              {
                'com.linkedin.identity.CorpUserInfo': {
                  active: true,
                  displayName: 'Foo Bar',
                  fullName: 'Foo Bar',
                  email: 'fbar@linkedin.com',
                },
              },
            ],
          },
        },
      },
      ...(systemMetadata === undefined ? {} : { systemMetadata }),
    })
    for (const sm of [undefined, {}, { lastObserved: 1628097379571, runId: 'af0fe6e4' }]) {
      const res = await app.inject({ method: 'POST', url: '/entities?action=ingest', payload: body(sm) })
      t.equal(res.statusCode, 200)
      t.equal(res.body, '', 'void action: empty body')
    }
    const snap = await getJson(app, `/entities/${enc(user)}`)
    t.same(snap.body.value['com.linkedin.metadata.snapshot.CorpUserSnapshot'].aspects[0], {
      'com.linkedin.metadata.key.CorpUserKey': { username: 'fbar' },
    })
    const mismatch = await postJson(app, '/entities?action=batchIngest', {
      entities: [body().entity],
      systemMetadata: [{}, {}],
    })
    t.equal(mismatch.status, 412)
    t.equal(mismatch.body.message, 'entities and systemMetadata length must match')
  })
})
