/**
 * Every statement the store prepares on the edge table, and the aspect reads by URN, read an
 * index prefix (EXPLAIN QUERY PLAN): none scans `edge_rows` or `aspect_rows`, and the edge scan
 * streams in (source, destination, type) order with no sort of the whole table.
 */
import type { Direction } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteAdmin } from './sqlite-admin.js'
import { SqliteGraph } from './sqlite-graph.js'
import { SqliteLatestJson } from './sqlite-latest-json.js'
import { openStoreSchema } from './sqlite-schema.js'
import { SqliteWriter } from './sqlite-writer.js'

/** The SQL of every statement prepared on `db` from now on. */
function recordStatements(db: Database.Database): string[] {
  const sources: string[] = []
  db.prepare = ((sql: string) => {
    sources.push(sql)
    return prepare(sql)
  }) as typeof db.prepare
  return sources
}

/** The plan of `sql` with every parameter bound to null, one line per step. */
function planOf(sql: string): string[] {
  const stmt = prepare(`EXPLAIN QUERY PLAN ${sql}`)
  const names = [...sql.matchAll(/@(\w+)/g)].map((m) => m[1] as string)
  const rows = (
    names.length > 0
      ? stmt.all(Object.fromEntries(names.map((n) => [n, null])))
      : stmt.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null))
  ) as Array<{ detail: string }>
  return rows.map((r) => r.detail)
}

const db = new Database(':memory:')
openStoreSchema(db)
const prepare = db.prepare.bind(db)
const sources = recordStatements(db)
new SqliteWriter(db)
new SqliteLatestJson(db)
new SqliteAdmin(db)
const graph = new SqliteGraph(db)
const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
for (const direction of ['OUTGOING', 'INCOMING', 'UNDIRECTED'] as Direction[]) {
  for (const types of [[], ['DownstreamOf'], ['A', 'B', 'C', 'D', 'E']])
    graph.relationships({ urn, direction, types, start: 0, count: 10 })
}
// One edge of each type and entity type the scans below filter by: a scan that cannot match
// answers without preparing its statement.
prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)').run(
  urn,
  'DownstreamOf',
  'urn:li:chart:(looker,c)',
  'upstreamLineage',
)
const scanBase = {
  types: [],
  sourceTypes: [],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 10,
  includeSoftDeleted: false,
}
const after = { source: urn, destination: urn, type: 'DownstreamOf' }
for (const q of [
  {},
  { after },
  { types: ['DownstreamOf'], after },
  { sourceUrns: [urn] },
  { destinationUrns: [urn], after },
  { sourceUrns: [urn], destinationUrns: [urn] },
  { sourceTypes: ['dataset'], destinationTypes: ['chart'], slice: { id: 0, max: 2 } },
])
  await graph.scanEdges({ ...scanBase, ...q })
for (const direction of ['UPSTREAM', 'DOWNSTREAM'] as const)
  await graph.lineage({
    urn,
    direction,
    edges: [{ type: 'DownstreamOf', isUpstream: true, sourceTypes: [], destinationTypes: [] }],
    maxHops: 2,
    maxNodes: 10,
    timeBudgetMs: 1000,
    start: 0,
    count: 10,
    includeSoftDeleted: false,
  } as never)

/**
 * Statements that read every latest row by design (run lists, the rows of the reserved default
 * run, counts per aspect), and the edge scan, which reads the URN index in order (checked above).
 */
const FULL_READS = [
  /GROUP BY a\.run\b/,
  /a\.run = 0\b/,
  /SELECT COUNT\(\*\) AS n FROM aspect_rows/,
  /ORDER BY s\.urn, d\.urn/,
]

/** The edge scan's check that any edge has the relationship types asked for: it reads until the first. */
const ANY_EDGE_OF = /^SELECT 1 FROM edge_rows WHERE \+type IN .* LIMIT 1$/

t.test('no statement on the edge table scans it', async (t) => {
  const edgeStatements = sources.filter((s) => /edge_rows/.test(s) && !ANY_EDGE_OF.test(s))
  t.ok(edgeStatements.length >= 20, `${edgeStatements.length} edge statements checked`)
  for (const sql of edgeStatements) {
    const plan = planOf(sql)
    const scans = plan.filter((p) => /^SCAN (e|edge_rows)\b/.test(p))
    t.same(scans, [], `${sql.replace(/\s+/g, ' ').slice(0, 110)}: ${plan.join(' | ')}`)
  }
})

t.test('whether any edge has some types is read from the smaller index, up to the first', async (t) => {
  const check = sources.find((s) => ANY_EDGE_OF.test(s)) as string
  t.ok(check, 'the edge scan prepares it')
  t.same(planOf(check).slice(0, 1), ['SCAN edge_rows USING COVERING INDEX edge_rows_incoming'])
})

t.test('the writer deletes edges by a key prefix or the incoming index', async (t) => {
  for (const [sql, index] of [
    ['DELETE FROM edge_rows WHERE src = ? AND aspect = ?', /SEARCH edge_rows USING PRIMARY KEY \(src=\?\)/],
    ['DELETE FROM edge_rows WHERE src = ?', /SEARCH edge_rows USING PRIMARY KEY \(src=\?\)/],
    [
      'DELETE FROM edge_rows WHERE dst = ?',
      /SEARCH edge_rows USING COVERING INDEX edge_rows_incoming \(dst=\?\)/,
    ],
  ] as const) {
    t.ok(sources.includes(sql), `the writer prepares ${sql}`)
    t.match(planOf(sql).join(' | '), index, sql)
  }
})

t.test('the edge scan streams in (source, destination, type) order', async (t) => {
  const scans = sources.filter((s) => /ORDER BY s\.urn, d\.urn, e\.type/.test(s))
  t.ok(scans.length >= 6)
  for (const sql of scans) {
    const plan = planOf(sql).join(' | ')
    if (/@destinationIds/.test(sql)) {
      t.match(plan, /SEARCH e USING COVERING INDEX edge_rows_incoming \(dst=\?/, 'by destination')
      continue
    }
    t.notMatch(plan, /TEMP B-TREE FOR ORDER BY/, `no sort of every edge: ${plan}`)
    t.notMatch(plan, /TEMP B-TREE FOR DISTINCT/, 'no DISTINCT over every edge')
  }
})

t.test('aspect reads by URN seek the URN index, then the key', async (t) => {
  const reads = sources.filter((s) => /aspect_rows/.test(s) && !FULL_READS.some((r) => r.test(s)))
  t.ok(reads.length >= 10)
  for (const sql of reads) {
    const plan = planOf(sql)
    t.same(
      plan.filter((p) => /^SCAN (a|m|s|aspect_rows|u)\b/.test(p)),
      [],
      `${sql.replace(/\s+/g, ' ').slice(0, 110)}: ${plan.join(' | ')}`,
    )
  }
})

t.test('a run is read from the run index', async (t) => {
  const runAspects = sources.find((s) => /= @runId/.test(s)) as string
  t.match(planOf(runAspects).join(' | '), /SEARCH a USING INDEX aspect_rows_by_run/)
})

t.test('whether an entity is soft-deleted is read from the small index of those entities', async (t) => {
  const checks = sources.filter((s) => /INDEXED BY aspect_rows_removed/.test(s))
  t.ok(checks.length >= 4, `${checks.length} statements check (lineage, probe, edge scan, runs)`)
  for (const sql of checks) {
    const plan = planOf(sql).join(' | ')
    t.match(plan, /SEARCH \w+ USING (COVERING )?INDEX aspect_rows_removed \(eid=\?\)/, plan)
  }
})
