import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-update-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) })
const lineage = (...names: string[]) => ({
  upstreamLineage: {
    upstreams: names.map((n) => ({
      dataset: ds(n),
      type: 'TRANSFORMED',
      auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
    })),
  },
})

/** Every derived row of the index by URN (field names, not ids), sorted. */
function rows(file: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    const exact = db
      .prepare(
        'SELECT d.urn, f.name, e.value, e.variant, e.num FROM exact e JOIN docs d ON d.id = e.doc_id JOIN fields f ON f.id = e.field',
      )
      .raw()
      .all()
    const keys = db
      .prepare(
        'SELECT d.urn, f.name, k.key FROM urn_keys k JOIN docs d ON d.id = k.doc_id JOIN fields f ON f.id = k.field',
      )
      .raw()
      .all()
    const browse = db.prepare('SELECT * FROM browse_nodes WHERE docs <> 0 OR below <> 0').raw().all()
    return [...exact, ...keys, ...browse].map((r) => JSON.stringify(r)).sort()
  } finally {
    db.close()
  }
}

t.test('a document updated many times has the rows of the same document written once', async (t) => {
  const fx = new ContractFixture()
  const updated = join(dir, 'updated.db')
  const fresh = join(dir, 'fresh.db')
  const a = new SqliteSearchIndex({ file: updated, schema: fx.schema })
  const steps = [
    fx.dataset('x', { globalTags: tags('PII', 'Gold'), ...lineage('u1', 'u2') }),
    fx.dataset('y', { globalTags: tags('Gold'), ...lineage('u1') }),
    [fx.upsert(ds('x'), 'globalTags', tags('pii', 'PII', 'Silver'))],
    [fx.upsert(ds('x'), 'upstreamLineage', lineage('u2', 'u3').upstreamLineage)],
    [fx.upsert(ds('y'), 'browsePaths', { paths: ['/prod/a/b'] })],
    [fx.upsert(ds('x'), 'status', { removed: true })],
    [fx.upsert(ds('x'), 'globalTags', tags('Pii', 'pii'))],
    [fx.upsert(ds('y'), 'upstreamLineage', lineage().upstreamLineage)],
    [fx.upsert(ds('x'), 'status', { removed: false })],
  ]
  for (const step of steps) await fx.apply(a, step)
  await a.close()
  const b = new SqliteSearchIndex({ file: fresh, schema: fx.schema })
  const docsOf = (file: string) => {
    const db = new Database(file, { readonly: true })
    try {
      return db.prepare('SELECT urn, entity_type, parts FROM docs ORDER BY urn').raw().all()
    } finally {
      db.close()
    }
  }
  // The fresh index gets each final document in one write.
  const entries = (docsOf(updated) as Array<[string, string, string]>).flatMap(([urn, , parts]) =>
    Object.keys(JSON.parse(parts) as object).map((aspect) => ({ urn, aspect })),
  )
  t.ok(entries.length > 0)
  const final = new Map<string, Record<string, unknown>>()
  for (const step of steps)
    for (const e of step) {
      const aspects = final.get(e.urn) ?? {}
      aspects[e.aspect] = e.value
      final.set(e.urn, aspects)
    }
  for (const [urn, aspects] of final)
    await fx.apply(
      b,
      Object.entries(aspects).map(([aspect, value]) =>
        fx.upsert(urn, aspect, value as Record<string, unknown>),
      ),
    )
  await b.close()
  t.same(docsOf(fresh), docsOf(updated), 'the same documents')
  t.same(rows(updated), rows(fresh), 'the same exact values, URN keys and browse counts')
  t.ok(
    rows(updated).some((r) => r.includes('urn:li:tag:Pii')) &&
      rows(updated).some((r) => r.includes('"urn:li:tag:pii",1')),
    'case variants as the last write has them',
  )
  const again = new SqliteSearchIndex({ file: updated, schema: fx.schema })
  t.teardown(() => again.close())
  t.same(await fx.urns(again, 'tags:pii'), [ds('x')])
  t.same(await fx.urns(again, 'tags:Gold'), [ds('y')])
  t.same(await fx.urns(again, 'upstreams:u3'), [ds('x')])
  t.same(await fx.urns(again, 'upstreams:u1'), [], 'removed upstreams are gone')
})

t.test('a removed document leaves none of its rows, found again from its stored contributions', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'removed.db')
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  await fx.apply(index, [
    ...fx.dataset('x', { globalTags: tags('PII', 'pii', 'Gold'), ...lineage('u1', 'u2') }),
    fx.upsert(ds('x'), 'browsePaths', { paths: ['/prod/a/b'] }),
    ...fx.dataset('y', { globalTags: tags('Gold'), ...lineage('u1') }),
  ])
  const count = (sql: string) => {
    const db = new Database(file, { readonly: true })
    try {
      return db.prepare(sql).pluck().get() as number
    } finally {
      db.close()
    }
  }
  const orphans = () =>
    count('SELECT count(*) FROM exact WHERE doc_id NOT IN (SELECT id FROM docs)') +
    count('SELECT count(*) FROM urn_keys WHERE doc_id NOT IN (SELECT id FROM docs)')
  const before = count('SELECT count(*) FROM exact')
  t.equal(orphans(), 0)
  await fx.apply(index, [fx.remove(ds('x'), 'datasetKey', true)])
  t.equal(orphans(), 0, 'no exact value or URN key of the removed document is left')
  t.ok(count('SELECT count(*) FROM exact') < before - 5, 'its values are gone')
  t.equal(
    count("SELECT count(*) FROM browse_nodes WHERE (docs <> 0 OR below <> 0) AND path LIKE '/prod/a%'"),
    0,
  )
  t.same(await fx.urns(index, 'tags:Gold'), [ds('y')])
  t.same(await fx.urns(index, 'tags:pii'), [])
  t.same(await fx.urns(index, 'upstreams:u2'), [])
  t.same(await fx.urns(index, 'upstreams:u1'), [ds('y')])
})
