import { restCheck } from '@catalog/auth'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, type Json } from '../helpers/build.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const A = ds('registry.created')
const B = ds('registry.changed')
const C = ds('registry.untouched')
const H = { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' }

async function propose(app: CatalogServer, urn: string, description: string, registry?: [string, string]) {
  const res = await app.inject({
    method: 'POST',
    url: '/aspects?action=ingestProposal',
    headers: H,
    payload: JSON.stringify({
      proposal: {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: {
          value: JSON.stringify({ description, customProperties: {} }),
          contentType: 'application/json',
        },
        systemMetadata: {
          lastObserved: 1_700_000_000_000,
          runId: registry ? 'dq-run' : 'plain-run',
          ...(registry ? { registryName: registry[0], registryVersion: registry[1] } : {}),
        },
      },
    }),
  })
  if (res.statusCode !== 200) throw new Error(res.body)
}

/** `datahub delete by-registry`: `cli_utils.post_rollback_endpoint(payload, "/entities?action=deleteAll")`. */
const deleteAll = (app: CatalogServer, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/entities?action=deleteAll',
    headers: H,
    payload: JSON.stringify(payload),
  })

const latest = async (app: CatalogServer, urn: string): Promise<Json> =>
  (await app.inject({ method: 'GET', url: `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}` })).json()

t.test('deleteAll undoes what a registry wrote, as the CLI calls it', async (t) => {
  const { app } = await build(t)
  await propose(app, B, 'before the model')
  await propose(app, C, 'never by the model')
  await propose(app, A, 'made by the model', ['dq-model', '0.0.1'])
  await propose(app, B, 'changed by the model', ['dq-model', '0.0.1'])
  await propose(app, C, 'another version of the model', ['dq-model', '0.0.2'])
  const before = { A: await latest(app, A), B: await latest(app, B), C: await latest(app, C) }

  const dry = await deleteAll(app, { registryId: 'dq-model:0.0.1', dryRun: true, soft: true })
  t.equal(dry.statusCode, 200, dry.body)
  const summary = dry.json().value
  const rows = summary.aspectRowSummaries.map((r: Json) => `${r.urn} ${r.aspectName}`).sort()
  t.ok(rows.includes(`${A} datasetProperties`) && rows.includes(`${B} datasetProperties`), rows.join('\n'))
  t.notOk(
    rows.some((r: string) => r.startsWith(C)),
    'another registry version is not matched',
  )
  t.equal(summary.aspectsAffected, rows.length)
  t.equal(summary.entitiesAffected, new Set(summary.aspectRowSummaries.map((r: Json) => r.urn)).size)
  t.equal(summary.entitiesDeleted, rows.filter((r: string) => r.endsWith(' datasetKey')).length)
  for (const r of summary.aspectRowSummaries) {
    t.equal(r.runId, 'dq-run')
    t.equal(r.timestamp, 1_700_000_000_000, 'the CLI formats timestamp / 1000')
  }
  t.same(
    { A: await latest(app, A), B: await latest(app, B), C: await latest(app, C) },
    before,
    'dry run changes nothing',
  )

  const real = await deleteAll(app, { registryId: 'dq-model:0.0.1', dryRun: false, soft: false })
  t.equal(real.statusCode, 200, real.body)
  t.same(real.json().value, summary, 'the same report as the dry run')
  t.equal(
    (await latest(app, B)).datasetProperties.value.description,
    'before the model',
    'B back to its previous version',
  )
  t.same(await latest(app, C), before.C, 'C untouched')
  const a = await latest(app, A)
  t.equal(summary.entitiesDeleted, 1, "A's key aspect came from the model")
  t.equal(a.status?.value.removed, true, 'A, created by the model, is soft-deleted')
  t.notOk(a.datasetProperties, "A's model-written aspect is gone")

  const again = await deleteAll(app, { registryId: 'dq-model:0.0.1', dryRun: true })
  t.same(again.json().value.aspectRowSummaries, [], 'nothing left under that registry')
})

t.test('a malformed registry id gets DataHub message and changes nothing', async (t) => {
  const { app } = await build(t)
  await propose(app, A, 'made by the model', ['dq-model', '0.0.1'])
  const before = await latest(app, A)
  for (const [payload, message] of [
    [{ registryId: 'dq-model' }, 'Failed to parse registry id: dq-model'],
    [{ dryRun: true }, 'Failed to parse registry id: null'],
  ] as const) {
    const res = await deleteAll(app, payload)
    t.equal(res.statusCode, 400, res.body)
    t.equal(res.json().message, message)
    t.equal(res.json().status, 400)
  }
  t.same(await latest(app, A), before, 'nothing changed')
})

t.test('deleteAll needs DELETE_ENTITY on every resource, as a run rollback', async (t) => {
  const check = restCheck(
    'POST',
    '/entities',
    '/entities',
    'deleteAll',
    { registryId: 'x:1' },
    'urn:li:corpuser:bob',
  )
  t.same(check, {
    requirements: [{ anyOf: ['DELETE_ENTITY'] }],
    message: 'User is unauthorized to delete entities.',
  })
})
