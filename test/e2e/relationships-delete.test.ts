import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { assignRole, tokenFor, upsert } from '../helpers/actors.js'
import { build, getJson, postJson } from '../helpers/build.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,reldel.${name},PROD)`
const A = ds('a')
const B = ds('b')
const C = ds('c')
const JDOE = 'urn:li:corpuser:jdoe'
const TAG = 'urn:li:tag:RelDel'
const TYPES = 'List(OwnedBy,DownstreamOf,TaggedWith)'
const enc = encodeURIComponent

const upstream = (urn: string) => ({
  upstreams: [{ dataset: urn, type: 'TRANSFORMED', auditStamp: { time: 0, actor: JDOE } }],
})
const owned = { owners: [{ owner: JDOE, type: 'DATAOWNER' }], lastModified: { time: 0, actor: JDOE } }

/** A -> B (DownstreamOf), A -> jdoe (OwnedBy), A -> tag; C -> A (DownstreamOf), C -> jdoe (OwnedBy). */
async function seed(app: CatalogServer, token?: string) {
  const writes = [
    upsert(A, 'upstreamLineage', upstream(B)),
    upsert(A, 'ownership', owned),
    upsert(A, 'globalTags', { tags: [{ tag: TAG }] }),
    upsert(C, 'upstreamLineage', upstream(A)),
    upsert(C, 'ownership', owned),
  ]
  for (const w of writes) {
    const res = await app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      payload: w,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    })
    if (res.statusCode !== 200) throw new Error(`seed: ${res.statusCode} ${res.body}`)
  }
}

const related = async (app: CatalogServer, direction: string, urn: string, token?: string) => {
  const res = await app.inject({
    method: 'GET',
    url: `/relationships?direction=${direction}&urn=${enc(urn)}&types=${TYPES}`,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  })
  const body = JSON.parse(res.body)
  return (body.relationships as Array<{ type: string; entity: string }>).map((r) => `${r.type} ${r.entity}`)
}

const remove = (app: CatalogServer, query: string, token?: string) =>
  app.inject({
    method: 'DELETE',
    url: `/relationships${query}`,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  })

t.test('DELETE /relationships drops the edges at an entity both ways, aspects untouched', async (t) => {
  const { app, store } = await build(t)
  await seed(app)
  t.same(await related(app, 'OUTGOING', A), [`DownstreamOf ${B}`, `OwnedBy ${JDOE}`, `TaggedWith ${TAG}`])
  t.same(await related(app, 'INCOMING', A), [`DownstreamOf ${C}`])
  const aspectsBefore = await store.latest([A, C])
  const head = await store.head()

  const res = await remove(app, `?urn=${enc(A)}`)
  t.equal(res.statusCode, 200)
  t.equal(res.body, '', 'an empty body, as Rest.li answers an UpdateResponse')

  t.same(await related(app, 'OUTGOING', A), [], 'no edge from the entity')
  t.same(await related(app, 'INCOMING', A), [], 'no edge to the entity')
  t.same(await related(app, 'OUTGOING', C), [`OwnedBy ${JDOE}`], "the other entities' other edges stay")
  t.same(await related(app, 'INCOMING', JDOE), [`OwnedBy ${C}`])
  t.same(await related(app, 'INCOMING', B), [])

  const aspectsAfter = await store.latest([A, C])
  const values = (m: typeof aspectsBefore) =>
    [...m.values()].flat().map((r) => ({ urn: r.urn, aspect: r.aspect, value: r.value }))
  t.same(values(aspectsAfter), values(aspectsBefore), 'every aspect keeps its value')
  t.equal(await store.version(A, 'ownership', 1), undefined, 'and no new version is written')
  const log = await store.changes(head, 100)
  t.same(
    log.map((e) => `${e.urn} ${e.aspect}`).sort(),
    [`${A} globalTags`, `${A} ownership`, `${A} upstreamLineage`, `${C} upstreamLineage`],
    'the re-derived rows are announced once each (unchanged values)',
  )

  const again = await remove(app, `?urn=${enc(A)}`)
  t.equal(again.statusCode, 200, 'deleting again is a no-op')
  t.equal((await store.changes(head, 100)).length, log.length, 'and announces nothing')

  // The edges are derived from the aspects: restoreIndices re-derives them, as in DataHub.
  for (const urn of [A, C]) {
    const restored = await postJson(app, '/operations?action=restoreIndices', { urn })
    t.equal(restored.status, 200)
  }
  t.same(await related(app, 'OUTGOING', A), [`DownstreamOf ${B}`, `OwnedBy ${JDOE}`, `TaggedWith ${TAG}`])
  t.same(await related(app, 'INCOMING', A), [`DownstreamOf ${C}`])
})

t.test('bad input gets DataHub 400 bodies and changes nothing', async (t) => {
  const { app, store } = await build(t)
  await seed(app)
  const head = await store.head()
  const before = await related(app, 'OUTGOING', A)
  for (const [query, pattern] of [
    ['', /urn/],
    ['?urn=', /urn/],
    ['?urn=not-a-urn', /Invalid urn/],
    [`?urn=${enc('urn:li:dataset:(urn:li:dataPlatform:hive,missing-origin)')}`, /./],
  ] as const) {
    const res = await remove(app, query)
    t.equal(res.statusCode, 400, `DELETE /relationships${query}`)
    const body = JSON.parse(res.body)
    t.equal(body.status, 400)
    t.equal(body.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
    t.match(body.message, pattern)
  }
  t.same(await related(app, 'OUTGOING', A), before, 'the edges stay')
  t.equal(await store.head(), head, 'nothing is written')
  const unknown = await remove(app, `?urn=${enc(ds('never-written'))}`)
  t.equal(unknown.statusCode, 200, 'an entity without edges is fine')
})

t.test('DELETE /relationships needs LINEAGE DELETE on the entity', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken } = built
  await seed(app, adminToken)
  const nobody = 'urn:li:corpuser:reldel-nobody'
  const editor = 'urn:li:corpuser:reldel-editor'
  await assignRole(built, editor, 'Editor')
  const nobodyToken = await tokenFor(built, nobody)
  const editorToken = await tokenFor(built, editor)

  t.equal((await remove(app, `?urn=${enc(A)}`)).statusCode, 401, 'no token: 401')
  const refused = await remove(app, `?urn=${enc(A)}`, nobodyToken)
  t.equal(refused.statusCode, 403)
  t.same(JSON.parse(refused.body), {
    exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
    message: `User is unauthorized to delete entity: ${A}`,
    status: 403,
  })
  t.equal((await related(app, 'OUTGOING', A, adminToken)).length, 3, 'a refused delete removes nothing')

  const allowed = await remove(app, `?urn=${enc(A)}`, editorToken)
  t.equal(allowed.statusCode, 200, 'an Editor (EDIT_LINEAGE) may')
  t.same(await related(app, 'OUTGOING', A, adminToken), [])
  const health = await getJson(app, '/health')
  t.equal(health.status, 200)
})
