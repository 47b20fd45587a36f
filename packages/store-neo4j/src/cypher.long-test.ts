import { createRequire } from 'node:module'
import { InvalidInputError } from '@catalog/core'
import type * as CypherLanguage from '@neo4j-cypher/language-support'
import t from 'tap'
import * as admin from './cypher-admin.js'
import * as aspects from './cypher-aspects.js'
import {
  checkRelationshipType,
  DELETE_EDGES_OF,
  DELETE_OUTGOING_EDGES,
  EDGE_SCAN,
  LINEAGE_LEVEL,
  mergeEdges,
  RELATIONSHIPS,
} from './cypher-graph.js'
import { AWAIT_INDEXES, INIT_COUNTER, SCHEMA } from './cypher-schema.js'
import * as tasks from './cypher-tasks.js'
import * as series from './cypher-timeseries.js'
import { parametersOf, type Statement } from './statement.js'

function isStatement(value: unknown): value is Statement {
  return typeof value === 'object' && value !== null && 'text' in value && 'params' in value
}

const named: Array<[string, Statement]> = [
  ...Object.entries({ ...aspects, ...admin, ...series, ...tasks }).flatMap(
    ([name, value]): Array<[string, Statement]> => (isStatement(value) ? [[name, value]] : []),
  ),
  ['DELETE_EDGES_OF', DELETE_EDGES_OF],
  ['DELETE_OUTGOING_EDGES', DELETE_OUTGOING_EDGES],
  ...Object.entries(RELATIONSHIPS).flatMap(
    ([direction, s]): Array<[string, Statement]> => [
      [`RELATIONSHIPS.${direction}.count`, s.count],
      [`RELATIONSHIPS.${direction}.page`, s.page],
    ],
  ),
  ['mergeEdges(OwnedBy)', mergeEdges('OwnedBy')],
  ['LINEAGE_LEVEL', LINEAGE_LEVEL],
  ['EDGE_SCAN', EDGE_SCAN],
  ['TIMESERIES_SORTED.ASCENDING', series.TIMESERIES_SORTED.ASCENDING],
  ['TIMESERIES_SORTED.DESCENDING', series.TIMESERIES_SORTED.DESCENDING],
  ['INIT_COUNTER', INIT_COUNTER],
  ['AWAIT_INDEXES', AWAIT_INDEXES],
  ...SCHEMA.map((s, i): [string, Statement] => [`SCHEMA[${i}]`, s]),
]

t.test('every statement declares exactly the parameters its text uses', async (t) => {
  t.ok(named.length >= 25, `found ${named.length} statements`)
  for (const [name, s] of named) {
    t.same(parametersOf(s.text), [...s.params].sort(), name)
  }
})

t.test('every statement is valid Cypher 5: parsed and analysed offline, no server', async (t) => {
  // The package's ESM build has extensionless imports Node cannot resolve; its CJS build works.
  const { lintCypherQuery } = createRequire(import.meta.url)(
    '@neo4j-cypher/language-support',
  ) as typeof CypherLanguage
  for (const [name, s] of named) {
    const parameters = Object.fromEntries(s.params.map((p) => [p, null]))
    const problems = lintCypherQuery(s.text, { parameters }).map((d) => d.message)
    t.same(problems, [], name)
  }
  const broken = lintCypherQuery('MATCH (a:Aspect {urn: $urn}) RETURN b', { parameters: { urn: null } })
  t.match(
    broken.map((d) => d.message),
    [/Variable `b` not defined/],
    'the analyser does catch mistakes',
  )
})

t.test('no statement carries a value: no string literals, no numbers but 0 and 1', async (t) => {
  for (const [name, s] of named) {
    const text = s.text.replace(/`OwnedBy`/g, '')
    t.notMatch(text, /['"`]/, `${name} has no quoted literal`)
    t.notMatch(text, /\$\{/, `${name} has no template placeholder`)
    const numbers = [...text.replace(/\$[A-Za-z_][A-Za-z0-9_]*/g, '').matchAll(/\b\d+\b/g)].map((m) => m[0])
    t.same(
      numbers.filter((n) => n !== '0' && n !== '1'),
      [],
      `${name} has no numeric literal beyond 0/1`,
    )
  }
})

t.test('the direction picks one of three constant patterns', async (t) => {
  t.match(RELATIONSHIPS.OUTGOING.page.text, /\(:Entity \{urn: \$urn\}\)-\[r\]->\(other:Entity\)/)
  t.match(RELATIONSHIPS.INCOMING.page.text, /\(:Entity \{urn: \$urn\}\)<-\[r\]-\(other:Entity\)/)
  t.match(RELATIONSHIPS.UNDIRECTED.page.text, /\(:Entity \{urn: \$urn\}\)-\[r\]-\(other:Entity\)/)
  t.match(RELATIONSHIPS.OUTGOING.page.text, /ORDER BY type, entity SKIP \$start LIMIT \$count/)
  t.match(RELATIONSHIPS.OUTGOING.count.text, /type\(r\) IN \$types/, 'types are a parameter')
})

t.test('relationship types: registry names pass, anything else is rejected', async (t) => {
  for (const good of ['OwnedBy', 'DownstreamOf', 'IsPartOf', 'X', 'a_1', 'TaggedWith']) {
    t.equal(checkRelationshipType(good), good)
  }
  for (const bad of [
    '',
    'Owned By',
    '1Owned',
    '_Owned',
    'Owned`By',
    'OwnedBy]->(x) DETACH DELETE x //',
    'Owned-By',
    'Ünicode',
    'Owned\nBy',
  ]) {
    t.throws(() => checkRelationshipType(bad), InvalidInputError, JSON.stringify(bad))
    t.throws(() => mergeEdges(bad), InvalidInputError, `mergeEdges(${JSON.stringify(bad)})`)
  }
  t.throws(() => checkRelationshipType(42 as unknown as string), InvalidInputError)
})

t.test('the edge statement quotes the type and takes everything else as parameters', async (t) => {
  const s = mergeEdges('DownstreamOf')
  t.match(s.text, /MERGE \(s\)-\[:`DownstreamOf` \{aspect: \$aspect\}\]->\(d\)/)
  t.same([...s.params].sort(), ['aspect', 'edges', 'entityType', 'urn'])
  t.equal(mergeEdges('DownstreamOf'), s, 'compiled once per type')
  t.equal(
    mergeEdges('OwnedBy').text.replace('OwnedBy', 'DownstreamOf'),
    s.text,
    'only the type differs between types',
  )
})
