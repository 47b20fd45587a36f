import t from 'tap'
import { build, ingestGolden, type Json } from '../helpers/build.js'
import { gql } from '../helpers/mutation-kit.js'

/**
 * Runs (data process instances) over GraphQL, as DataHub's data job page lists them: the
 * Fivetran golden file's sync runs of a connector's job, each with its run events.
 */

const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(fivetran,calendar_elected,PROD),calendar_elected)'
const RUN = 'urn:li:dataProcessInstance:d8f100271d2dc3fa905717f82d083c8d'

const RUNS = `query($urn: String!, $start: Int, $count: Int) { dataJob(urn: $urn) { runs(start: $start, count: $count) {
  start count total runs { urn type name created { time actor } properties { name created { time } }
    parentTemplate { urn } state(limit: 5) { status attempt timestampMillis result { resultType nativeResultType } } } } } }`

t.test("a job's runs, newest first, each with its run events", async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'fivetran__fivetran_snowflake_golden.json')
  const answer = await gql(app, RUNS, { urn: JOB })
  t.notOk(answer.errors, 'no errors')
  const page = answer.data.dataJob.runs
  t.match(page, { start: 0, count: 20, total: 3 })
  const created = page.runs.map((r: Json) => r.created.time)
  t.same(
    created,
    [...created].sort((a: number, b: number) => b - a),
    'newest first',
  )
  const failed = page.runs.find((r: Json) => r.urn === RUN)
  t.same(failed, {
    urn: RUN,
    type: 'DATA_PROCESS_INSTANCE',
    name: '63c2fc85-600b-455f-9ba0-f576522465be',
    created: { time: 1696323955000, actor: 'urn:li:corpuser:datahub' },
    properties: { name: '63c2fc85-600b-455f-9ba0-f576522465be', created: { time: 1696323955000 } },
    parentTemplate: { urn: JOB },
    state: [
      {
        status: 'COMPLETE',
        attempt: null,
        timestampMillis: 1696323990000,
        result: { resultType: 'FAILURE', nativeResultType: 'fivetran' },
      },
      { status: 'STARTED', attempt: null, timestampMillis: 1696323955000, result: null },
    ],
  })
  const second = (await gql(app, RUNS, { urn: JOB, start: 1, count: 1 })).data.dataJob.runs
  t.match(second, { start: 1, total: 3 })
  t.same(
    second.runs.map((r: Json) => r.urn),
    [page.runs[1].urn],
    'paged',
  )
  const root = await gql(app, `{ dataProcessInstance(urn: "${RUN}") { urn parentTemplate { urn } } }`)
  t.same(root.data.dataProcessInstance, { urn: RUN, parentTemplate: { urn: JOB } }, 'the root query')
  const other = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,none,PROD),none)'
  t.match(
    (await gql(app, RUNS, { urn: other })).data.dataJob.runs,
    { total: 0, runs: [] },
    'a job without runs',
  )
})
