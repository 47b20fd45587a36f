import { rmSync } from 'node:fs'
import type { ChangeLogEntry } from '@catalog/core'
import { ContractFixture } from '../../search/src/contract-fixtures.js'
import { SqliteSearchIndex } from '../src/sqlite-search-index.js'

const N = Number(process.env.N ?? 20000)
const file = '/tmp/perf-search.db'
for (const s of ['', '-wal', '-shm']) rmSync(file + s, { force: true })
const fx = new ContractFixture()
const index = new SqliteSearchIndex({ file, schema: fx.schema })
const P = ['hive', 'kafka', 'snowflake', 'bigquery', 'postgres', 'mysql', 's3', 'redshift']
const D = ['sales', 'marketing', 'finance', 'hr', 'ops', 'product', 'growth', 'risk', 'supply', 'support']
const E = ['orders', 'customers', 'payments', 'invoices', 'shipments', 'sessions', 'events', 'users', 'accounts', 'products', 'inventory', 'refunds', 'clicks', 'campaigns', 'leads', 'subscriptions', 'transactions', 'tickets', 'reviews', 'returns']
const Q = ['daily', 'hourly', 'raw', 'clean', 'agg', 'fact', 'dim', 'snapshot', 'history', 'staging', 'latest', 'monthly', 'weekly']
const C = ['id', 'created_at', 'updated_at', 'customer_id', 'order_id', 'amount', 'currency', 'status', 'country', 'email', 'first_name', 'last_name', 'phone', 'address', 'city', 'zip', 'product_id', 'quantity', 'price', 'discount', 'tax', 'total', 'channel', 'campaign_id', 'session_id', 'device', 'browser', 'event_type', 'event_time', 'user_id', 'account_id', 'balance', 'region', 'segment', 'score', 'is_active', 'deleted_at', 'source', 'medium', 'revenue']
const T = ['PII', 'Legacy', 'Gold', 'Silver', 'Bronze', 'GDPR', 'Certified', 'Finance', 'Marketing', 'NeedsDocumentation']
let r = 42
const rnd = (n: number) => { r = (r * 1103515245 + 12345) & 0x7fffffff; return r % n }
const pick = <X>(a: X[]) => a[rnd(a.length)] as X
let seq = 0
function entries(i: number): ChangeLogEntry[] {
  const platform = P[i % P.length] as string
  const origin = rnd(10) < 8 ? 'PROD' : 'DEV'
  const dom = pick(D), ent = pick(E), q = pick(Q)
  const name = `${dom}_db.${pick(D)}_${pick(Q)}.${q}_${ent}_${i}`
  const nf = 5 + rnd(20)
  const fields = Array.from({ length: nf }, (_, k) => ({ fieldPath: `${pick(C)}${k > 30 ? k : ''}`, nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } }, ...(rnd(2) ? { description: `The ${pick(C).replace('_', ' ')} of the ${ent.slice(0, -1)}` } : {}) }))
  const tags = Array.from({ length: rnd(3) }, () => ({ tag: `urn:li:tag:${pick(T)}` }))
  const owners = Array.from({ length: 1 + rnd(2) }, () => ({ owner: `urn:li:corpuser:user${rnd(500)}`, type: 'DATAOWNER' }))
  const list = fx.dataset(name, {
    datasetProperties: { name: `${q}_${ent}_${i}`, description: `${q} ${ent} for the ${dom} team, refreshed ${pick(Q)}. Used by ${pick(D)} analysts to track ${pick(E)}.`, customProperties: { team: dom } },
    schemaMetadata: { schemaName: name, platform: `urn:li:dataPlatform:${platform}`, version: 0, hash: '', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields },
    globalTags: { tags },
    ownership: { owners },
    status: { removed: false },
  }, platform, origin)
  return list.map((e) => ({ ...e, seq: ++seq }))
}
const t0 = Date.now()
const B = 250
for (let i = 0; i < N; i += B) {
  const batch: ChangeLogEntry[] = []
  for (let k = i; k < Math.min(N, i + B); k++) batch.push(...entries(k))
  await index.apply(fx.deriver.changes(batch), seq)
}
const t1 = Date.now()
console.log(`indexed ${N} in ${t1 - t0} ms`, await index.stats())
async function time(label: string, f: () => Promise<unknown>, n = 20) {
  const xs: number[] = []
  let res: unknown
  for (let k = 0; k < n; k++) { const s = performance.now(); res = await f(); xs.push(performance.now() - s) }
  xs.sort((a, b) => a - b)
  console.log(label, 'p50', xs[Math.floor(n / 2)]?.toFixed(1), 'p95', xs[Math.floor(n * 0.95)]?.toFixed(1), JSON.stringify(res).slice(0, 150))
}
const s = (input: string, filter?: unknown, count = 10) => index.search(fx.requests.search({ input, entityTypes: ['dataset'], start: 0, count, ...(filter ? { filter } : {}) } as never))
await time('text orders', () => s('orders').then((x) => x.total))
await time('text daily customers', () => s('daily customers').then((x) => x.total))
await time('typo custmers', () => s('custmers').then((x) => x.total))
await time('field tags:PII', () => s('tags:PII').then((x) => x.total))
await time('filtered', () => s('orders', { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] }] }).then((x) => x.total))
await time('star', () => s('*').then((x) => x.total))
await time('ac', () => index.autocomplete(fx.requests.autocomplete({ query: 'daily_ord', entityType: 'dataset', limit: 10 })).then((x) => x.suggestions.length))
await time('ac short', () => index.autocomplete(fx.requests.autocomplete({ query: 'fi', entityType: 'dataset', limit: 10 })).then((x) => x.suggestions.length))
await time('browse', () => index.browse(fx.requests.browse({ path: '/prod', entityType: 'dataset', start: 0, limit: 10 })).then((x) => x.groups.length))
console.log('rss MB', process.memoryUsage().rss / 1e6)
console.log('fts ms', (globalThis as any).FTS, 'exact ms', (globalThis as any).EX)
