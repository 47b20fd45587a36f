import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildClientSchema, getIntrospectionQuery, OperationTypeNode, print, validate } from 'graphql'
import t from 'tap'
import type { Json } from '../helpers/build.js'
import { buildEntityPages, gql, INSTANCE, PRODUCT, SALES } from '../helpers/entity-pages-data.js'
import { GOLDEN_DIR, loadExample, toIngestCall } from '../helpers/examples.js'
import { operationVariables } from '../helpers/operation-variables.js'
import { loadWebUiOperations } from '../helpers/web-ui-operations.js'

/**
 * Runs every query of DataHub's web UI (test/fixtures/datahub-web-graphql) against the catalog
 * holding DataHub's example data, with variables built from each query's variable definitions,
 * and counts the queries answered without errors.
 */

const GOLDEN = [
  'airbyte__airbyte_mces_golden.json',
  'csv-enricher__csv_enricher_golden.json',
  'trino__trino_mces_golden.json',
  'business-glossary__glossary_events_golden.json',
]

/** The first urn of each entity type in the loaded data, keyed by the lower-cased type. */
function urnsByType(): Map<string, string> {
  const records = [
    ...loadExample('bootstrap'),
    ...GOLDEN.flatMap((f) => JSON.parse(readFileSync(join(GOLDEN_DIR, f), 'utf8')) as Json[]),
  ]
  const urns = [
    ...records.map((r) => toIngestCall(r).urn),
    SALES,
    PRODUCT,
    'urn:li:dataPlatform:hive',
    'urn:li:dataHubConnection:none',
    'urn:li:businessAttribute:none',
  ]
  const byType = new Map<string, string>()
  for (const urn of urns) {
    const type = urn.split(':')[2]?.toLowerCase()
    if (type && !byType.has(type)) byType.set(type, urn)
  }
  return byType
}

t.test("the web UI's queries run on DataHub's example data", async (t) => {
  const app = await buildEntityPages(t)
  const { operations, documentOf } = loadWebUiOperations()
  const introspection = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: { query: getIntrospectionQuery({ inputValueDeprecation: true }) },
  })
  const schema = buildClientSchema(JSON.parse(introspection.body).data)
  const urns = urnsByType()

  const queries = operations.filter((op) => op.node.operation === OperationTypeNode.QUERY)
  // A query DataHub's own schema rejects is not run (see graphql-web-ui-operations.test.ts).
  const valid = queries.filter((op) => validate(schema, documentOf(op.node)).length === 0)
  const answered: string[] = []
  const errors = new Map<string, string[]>()
  for (const op of valid) {
    const variables = operationVariables(schema, op.node, urns)
    const res = await app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: print(documentOf(op.node)), variables },
    })
    const body = JSON.parse(res.body)
    if (res.statusCode === 200 && !body.errors) {
      answered.push(op.name)
      continue
    }
    for (const e of body.errors ?? [{ message: `status ${res.statusCode}` }]) {
      const message = String(e.message).replace(/urn:li:[^\s'"]+/g, '<urn>')
      errors.set(message, [...(errors.get(message) ?? []), `${op.name} ${e.path?.join('.') ?? ''}`])
    }
  }

  const ranked = [...errors].sort((a, b) => b[1].length - a[1].length)
  for (const [message, where] of ranked) t.comment(`${where.length}x ${message}\n    ${where.join('\n    ')}`)
  t.comment(
    `${answered.length} of ${valid.length} valid queries (${queries.length} in all) answered without errors`,
  )
  t.equal(queries.length, 32, 'queries')
  t.equal(valid.length, 31, 'queries validating')
  t.equal(answered.length, 29, 'queries answered without errors')
  // The rest fail as they do on DataHub: getAccessToken is asked for another user than the
  // caller, and getHighlights has no data fetcher with analytics disabled.
  t.same(
    [...errors.keys()].sort(),
    [
      "The field at path '/getHighlights' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.  The graphql specification requires that the parent field be set to null, or if that is non nullable that it bubble up null to its parent and so on. The non-nullable type is '[Highlight!]' within parent type 'Query'",
      'Unauthorized to perform this action. Please contact your DataHub administrator.',
    ],
    'the errors of the others',
  )

  t.test('a data platform instance is an entity (browseV2 groups, entity pages)', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { entity(urn: $u) { urn type ... on DataPlatformInstance {
        platform { urn name } instanceId properties { name } ownership { owners { associatedUrn } } } } }`,
      { u: INSTANCE },
    )
    t.same(data.entity, {
      urn: INSTANCE,
      type: 'DATA_PLATFORM_INSTANCE',
      platform: { urn: 'urn:li:dataPlatform:airbyte', name: 'airbyte' },
      instanceId: 'test-instance',
      properties: null,
      ownership: null,
    })
  })
})
