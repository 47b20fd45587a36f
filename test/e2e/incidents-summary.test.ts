/**
 * DataHub's IncidentsSummaryHook: writes of an incident's `incidentInfo`, however they come
 * (ingest, batch, PATCH, delete), keep the `incidentsSummary` of the entities it is raised on,
 * which health, search filters and incident counts read.
 */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, getJson, type Json, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,incidents.orders,PROD)'
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,incidents.customers,PROD)'
const CHART = 'urn:li:chart:(looker,incidents.chart)'
const ACTOR = 'urn:li:corpuser:jdoe'

const proposal = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
  entityType,
  entityUrn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
})

function info(entities: string[], state: 'ACTIVE' | 'RESOLVED', more: Json = {}): Json {
  return {
    type: 'OPERATIONAL',
    title: 'Late data',
    entities,
    status: { state, lastUpdated: { time: 2_000, actor: ACTOR } },
    created: { time: 1_000, actor: ACTOR },
    ...more,
  }
}

async function ingest(app: CatalogServer, ...proposals: Json[]) {
  const res =
    proposals.length === 1
      ? await postJson(app, '/aspects?action=ingestProposal', { proposal: proposals[0] })
      : await postJson(app, '/aspects?action=ingestProposalBatch', { proposals })
  if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${JSON.stringify(res.body)}`)
}

const raise = (
  app: CatalogServer,
  id: string,
  entities: string[],
  state: 'ACTIVE' | 'RESOLVED',
  more?: Json,
) => ingest(app, proposal('incident', `urn:li:incident:${id}`, 'incidentInfo', info(entities, state, more)))

async function summary(app: CatalogServer, urn: string): Promise<Json | undefined> {
  const res = await getJson(app, `/aspects/${enc(urn)}?aspect=incidentsSummary&version=0`)
  return res.status === 200 ? res.body.aspect['com.linkedin.common.IncidentsSummary'] : undefined
}

/** The datasets search finds with an active incident (DataHub's `hasActiveIncidents` filter). */
async function withActiveIncidents(app: CatalogServer): Promise<string[]> {
  const { body } = await postJson(app, '/entities?action=search', {
    entity: 'dataset',
    input: '*',
    start: 0,
    count: 10,
    filter: { or: [{ and: [{ field: 'hasActiveIncidents', value: 'true' }] }] },
  })
  return body.value.entities as string[]
}

const urnsOf = (details: Json[] | undefined) => (details ?? []).map((d: Json) => d.urn)

t.test('raising, resolving and re-linking an incident moves it between summaries', async (t) => {
  const { app } = await build(t)
  await ingest(app, proposal('dataset', DS, 'datasetProperties', { name: 'orders' }))
  await raise(app, 'late', [DS], 'ACTIVE', { priority: 1 })
  let s = await summary(app, DS)
  t.same(s.activeIncidentDetails, [
    { urn: 'urn:li:incident:late', type: 'OPERATIONAL', createdAt: 1_000, priority: 1 },
  ])
  t.same(s.resolvedIncidentDetails, [])
  t.same(await withActiveIncidents(app), [DS], 'search filters by it')

  await raise(app, 'late', [DS], 'RESOLVED', { priority: 1 })
  s = await summary(app, DS)
  t.same(s.activeIncidentDetails, [], 'no longer active')
  t.same(await withActiveIncidents(app), [])
  t.same(s.resolvedIncidentDetails, [
    { urn: 'urn:li:incident:late', type: 'OPERATIONAL', createdAt: 1_000, priority: 1, resolvedAt: 2_000 },
  ])

  // A custom incident is listed by its custom type; re-linked, it leaves the entity it left.
  await raise(app, 'late', [OTHER, CHART], 'ACTIVE', { type: 'CUSTOM', customType: 'Late load' })
  s = await summary(app, DS)
  t.same(urnsOf(s.activeIncidentDetails), [])
  t.same(urnsOf(s.resolvedIncidentDetails), [], 'removed from the entity it no longer names')
  for (const urn of [OTHER, CHART]) {
    const other = await summary(app, urn)
    t.same(other.activeIncidentDetails, [
      { urn: 'urn:li:incident:late', type: 'Late load', createdAt: 1_000 },
    ])
  }
  // The summary write created the entities it names, as DataHub's does.
  t.equal((await getJson(app, `/aspects/${enc(OTHER)}?aspect=datasetKey&version=0`)).status, 200)

  // The summary's edges point at the incident.
  const rel = await getJson(
    app,
    `/relationships?urn=${enc('urn:li:incident:late')}&direction=INCOMING&types=List(ActiveIncidents)`,
  )
  t.same(rel.body.relationships.map((r: Json) => r.entity).sort(), [CHART, OTHER].sort())
})

t.test('one batch: two incidents on one dataset, and the dataset created in the same batch', async (t) => {
  const { app } = await build(t)
  await ingest(
    app,
    proposal('dataset', DS, 'datasetProperties', { name: 'orders' }),
    proposal('incident', 'urn:li:incident:a', 'incidentInfo', info([DS], 'ACTIVE')),
    proposal('incident', 'urn:li:incident:b', 'incidentInfo', info([DS], 'RESOLVED')),
  )
  const s = await summary(app, DS)
  t.same(urnsOf(s.activeIncidentDetails), ['urn:li:incident:a'])
  t.same(urnsOf(s.resolvedIncidentDetails), ['urn:li:incident:b'])
  t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=datasetProperties&version=0`)).status, 200)
})

