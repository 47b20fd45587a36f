import t from 'tap'
import { build, getJson, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,timelineDataset,PROD)'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const upsert = (aspectName: string, value: unknown) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  },
})
const field = (fieldPath: string, nativeDataType: string) => ({
  fieldPath,
  nativeDataType,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
})
const schema = (...fields: unknown[]) => ({
  schemaName: 't',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
})
interface Ev {
  category: string
  operation: string
  description: string
  semVerChange: string
  modifier: string
  parameters: unknown
}
interface Tx {
  timestamp: number
  actor: string
  semVer: string
  semVerChange: string
  changeEvents: Ev[]
  rawDiff: Array<{ op: string; path: string }> | null
  versionStamp: string
}
const owners = (...o: [string, string][]) => ({ owners: o.map(([owner, type]) => ({ owner, type })) })

t.test('timeline of a dataset over ingestProposal writes', async (t) => {
  const { app } = await build(t)
  const steps: Array<[string, unknown]> = [
    ['globalTags', { tags: [{ tag: 'urn:li:tag:Legacy' }] }],
    ['ownership', owners(['urn:li:corpuser:jdoe', 'DATAOWNER'])],
    ['editableDatasetProperties', { description: 'first' }],
    ['schemaMetadata', schema(field('id', 'int'), field('name', 'varchar'))],
    ['globalTags', { tags: [{ tag: 'urn:li:tag:NeedsDocs' }] }],
    ['ownership', owners(['urn:li:corpuser:jdoe', 'DEVELOPER'])],
    ['editableDatasetProperties', { description: 'second' }],
    ['schemaMetadata', schema(field('id', 'bigint'), field('email', 'varchar'))],
    ['domains', { domains: ['urn:li:domain:sales'] }],
    ['deprecation', { deprecated: true, note: 'old', actor: 'urn:li:corpuser:jdoe' }],
  ]
  for (const [aspect, value] of steps) {
    t.equal(
      (await postJson(app, '/aspects?action=ingestProposal', upsert(aspect, value))).status,
      200,
      aspect,
    )
    await sleep(3)
  }
  const categories = 'TAG,GLOSSARY_TERM,OWNER,DOCUMENTATION,TECHNICAL_SCHEMA,DOMAIN,LIFECYCLE'
  const res = await getJson(app, `/openapi/v2/timeline/v1/${enc(DS)}?categories=${categories}&startTime=0`)
  t.equal(res.status, 200)
  const txs = res.body as Tx[]
  t.equal(txs.length, 10, 'one transaction per write')
  t.same(
    txs.map((x) => x.semVer),
    [
      '0.0.0-computed',
      '0.1.0-computed',
      '0.2.0-computed',
      '0.3.0-computed',
      '0.4.0-computed',
      '0.4.1-computed',
      '0.5.0-computed',
      '1.0.0-computed',
      '1.1.0-computed',
      '1.1.0-computed',
    ],
  )
  t.ok(
    txs.every((x, i) => i === 0 || x.timestamp > (txs[i - 1]?.timestamp ?? 0)),
    'oldest first',
  )
  t.equal(txs[0]?.actor, 'urn:li:corpuser:datahub')
  t.same(
    txs[4]?.changeEvents.map((e: Ev) => [e.category, e.operation, e.description]),
    [
      ['TAG', 'REMOVE', `Tag 'Legacy' removed from entity '${DS}'.`],
      ['TAG', 'ADD', `Tag 'NeedsDocs' added to entity '${DS}'.`],
    ],
  )
  t.same(
    txs[5]?.changeEvents[0]?.description,
    `'jdoe''s ownership type changed from 'DATAOWNER' to 'DEVELOPER' for '${DS}'.`,
  )
  t.same(
    txs[6]?.changeEvents[0]?.description,
    `Documentation of '${DS}' has been changed from 'first' to 'second'.`,
  )
  t.same(
    txs[7]?.changeEvents.map((e: Ev) => [e.operation, e.semVerChange, e.modifier]),
    [
      ['ADD', 'MINOR', `urn:li:schemaField:(${DS},email)`],
      ['MODIFY', 'MAJOR', `urn:li:schemaField:(${DS},id)`],
      ['REMOVE', 'MAJOR', `urn:li:schemaField:(${DS},name)`],
    ],
  )
  t.equal(txs[7]?.semVerChange, 'MAJOR')
  t.same(txs[8]?.changeEvents[0]?.description, `Domain 'sales' added to entity '${DS}'.`)
  t.same(txs[9]?.changeEvents[0]?.parameters, { status: 'DEPRECATED' })
  t.equal(txs[0]?.rawDiff, null)
  t.match(txs[7]?.versionStamp, /schemaMetadata:0/)

  // The `datahub timeline` CLI's exact request: the v1 path, raw=True, no startTime (a week back).
  const cli = await getJson(app, `/openapi/timeline/v1/${enc(DS)}?categories=TECHNICAL_SCHEMA&raw=True`)
  t.equal(cli.status, 200)
  t.equal(cli.body.length, 2)
  t.same(
    cli.body[1].rawDiff.find((op: { path: string }) => op.path === '/fields/0/nativeDataType'),
    {
      op: 'replace',
      path: '/fields/0/nativeDataType',
      value: 'bigint',
    },
  )

  const window = await getJson(
    app,
    `/openapi/v2/timeline/v1/${enc(DS)}?categories=TAG&startTime=${txs[3]?.timestamp}&endTime=${txs[8]?.timestamp}`,
  )
  t.same(
    window.body.map((x: Tx) => x.changeEvents.length),
    [2],
    'the window diffs its first write against the version before it',
  )

  const none = await getJson(
    app,
    `/openapi/v2/timeline/v1/${enc('urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)')}?categories=TAG`,
  )
  t.same([none.status, none.body], [200, []])

  const bad = await getJson(app, `/openapi/v2/timeline/v1/${enc(DS)}?categories=NOPE`)
  t.equal(bad.status, 400)
  t.match(bad.body, { status: 400, message: /ChangeCategory\] for value \[NOPE\]/ })
  const badUrn = await getJson(app, '/openapi/v2/timeline/v1/not-a-urn?categories=TAG')
  t.same([badUrn.status, badUrn.body.status], [400, 400])
  const missing = await getJson(app, `/openapi/v2/timeline/v1/${enc(DS)}`)
  t.equal(missing.status, 400)
})
