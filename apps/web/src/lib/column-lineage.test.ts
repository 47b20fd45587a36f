import t from 'tap'
import { columnEdges, parseSchemaFieldUrn } from './column-lineage.js'

const LOGS = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)'
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)'
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`

t.test('parseSchemaFieldUrn splits at the last comma', async (t) => {
  t.same(parseSchemaFieldUrn(field(LOGS, 'event_data')), { dataset: LOGS, field: 'event_data' })
  t.equal(parseSchemaFieldUrn(LOGS), null, 'a dataset URN is no field')
  t.equal(parseSchemaFieldUrn('urn:li:schemaField:(x,)'), null, 'an empty field path')
})

t.test('columnEdges pairs every upstream field with every downstream field', async (t) => {
  const value = {
    upstreams: [{ dataset: LOGS, type: 'TRANSFORMED' }],
    fineGrainedLineages: [
      {
        upstreamType: 'FIELD_SET',
        upstreams: [field(LOGS, 'event_data'), field(LOGS, 'ts')],
        downstreamType: 'FIELD',
        downstreams: [field(USERS, 'user_name')],
      },
      {
        upstreamType: 'DATASET',
        upstreams: [LOGS],
        downstreamType: 'FIELD',
        downstreams: [field(USERS, 'id')],
      },
    ],
  }
  t.same(columnEdges(value), [
    { from: LOGS, fromField: 'event_data', to: USERS, toField: 'user_name' },
    { from: LOGS, fromField: 'ts', to: USERS, toField: 'user_name' },
  ])
  t.same(columnEdges({ upstreams: [] }), [], 'none without fineGrainedLineages')
  t.same(columnEdges(null), [])
})
