/**
 * Where a search's time goes, phase by phase, on a built index (BENCH_SCALE_DIR/search.db):
 * match (the counted hits, unscored), rank (the rank window), facet counts over the counted
 * hits, hydration (the page's documents), and the whole `search` call, each p50/p95 of CPU time
 * (user + system: what it takes without the other processes of a shared machine).
 * `node --import tsx bench/search-breakdown.ts <dir> [<search-sqlite src dir>]`: the second
 * argument measures another copy of the implementation (e.g. the previous commit's, from
 * `git show`), so before and after run on the same index in the same conditions.
 */
import { join, resolve } from 'node:path'
import { Registry } from '@catalog/core'
import { RequestBuilder, SearchSchema } from '@catalog/search'
import type { QueryContext } from '../packages/search-sqlite/src/query-context.js'
import { fmt, percentile } from './lib.js'

const dir = process.argv[2] ?? process.env.BENCH_SCALE_DIR ?? '/tmp/scale200k'
const src = resolve(process.argv[3] ?? 'packages/search-sqlite/src')
const { SqliteSearchIndex } = await import(join(src, 'sqlite-search-index.ts'))
const { QueryCompiler } = await import(join(src, 'query-compiler.ts'))
const { boundedRows, countedHits, page, queryScope, scopeWhere } = await import(join(src, 'search-query.ts'))
// Later implementations read a lone `field:value` from posting lists and pick the page without
// sorting every scored row; earlier ones have neither.
const optional = async <T>(file: string, name: string, fallback: T): Promise<T> => {
  try {
    return ((await import(join(src, file))) as Record<string, T>)[name] ?? fallback
  } catch {
    return fallback
  }
}
const fieldHits = await optional(
  'field-hits.ts',
  'fieldHits',
  (_ctx: unknown, _req: unknown, _node: unknown): number[] | undefined => undefined,
)
type Row = readonly [number, number, number]
const rankedPage = await optional(
  'ranked-page.ts',
  'rankedPage',
  (
    rows: readonly Row[],
    _counted: readonly number[],
    has: (id: number) => boolean,
    start: number,
    count: number,
  ) =>
    rows
      .filter((r) => has(r[0]))
      .sort((a, b) => b[1] - a[1] || b[2] - a[2] || a[0] - b[0])
      .slice(start, start + count)
      .map((r) => r[0]),
)
// The previous implementation scored with bm25 in SQL, joined with the documents table.
const { rankWords } = process.argv[3]
  ? { rankWords: () => undefined }
  : await import(join(src, 'word-ranker.ts'))
const inputs = [
  'orders',
  'customers',
  'daily customers',
  'sales orders',
  'marketing campaigns hourly',
  'finance team payments',
  'tags:PII',
  'platform:kafka',
  'owners:user42',
]
const registry = new Registry()
const schema = new SearchSchema(registry)
const requests = new RequestBuilder(schema)
const index: InstanceType<typeof import('@catalog/search-sqlite').SqliteSearchIndex> = new SqliteSearchIndex({
  file: join(dir, 'search.db'),
  schema,
})
const internals = index as unknown as { queryContext(): QueryContext; read<T>(fn: () => T): T }

/** CPU milliseconds of `fn` (user + system): on a shared machine, what it would take alone. */
const time = (fn: () => unknown) => {
  const s = process.cpuUsage()
  fn()
  const d = process.cpuUsage(s)
  return (d.user + d.system) / 1000
}
await index.search(requests.search({ input: 'orders', entityTypes: ['dataset'], start: 0, count: 10 }))
for (const input of inputs) {
  const req = requests.search({ input, entityTypes: ['dataset'], start: 0, count: 10 })
  const t: Record<string, number[]> = { match: [], rank: [], facets: [], hydrate: [], whole: [] }
  let counted: number[] = []
  for (let i = 0; i < 12; i++) {
    internals.read(() => {
      const ctx = internals.queryContext()
      const scope = queryScope(schema, req.entityTypes)
      const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
      t.match?.push(
        time(
          () =>
            (counted =
              (req.query.kind === 'field' ? fieldHits(ctx, req, req.query) : undefined) ??
              countedHits(ctx, req, where, scope)),
        ),
      )
      const bound = counted[Math.min(ctx.rankWindow, counted.length) - 1] ?? 0
      let pageIds: number[] = counted.slice(0, 10)
      t.rank?.push(
        time(() => {
          if (req.query.kind === 'field') return // id order
          const scoring = new QueryCompiler(ctx, scope, true, bound)
          const set = new Set(counted)
          const has = (id: number) => set.has(id)
          const ranked =
            rankWords(ctx, scoring, req.query, bound, 10, has) ?? boundedRows(ctx, scoring, req, where)
          pageIds = rankedPage(ranked, counted, has, 0, 10)
        }),
      )
      t.facets?.push(time(() => ctx.facets.count(counted, req.facets, req.maxFacetValues)))
      const compiler = new QueryCompiler(ctx, scope)
      compiler.compile(req.query)
      t.hydrate?.push(time(() => page(ctx, schema, req, compiler, pageIds)))
    })
    const s = process.cpuUsage()
    await index.search(req)
    const d = process.cpuUsage(s)
    t.whole?.push((d.user + d.system) / 1000)
  }
  const cell = (k: string) => {
    const v = t[k] ?? []
    return `${k} ${fmt(percentile([...v], 50), 1)}/${fmt(percentile(v, 95), 1)}`
  }
  process.stdout.write(
    `"${input}" (${fmt(counted.length)} counted): ${['match', 'rank', 'facets', 'hydrate', 'whole'].map(cell).join(' | ')} CPU ms p50/p95\n`,
  )
}
await index.close()
