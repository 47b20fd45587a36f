/**
 * What an opened search index holds in memory after a few queries (run by
 * `bench/search-build.ts` in a fresh process): RSS, JS heap and external memory before the
 * index is opened and after the queries, and the index's own estimate (`stats().memoryBytes`).
 * SEARCH_FILE is the index file; SEARCH_CACHE_MB its page cache (the server's default if unset).
 */
import { Registry } from '@catalog/core'
import { RequestBuilder, SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '@catalog/search-sqlite'

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`
const usage = () => {
  const m = process.memoryUsage()
  return `RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)}, external ${mb(m.external + m.arrayBuffers)}`
}
const schema = new SearchSchema(new Registry())
const requests = new RequestBuilder(schema)
globalThis.gc?.()
const before = usage()
const cacheMb = process.env.SEARCH_CACHE_MB ? Number(process.env.SEARCH_CACHE_MB) : undefined
const index = new SqliteSearchIndex({
  file: process.env.SEARCH_FILE ?? 'search.db',
  schema,
  ...(cacheMb ? { cacheMb } : {}),
})
const started = performance.now()
for (const input of ['orders region', 'table_4711', 'customer', 'refreshed daily', 'ordrs']) {
  await index.search(requests.search({ input, entityTypes: ['dataset'], start: 0, count: 10 }))
}
await index.autocomplete(requests.autocomplete({ query: 'tabl', entityType: 'dataset', limit: 10 }))
const ms = performance.now() - started
globalThis.gc?.()
const stats = await index.stats()
const parts = index as unknown as {
  facets: { size(): { values: number; bytes: number } }
  vocabulary: { size(): { terms: number; bytes: number } }
}
const facets = parts.facets.size()
const words = parts.vocabulary.size()
process.stdout.write(
  `memory: before opening ${before}; after 5 searches and an autocomplete (${ms.toFixed(0)} ms) ${usage()}; index says ${mb(stats.memoryBytes)} (facets: ${facets.values} values, ~${mb(facets.bytes)}; vocabulary: ${words.terms} words, ~${mb(words.bytes)})\n`,
)
if (process.env.SEARCH_HEAP) {
  const { writeHeapSnapshot } = await import('node:v8')
  process.stdout.write(`heap snapshot: ${writeHeapSnapshot(process.env.SEARCH_HEAP)}\n`)
}
await index.close()
