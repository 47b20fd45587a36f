import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { adminWrite, gql, post, upsert } from '../helpers/actors.js'
import { build, ingestRecord, type Json } from '../helpers/build.js'
import { GOLDEN_DIR } from '../helpers/examples.js'

/** GraphQL `getSchemaBlame`, `getSchemaVersionList` (the schema tab) and the glossary page's root queries. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,gql_schema_history,PROD)'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const errorsOf = (body: Json): string[] => (body.errors ?? []).map((e: { message: string }) => e.message)

const field = (fieldPath: string, nativeDataType: string) => ({
  fieldPath,
  nativeDataType,
  type: { type: { 'com.linkedin.schema.StringType': {} } },
})
const schemaOf = (...fields: unknown[]) => ({
  schemaName: 't',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields,
})

const BLAME = `query($input: GetSchemaBlameInput!) { getSchemaBlame(input: $input) {
  version { semanticVersion semanticVersionTimestamp versionStamp }
  schemaFieldBlameList { fieldPath schemaFieldChange { lastSemanticVersion changeType lastSchemaFieldChange versionStamp } } } }`
const VERSIONS = `query($input: GetSchemaVersionListInput!) { getSchemaVersionList(input: $input) {
  latestVersion { semanticVersion versionStamp } version { semanticVersion } semanticVersionList { semanticVersion } } }`

t.test("getSchemaBlame and getSchemaVersionList follow the schema's versions", async (t) => {
  const built = await build(t, { auth: true })
  for (const schema of [
    schemaOf(field('id', 'int'), field('name', 'varchar')),
    schemaOf(field('id', 'bigint'), field('email', 'varchar')),
    schemaOf(field('id', 'bigint'), field('email', 'varchar'), field('zip', 'varchar')),
  ]) {
    await adminWrite(built, DS, 'schemaMetadata', schema)
    await sleep(5)
  }
  const blame = (version?: string) =>
    gql(built.app, built.adminToken, BLAME, { input: { datasetUrn: DS, ...(version ? { version } : {}) } })
  const latest = (await blame()).body.data.getSchemaBlame
  t.equal(latest.version.semanticVersion, '1.1.0', 'an added field is a minor change, a changed type major')
  t.match(latest.version.versionStamp, /^schemaMetadata:\d+$/)
  t.same(
    latest.schemaFieldBlameList.map(
      (b: { fieldPath: string; schemaFieldChange: { lastSchemaFieldChange: string } }) =>
        `${b.fieldPath}: ${b.schemaFieldChange.lastSchemaFieldChange}`,
    ),
    ['zip: Added in v1.1.0', 'email: Added in v1.0.0', 'id: Modified in v1.0.0'],
    "each field's last change; the removed field is left out",
  )
  const first = (await blame('0.0.0')).body.data.getSchemaBlame
  t.same(
    first.schemaFieldBlameList.map((b: { fieldPath: string; schemaFieldChange: { changeType: string } }) => [
      b.fieldPath,
      b.schemaFieldChange.changeType,
    ]),
    [
      ['id', 'ADD'],
      ['name', 'ADD'],
    ],
    'at an older version',
  )
  t.equal(first.version.semanticVersion, '0.0.0')

  const versions = await gql(built.app, built.adminToken, VERSIONS, { input: { datasetUrn: DS } })
  t.same(versions.body.data.getSchemaVersionList, {
    latestVersion: { semanticVersion: '1.1.0', versionStamp: latest.version.versionStamp },
    version: null,
    semanticVersionList: [
      { semanticVersion: '1.1.0' },
      { semanticVersion: '1.0.0' },
      { semanticVersion: '0.0.0' },
    ],
  })

  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,no_schema,PROD)'
  const none = await gql(built.app, built.adminToken, VERSIONS, { input: { datasetUrn: other } })
  t.same(none.body, { data: { getSchemaVersionList: null } }, 'no schema history: null, as DataHub')
  const empty = await gql(built.app, built.adminToken, BLAME, { input: { datasetUrn: other } })
  t.same(empty.body, { data: { getSchemaBlame: { version: null, schemaFieldBlameList: null } } })
  const bad = await gql(built.app, built.adminToken, BLAME, { input: { datasetUrn: 'nope' } })
  t.same(bad.body, { data: { getSchemaBlame: null } }, 'a malformed urn answers null, as DataHub')
})

const ROOTS = `query($input: GetRootGlossaryEntitiesInput!) {
  getRootGlossaryTerms(input: $input) { start count total terms { urn type name } }
  getRootGlossaryNodes(input: $input) { start count total nodes { urn type } } }`

t.test("the glossary's root terms and nodes are those without a parent node", async (t) => {
  const built = await build(t)
  const golden = JSON.parse(
    readFileSync(join(GOLDEN_DIR, 'business-glossary__glossary_events_golden.json'), 'utf8'),
  ) as Record<string, unknown>[]
  for (const record of golden) t.equal((await ingestRecord(built.app, record)).res.statusCode, 200)
  const loose = 'urn:li:glossaryTerm:Loose'
  const written = await post(
    built.app,
    '/aspects?action=ingestProposal',
    undefined,
    upsert(loose, 'glossaryTermInfo', { name: 'Loose', definition: 'no parent', termSource: 'INTERNAL' }),
  )
  t.equal(written.status, 200)

  const all = await gql(built.app, undefined, ROOTS, { input: { start: 0, count: 10 } })
  t.same(errorsOf(all.body), [])
  t.same(all.body.data.getRootGlossaryTerms, {
    start: 0,
    count: 1,
    total: 1,
    terms: [{ urn: loose, type: 'GLOSSARY_TERM', name: 'Loose' }],
  })
  const nodes = all.body.data.getRootGlossaryNodes
  t.same(
    { ...nodes, nodes: nodes.nodes.map((n: { urn: string }) => n.urn).sort() },
    {
      start: 0,
      count: 4,
      total: 4,
      nodes: ['Classification', 'Clients-And-Accounts', 'KPIs', 'Personal-Information'].map(
        (id) => `urn:li:glossaryNode:${id}`,
      ),
    },
    'the four top-level nodes; every golden term has a parent',
  )
  const page = await gql(built.app, undefined, ROOTS, { input: { start: 1, count: 2 } })
  const paged = page.body.data.getRootGlossaryNodes
  t.same([paged.start, paged.count, paged.total], [1, 2, 4], 'paged')
  t.same(
    paged.nodes.map((n: { urn: string }) => n.urn),
    nodes.nodes.slice(1, 3).map((n: { urn: string }) => n.urn),
    'the same order page by page',
  )
})
