import t from 'tap'
import { adminWrite, aspectOf, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, type Json } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, snapshot } from '../helpers/mutation-kit.js'

/**
 * Incidents over GraphQL, as DataHub's web UI and its smoke test (`tests/incidents`) use them:
 * `raiseIncident`, `updateIncidentStatus`, `updateIncident`, an entity's `incidents` and the
 * incident itself, with the entity's `health` following (through its incidents summary).
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,incidents-sample,PROD)'
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:kafka,incidents-other,PROD)'
const USER = 'urn:li:corpuser:jdoe'

const RAISE = 'mutation($input: RaiseIncidentInput!) { raiseIncident(input: $input) }'
const STATUS = `mutation($urn: String!, $input: IncidentStatusInput!) { updateIncidentStatus(urn: $urn, input: $input) }`
const UPDATE = `mutation($urn: String!, $input: UpdateIncidentInput!) { updateIncident(urn: $urn, input: $input) }`

const INCIDENT_FIELDS = `urn type incidentType customType title description priority startedAt
  status { state stage message lastUpdated { time actor } }
  incidentStatus { state }
  source { type source { urn } }
  entity { urn type }
  assignees { __typename ... on CorpUser { urn } ... on CorpGroup { urn } }
  created { time actor }`

const INCIDENTS = `query($urn: String!, $state: IncidentState, $stage: IncidentStage, $priority: IncidentPriority, $assignees: [String!], $start: Int, $count: Int) {
  dataset(urn: $urn) {
    incidents(state: $state, stage: $stage, priority: $priority, assigneeUrns: $assignees, start: $start, count: $count) {
      start count total incidents { ${INCIDENT_FIELDS} } }
    health { type status message causes activeIncidentHealthDetails { latestIncidentUrn latestIncidentTitle } } } }`

async function raise(app: Parameters<typeof gql>[0], input: Json): Promise<string> {
  const answer = await gql(app, RAISE, { input })
  if (answer.errors) throw new Error(JSON.stringify(answer.errors))
  return answer.data.raiseIncident
}

t.test('raise, list, update and resolve an incident on a dataset', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'incidents-sample' })
  const before = Date.now()
  const urn = await raise(app, {
    type: 'FRESHNESS',
    title: 'Stale data',
    description: 'The table has not been updated for 2 days',
    resourceUrn: DS,
    priority: 'HIGH',
    startedAt: 1_700_000_000_000,
    assigneeUrns: [USER],
  })
  t.match(urn, /^urn:li:incident:[0-9a-f-]{36}$/, 'a random incident id')

  let answer = await gql(app, INCIDENTS, { urn: DS })
  t.notOk(answer.errors, 'no errors')
  const page = answer.data.dataset.incidents
  t.match(page, { start: 0, count: 20, total: 1 })
  const incident = page.incidents[0]
  t.match(incident, {
    urn,
    type: 'INCIDENT',
    incidentType: 'FRESHNESS',
    customType: null,
    title: 'Stale data',
    description: 'The table has not been updated for 2 days',
    priority: 'HIGH',
    startedAt: 1_700_000_000_000,
    status: {
      state: 'ACTIVE',
      stage: null,
      message: null,
      lastUpdated: { actor: 'urn:li:corpuser:datahub' },
    },
    incidentStatus: { state: 'ACTIVE' },
    source: { type: 'MANUAL', source: null },
    entity: { urn: DS, type: 'DATASET' },
    assignees: [{ __typename: 'CorpUser', urn: USER }],
    created: { actor: 'urn:li:corpuser:datahub' },
  })
  t.ok(incident.created.time >= before, 'created now')
  t.same(answer.data.dataset.health, [
    {
      type: 'INCIDENTS',
      status: 'FAIL',
      message: '1 active incident',
      causes: ['ACTIVE_INCIDENTS'],
      activeIncidentHealthDetails: { latestIncidentUrn: urn, latestIncidentTitle: 'Stale data' },
    },
  ])

  // The stored priority is DataHub's number (HIGH is 1).
  const stored = await app.inject({ method: 'GET', url: `/entitiesV2/${encodeURIComponent(urn)}` })
  t.equal(JSON.parse(stored.body).aspects.incidentInfo.value.priority, 1)

  // Filters: state, stage, priority, assignee.
  const count = async (variables: Json) =>
    (await gql(app, INCIDENTS, { urn: DS, ...variables })).data.dataset.incidents.total
  t.equal(await count({ state: 'ACTIVE' }), 1)
  t.equal(await count({ state: 'RESOLVED' }), 0)
  t.equal(await count({ priority: 'HIGH' }), 1)
  t.equal(await count({ priority: 'LOW' }), 0)
  t.equal(await count({ assignees: [USER] }), 1)
  t.equal(await count({ assignees: ['urn:li:corpuser:other'] }), 0)

  const updated = await gql(app, STATUS, {
    urn,
    input: { state: 'ACTIVE', stage: 'INVESTIGATION', message: 'looking' },
  })
  t.same(updated.data, { updateIncidentStatus: true })
  t.equal(await count({ stage: 'INVESTIGATION' }), 1)

  const edit = await gql(app, UPDATE, {
    urn,
    input: { title: 'Stale orders', priority: 'CRITICAL', resourceUrns: [DS, OTHER] },
  })
  t.same(edit.data, { updateIncident: true })
  answer = await gql(app, `{ entity(urn: "${urn}") { ... on Incident { ${INCIDENT_FIELDS} } } }`)
  t.notOk(answer.errors, 'the incident by urn')
  t.match(answer.data.entity, {
    title: 'Stale orders',
    description: 'The table has not been updated for 2 days',
    priority: 'CRITICAL',
    status: { state: 'ACTIVE', stage: 'INVESTIGATION', message: 'looking' },
    assignees: [{ urn: USER }],
  })
  t.equal((await gql(app, INCIDENTS, { urn: OTHER })).data.dataset.incidents.total, 1, 'now on the other too')

  const resolved = await gql(app, STATUS, {
    urn,
    input: { state: 'RESOLVED', stage: 'FIXED', message: 'done' },
  })
  t.same(resolved.data, { updateIncidentStatus: true })
  answer = await gql(app, INCIDENTS, { urn: DS, state: 'RESOLVED' })
  t.match(answer.data.dataset.incidents.incidents, [{ urn, status: { state: 'RESOLVED', stage: 'FIXED' } }])
  t.same(answer.data.dataset.health, [], 'healthy again')
  const summary = (await restAspect(app, DS, 'incidentsSummary')) as Json
  t.same(
    summary.resolvedIncidentDetails.map((d: Json) => d.urn),
    [urn],
  )
})

async function restAspect(app: Parameters<typeof gql>[0], urn: string, aspect: string): Promise<unknown> {
  const res = await app.inject({
    method: 'GET',
    url: `/entitiesV2/${encodeURIComponent(urn)}?aspects=List(${aspect})`,
  })
  return JSON.parse(res.body).aspects?.[aspect]?.value
}

t.test('incidents on several resources, custom types, newest first and paged', async (t) => {
  const { app } = await build(t)
  const first = await raise(app, { type: 'CUSTOM', customType: 'Late load', resourceUrns: [DS, OTHER] })
  await new Promise((resolve) => setTimeout(resolve, 5))
  const second = await raise(app, { type: 'VOLUME', resourceUrn: DS, status: { state: 'RESOLVED' } })
  const answer = await gql(app, INCIDENTS, { urn: DS })
  t.same(
    answer.data.dataset.incidents.incidents.map((i: Json) => i.urn),
    [second, first],
    'newest first',
  )
  t.match(answer.data.dataset.incidents.incidents[1], { incidentType: 'CUSTOM', customType: 'Late load' })
  const paged = await gql(app, INCIDENTS, { urn: DS, start: 1, count: 1 })
  t.match(paged.data.dataset.incidents, { start: 1, count: 1, total: 2 })
  t.same(
    paged.data.dataset.incidents.incidents.map((i: Json) => i.urn),
    [first],
  )
  // Charts, dashboards, flows and jobs have incidents too.
  const chart = 'urn:li:chart:(looker,incidents.chart)'
  const onChart = await raise(app, { type: 'OPERATIONAL', resourceUrn: chart })
  const answerChart = await gql(app, `{ chart(urn: "${chart}") { incidents { total incidents { urn } } } }`)
  t.same(answerChart.data.chart.incidents, { total: 1, incidents: [{ urn: onChart }] })
})

t.test('bad input gets a clear error and writes nothing', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'incidents-sample' })
  const before = await snapshot(app, DS)
  const cases: Array<[Json, string]> = [
    [{ type: 'OPERATIONAL' }, 'At least 1 resource urn must be defined to raise an incident.'],
    [
      { type: 'CUSTOM', resourceUrn: DS },
      'Failed to raise incident: customType is required when type is CUSTOM',
    ],
    [{ type: 'OPERATIONAL', resourceUrn: 'not-a-urn' }, 'not-a-urn'],
    [{ type: 'OPERATIONAL', resourceUrn: DS, assigneeUrns: [DS] }, `Invalid assignee urn: ${DS}`],
  ]
  for (const [input, message] of cases) {
    const answer = await gql(app, RAISE, { input })
    const error = badRequest(answer, 'raiseIncident')
    t.match(error, { code: 400, type: 'BAD_REQUEST' }, JSON.stringify(input))
    t.match(error.message, message)
  }
  t.equal(await snapshot(app, DS), before, 'the dataset untouched')
  t.equal((await gql(app, INCIDENTS, { urn: DS })).data.dataset.incidents.total, 0, 'no incident written')

  const missing = await gql(app, STATUS, { urn: 'urn:li:incident:nope', input: { state: 'RESOLVED' } })
  t.match(missing.errors?.[0], {
    message: 'Failed to update incident. Incident does not exist.',
    extensions: { code: 404 },
  })
  const notIncident = await gql(app, UPDATE, { urn: DS, input: { title: 'x' } })
  t.match(badRequest(notIncident, 'updateIncident'), { code: 400 })
  const urn = await raise(app, { type: 'OPERATIONAL', resourceUrn: DS })
  const empty = await gql(app, UPDATE, { urn, input: { resourceUrns: [] } })
  t.match(badRequest(empty, 'updateIncident'), {
    message: 'resourceUrns cannot be empty if provided',
    code: 400,
  })
  const enumCheck = await gql(app, STATUS, { urn, input: { state: 'CLOSED' } })
  t.ok(enumCheck.errors?.length, 'an unknown state is refused by the schema')
})

t.test('incident edits need EDIT_ENTITY_INCIDENTS on the entities', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'incidents-sample' })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const refused = await gqlAs(built.app, reader, RAISE, { input: { type: 'OPERATIONAL', resourceUrn: DS } })
  t.equal(refused.body.errors?.[0]?.extensions?.code, 403, 'raise refused')
  t.equal(await aspectOf(built, DS, 'incidentsSummary'), undefined, 'nothing written')
  const raised = await gqlAs(built.app, built.adminToken as string, RAISE, {
    input: { type: 'OPERATIONAL', resourceUrn: DS },
  })
  const urn = raised.body.data.raiseIncident
  t.match(urn, /^urn:li:incident:/, 'the admin may')
  const status = await gqlAs(built.app, reader, STATUS, { urn, input: { state: 'RESOLVED' } })
  t.equal(status.body.errors?.[0]?.extensions?.code, 403, 'status refused')
  const update = await gqlAs(built.app, reader, UPDATE, { urn, input: { title: 'mine' } })
  t.equal(update.body.errors?.[0]?.extensions?.code, 403, 'update refused')
  t.match(await aspectOf(built, urn, 'incidentInfo'), { status: { state: 'ACTIVE' } }, 'unchanged')
  const canEdit = await gqlAs(
    built.app,
    reader,
    `{ dataset(urn: "${DS}") { privileges { canEditIncidents } } }`,
  )
  t.same(canEdit.body.data.dataset.privileges, { canEditIncidents: false })
  const adminCan = await gqlAs(
    built.app,
    built.adminToken as string,
    `{ dataset(urn: "${DS}") { privileges { canEditIncidents } } }`,
  )
  t.same(adminCan.body.data.dataset.privileges, { canEditIncidents: true })
})
