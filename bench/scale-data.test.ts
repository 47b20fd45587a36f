/**
 * The scale benchmark's synthetic catalog is what the benchmark claims: valid DataHub MCPs,
 * 7 aspect rows per dataset with the default aspects, about 3 upstreams each forming a DAG,
 * the same every run; and its table prints every row with its verdict.
 * `npx tap bench/scale-data.test.ts`
 */
import { Registry } from '@catalog/core'
import t from 'tap'
import { datasetLines, datasetTable, datasetUrn, LINEAGE_WINDOW, upstreamsOf } from './scale-data.js'
import { renderTable } from './scale-table.js'

interface Mcp {
  entityType: string
  entityUrn: string
  changeType: string
  aspectName: string
  aspect: { json: Record<string, unknown>; contentType: string }
}

const registry = new Registry()
const mcps = (i: number) =>
  datasetLines(i)
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Mcp)

t.test('each dataset is 3 valid MCPs; with the default aspects, 7 aspect rows', async (t) => {
  const entity = registry.entity('dataset')
  for (const i of [0, 1, 42, 9_999, 123_456, 999_999]) {
    const list = mcps(i)
    t.same(
      list.map((m) => m.aspectName),
      ['datasetProperties', 'schemaMetadata', 'upstreamLineage'],
    )
    for (const m of list) {
      t.equal(m.entityUrn, datasetUrn(i))
      t.equal(m.changeType, 'UPSERT')
      t.doesNotThrow(
        () => registry.validateAspect(registry.aspect(entity, m.aspectName), m.aspect.json),
        m.aspectName,
      )
    }
    const defaults = registry.defaultAspects(registry.resolveUrn(datasetUrn(i))).map((a) => a.aspect)
    t.equal(new Set([...defaults, ...list.map((m) => m.aspectName)]).size, 7, `dataset ${i}: 7 aspects`)
    t.equal((list[0] as Mcp).aspect.json.name, datasetTable(i))
  }
})

t.test('lineage: 1 to 5 distinct earlier upstreams, 3 on average, matching the MCP', async (t) => {
  let total = 0
  const n = 20_000
  const bad: string[] = []
  for (let i = 0; i < n; i++) {
    const ups = upstreamsOf(i)
    total += ups.length
    if (new Set(ups).size !== ups.length) bad.push(`dataset ${i}: repeated upstreams`)
    for (const u of ups)
      if (u >= i || u < i - LINEAGE_WINDOW) bad.push(`dataset ${i}: upstream ${u} out of its window`)
    if (i > 5 && (ups.length < 1 || ups.length > 5)) bad.push(`dataset ${i}: ${ups.length} upstreams`)
  }
  t.same(bad, [], 'every upstream is earlier (a DAG), within the window, 1 to 5 of them')
  t.ok(Math.abs(total / n - 3) < 0.05, `about 3 upstreams per dataset (${total / n})`)
  const lineage = mcps(777).find((m) => m.aspectName === 'upstreamLineage') as Mcp
  t.same(
    (lineage.aspect.json.upstreams as Array<{ dataset: string }>).map((u) => u.dataset),
    upstreamsOf(777).map(datasetUrn),
  )
})

t.test('the catalog is the same every run, and URNs are distinct', async (t) => {
  t.equal(datasetLines(31_337), datasetLines(31_337))
  const urns = new Set(Array.from({ length: 5_000 }, (_, i) => datasetUrn(i)))
  t.equal(urns.size, 5_000)
})

t.test('the table prints each row with its ratio and verdict', async (t) => {
  const lines = renderTable([
    { figure: 'a', result: '1 ms', baseline: 'b 2 ms', ratio: 0.5, target: '≤ 1×', met: true },
    { figure: 'long figure', result: '3 ms', baseline: 'b', ratio: 3, target: '≤ 1×', met: false },
    { figure: 'c', result: 'x', baseline: 'y', ratio: undefined, target: '—', met: undefined },
  ])
  t.equal(lines.length, 5)
  t.equal(new Set(lines.map((l) => l.length)).size, 1, 'aligned')
  t.match(lines[2], /\| a +\| 1 ms +\| b 2 ms +\| 0\.50× +\| ≤ 1× +\| met +\|/)
  t.match(lines[3], /\| 3\.00× +\| ≤ 1× +\| NOT met \|/)
  t.match(lines[4], /\| — +\| — +\| — +\|$/)
})