t.test('a PATCH of an incident is reflected once written', async (t) => {
  const { app } = await build(t)
  await raise(app, 'p', [DS], 'ACTIVE')
  await ingest(app, {
    entityType: 'incident',
    entityUrn: 'urn:li:incident:p',
    changeType: 'PATCH',
    aspectName: 'incidentInfo',
    aspect: {
      value: JSON.stringify([{ op: 'add', path: '/status/state', value: 'RESOLVED' }]),
      contentType: 'application/json-patch+json',
    },
  })
  const s = await summary(app, DS)
  t.same(urnsOf(s.activeIncidentDetails), [])
  t.same(urnsOf(s.resolvedIncidentDetails), ['urn:li:incident:p'])
})

t.test('deleting an incident removes it from every summary listing it', async (t) => {
  const { app } = await build(t)
  await raise(app, 'gone', [DS, OTHER], 'ACTIVE')
  await raise(app, 'stays', [DS], 'ACTIVE')
  await ingest(app, {
    entityType: 'incident',
    entityUrn: 'urn:li:incident:gone',
    changeType: 'DELETE',
    aspectName: 'incidentKey',
  })
  t.same(urnsOf((await summary(app, DS)).activeIncidentDetails), ['urn:li:incident:stays'])
  t.same(urnsOf((await summary(app, OTHER)).activeIncidentDetails), [])
})

t.test('legacy URN lists lose the incident too, and each list keeps the newest 100', async (t) => {
  const { app } = await build(t)
  await ingest(
    app,
    proposal('dataset', DS, 'incidentsSummary', {
      activeIncidents: ['urn:li:incident:old', 'urn:li:incident:kept'],
      resolvedIncidents: [],
    }),
  )
  await raise(app, 'old', [DS], 'RESOLVED')
  let s = await summary(app, DS)
  t.same(s.activeIncidents, ['urn:li:incident:kept'])
  t.same(urnsOf(s.resolvedIncidentDetails), ['urn:li:incident:old'])

  const many = Array.from({ length: 101 }, (_, i) =>
    proposal(
      'incident',
      `urn:li:incident:n${i}`,
      'incidentInfo',
      info([DS], 'ACTIVE', { created: { time: 10_000 - i, actor: ACTOR } }),
    ),
  )
  await ingest(app, ...many)
  s = await summary(app, DS)
  t.equal(s.activeIncidentDetails.length, 100)
  // As DataHub: the incident written is always listed; the oldest of those listed before goes.
  const listed = urnsOf(s.activeIncidentDetails)
  t.ok(listed.includes('urn:li:incident:n100'), 'the last written stays')
  t.notOk(listed.includes('urn:li:incident:n99'), 'the oldest listed before went')
})

t.test('a refused batch writes no summary', async (t) => {
  const { app } = await build(t)
  const res = await postJson(app, '/aspects?action=ingestProposalBatch', {
    proposals: [
      proposal('incident', 'urn:li:incident:x', 'incidentInfo', info([DS], 'ACTIVE')),
      proposal('dataset', DS, 'datasetProperties', { name: 7 }),
    ],
  })
  t.equal(res.status, 422)
  t.equal(await summary(app, DS), undefined)
})

t.test('rolling back the run that raised an incident takes it out of the summaries', async (t) => {
  const { app } = await build(t)
  const raised = {
    ...proposal('incident', 'urn:li:incident:from-run', 'incidentInfo', info([DS, OTHER], 'ACTIVE')),
    systemMetadata: { runId: 'incident-run-1', lastObserved: 1 },
  }
  await ingest(app, raised)
  t.same(urnsOf((await summary(app, DS)).activeIncidentDetails), ['urn:li:incident:from-run'])
  const rollback = await postJson(app, '/runs?action=rollback', {
    runId: 'incident-run-1',
    dryRun: false,
    hardDelete: true,
  })
  t.equal(rollback.status, 200)
  t.same(urnsOf((await summary(app, DS)).activeIncidentDetails), [], 'the deleted incident is gone')
  t.same(urnsOf((await summary(app, OTHER)).activeIncidentDetails), [])
})
