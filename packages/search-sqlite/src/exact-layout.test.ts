import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { LAYOUT_VERSION } from './ddl.js'
import { PartsCodec } from './parts-codec.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-exact-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const fileOf = () => join(dir, `exact-${Math.random()}.db`)

function open(t: Test, file = fileOf()) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  return { fx, index, file }
}

const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) })
const tagFilter = (value: string, condition?: string) => ({
  filter: { or: [{ and: [{ field: 'tags', value, ...(condition ? { condition } : {}) }] }] },
})

/** Runs `fn` on the index file opened raw (no search index on it). */
function raw<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file)
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

t.test('values of one field that differ only in case are all kept, each found as it is', async (t) => {
  const { fx, index, file } = open(t)
  await fx.apply(index, [
    ...fx.dataset('both', { globalTags: tags('PII', 'pii', 'Pii', 'PII') }),
    ...fx.dataset('upper', { globalTags: tags('PII') }),
    ...fx.dataset('lower', { globalTags: tags('pii') }),
  ])
  t.same(
    raw(file, (db) =>
      db
        .prepare(
          "SELECT value, variant FROM exact WHERE value LIKE 'urn:li:tag:%' AND doc_id = (SELECT id FROM docs WHERE urn = ?) ORDER BY variant",
        )
        .raw()
        .all(ds('both')),
    ),
    [
      ['urn:li:tag:PII', 0],
      ['urn:li:tag:pii', 1],
      ['urn:li:tag:Pii', 2],
    ],
    'one row per value as written, a repeated value once',
  )
  const urns = async (value: string, condition?: string) =>
    (await fx.urns(index, '*', tagFilter(value, condition))).sort()
  t.same(await urns('urn:li:tag:PII'), [ds('both'), ds('upper')].sort(), 'EQUAL keeps case')
  t.same(await urns('urn:li:tag:pii'), [ds('both'), ds('lower')].sort())
  t.same(await urns('urn:li:tag:Pii'), [ds('both')])
  t.same(await urns('urn:li:tag:pIi', 'IEQUAL'), [ds('both'), ds('lower'), ds('upper')].sort())
  t.same(
    (await fx.search(index, '*')).facets
      ?.find((f) => f.field === 'tags')
      ?.values.map((v) => [v.value, v.count])
      .sort(),
    [
      ['urn:li:tag:PII', 2],
      ['urn:li:tag:Pii', 1],
      ['urn:li:tag:pii', 2],
    ],
    'facet counts per value as written',
  )
  await fx.apply(index, fx.dataset('both', { globalTags: tags('pii') }))
  t.same(await urns('urn:li:tag:PII'), [ds('upper')], 'a rewrite deletes every variant')
  t.same(await urns('urn:li:tag:pii'), [ds('both'), ds('lower')].sort())
})

t.test(
  'an index written with layout 4 (exact by value as it is, browse nodes by path) is rebuilt on open',
  async (t) => {
    const file = fileOf()
    const first = open(t, file)
    await first.fx.apply(first.index, [
      ...first.fx.dataset('a', { globalTags: tags('Gold') }, 'kafka'),
      ...first.fx.dataset('b', { globalTags: tags('Gold', 'gold'), browsePaths: { paths: ['/prod/x/y'] } }),
    ])
    await first.index.close()
    // The file as layout 4 left it: its `exact` table, the rows it held, its layout record.
    asLayout5(file, first.fx)
    raw(file, (db) => {
      const layout = JSON.parse(
        db.prepare("SELECT value FROM meta WHERE key = 'layout'").pluck().get() as string,
      )
      t.equal(layout.layout, 5)
      db.exec(`DROP TABLE exact;
      CREATE TABLE exact (doc_id INTEGER NOT NULL, field INTEGER NOT NULL, value TEXT NOT NULL, num REAL,
        PRIMARY KEY (doc_id, field, value)) WITHOUT ROWID;
      CREATE INDEX exact_by_value ON exact (field, value COLLATE NOCASE);
      INSERT INTO exact (doc_id, field, value) VALUES (1, 1, 'stale');
      DROP TABLE browse_nodes;
      CREATE TABLE browse_nodes (entity_type TEXT NOT NULL, path TEXT NOT NULL, parent TEXT NOT NULL,
        docs INTEGER NOT NULL, below INTEGER NOT NULL, PRIMARY KEY (entity_type, path)) WITHOUT ROWID;
      CREATE INDEX browse_nodes_by_parent ON browse_nodes (entity_type, parent, docs);
      INSERT INTO browse_nodes VALUES ('dataset', '/stale', '', 9, 0);`)
      db.prepare("UPDATE meta SET value = ? WHERE key = 'layout'").run(
        JSON.stringify({ ...layout, layout: 4 }),
      )
    })
    const again = open(t, file)
    const columns = raw(file, (db) => db.prepare("SELECT name FROM pragma_table_info('exact')").pluck().all())
    t.same(columns, ['field', 'value', 'doc_id', 'variant', 'num'], 'the table has today’s shape')
    t.same(
      raw(file, (db) =>
        db.prepare("SELECT name FROM pragma_index_info('sqlite_autoindex_browse_nodes_1')").pluck().all(),
      ),
      ['entity_type', 'parent', 'path'],
      'browse nodes keyed by parent',
    )
    t.same(
      raw(file, (db) =>
        db.prepare("SELECT name FROM sqlite_master WHERE name = 'browse_nodes_by_parent'").pluck().all(),
      ),
      [],
    )
    const browse = (path: string) =>
      again.index.browse(again.fx.requests.browse({ path, entityType: 'dataset', start: 0, limit: 10 }))
    const root = await browse('/')
    t.same(root.groups, [{ name: 'prod', count: 2 }], 'browse counts rebuilt, the stale node gone')
    const x = await browse('/prod/x')
    t.same([x.groups, x.totalNumEntities], [[{ name: 'y', count: 1 }], 1])
    t.equal(
      raw(file, (db) => db.prepare("SELECT count(*) FROM exact WHERE value = 'stale'").pluck().get()),
      0,
      'old rows are gone',
    )
    t.match(
      raw(file, (db) => db.prepare("SELECT value FROM meta WHERE key = 'layout'").pluck().get()),
      `"layout":${LAYOUT_VERSION}`,
    )
    t.same(await again.fx.urns(again.index, 'platform:kafka'), [ds('a', 'kafka')], 'URN keys answer')
    t.same(
      await again.fx.urns(again.index, '*', tagFilter('urn:li:tag:gold')),
      [ds('b')],
      'exact values rebuilt, case variants kept',
    )
    t.same(
      (await again.fx.urns(again.index, '*', tagFilter('urn:li:tag:Gold'))).sort(),
      [ds('a', 'kafka'), ds('b')].sort(),
    )
  },
)

/**
 * Turns a file of today's layout into what layout 5 wrote: parts keyed by names (no codes
 * recorded), `exact` keyed by document with an index by value, `docs` with a unique URN and no hash.
 */
function asLayout5(file: string, fx: ContractFixture): void {
  raw(file, (db) => {
    const codec = PartsCodec.of(fx.schema)
    const update = db.prepare('UPDATE docs SET parts = ? WHERE id = ?')
    for (const r of db.prepare('SELECT id, parts FROM docs').all() as Array<{ id: number; parts: string }>)
      update.run(JSON.stringify(codec.decode(r.parts)), r.id)
    db.exec(`CREATE TABLE old_exact (doc_id INTEGER NOT NULL, field INTEGER NOT NULL, value TEXT NOT NULL,
      variant INTEGER NOT NULL, num REAL, PRIMARY KEY (doc_id, field, value COLLATE NOCASE, variant)) WITHOUT ROWID;
    INSERT INTO old_exact SELECT doc_id, field, value, variant, num FROM exact;
    DROP TABLE exact; ALTER TABLE old_exact RENAME TO exact;
    CREATE TABLE old_docs (id INTEGER PRIMARY KEY, urn TEXT NOT NULL UNIQUE, entity_type TEXT NOT NULL,
      removed INTEGER NOT NULL DEFAULT 0, parts TEXT NOT NULL);
    INSERT INTO old_docs SELECT id, urn, entity_type, removed, parts FROM docs;
    DROP TABLE docs; ALTER TABLE old_docs RENAME TO docs;
    CREATE INDEX docs_by_type ON docs (entity_type, removed, urn);
    CREATE INDEX exact_by_value ON exact (field, value COLLATE NOCASE);
    DELETE FROM meta WHERE key = 'names';`)
    const layout = JSON.parse(
      db.prepare("SELECT value FROM meta WHERE key = 'layout'").pluck().get() as string,
    )
    db.prepare("UPDATE meta SET value = ? WHERE key = 'layout'").run(JSON.stringify({ ...layout, layout: 5 }))
  })
}

t.test(
  'an index written with layout 5 (names in parts, exact keyed by document) is rebuilt on open',
  async (t) => {
    const file = fileOf()
    const first = open(t, file)
    const { fx } = first
    await fx.apply(first.index, [
      ...fx.dataset('a', { globalTags: tags('Gold'), browsePaths: { paths: ['/prod/x/y'] } }, 'kafka'),
      ...fx.dataset('b', { globalTags: tags('Gold', 'gold') }),
      ...fx.dataset('c', { globalTags: tags('Silver') }),
    ])
    const before = {
      doc: await first.index.document(ds('a', 'kafka')),
      search: await fx.search(first.index, '*'),
    }
    await first.index.close()
    asLayout5(file, fx)
    t.ok(
      raw(file, (db) =>
        db.prepare('SELECT count(*) FROM docs WHERE parts LIKE \'%"globalTags"%\'').pluck().get(),
      ),
      'the old parts name their aspects',
    )
    const again = open(t, file)
    const { index } = again
    t.same(
      raw(file, (db) =>
        db.prepare("SELECT name FROM pragma_index_info('sqlite_autoindex_exact_1')").pluck().all(),
      ),
      ['field', 'value', 'doc_id', 'variant'],
      'exact keyed by field, value, document',
    )
    t.same(
      raw(file, (db) =>
        db.prepare("SELECT name FROM sqlite_master WHERE name = 'exact_by_value'").pluck().all(),
      ),
      [],
      'no index by value',
    )
    t.same(
      raw(file, (db) =>
        db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'docs' ORDER BY name")
          .pluck()
          .all(),
      ),
      ['docs_by_type', 'docs_by_urn'],
      'URNs found by their hash, stored once',
    )
    t.equal(
      raw(file, (db) =>
        db.prepare('SELECT count(*) FROM docs WHERE parts LIKE \'%"globalTags"%\'').pluck().get(),
      ),
      0,
      'parts rewritten with codes',
    )
    t.same(await index.document(ds('a', 'kafka')), before.doc, 'documents read as before')
    const now = await fx.search(index, '*')
    t.same([now.total, now.facets], [before.search.total, before.search.facets], 'facets as before')
    t.same((await fx.urns(index, '*', tagFilter('urn:li:tag:gold'))).sort(), [ds('b')])
    t.same(await fx.urns(index, 'platform:kafka'), [ds('a', 'kafka')], 'URN keys answer')
    t.same((await fx.urns(index, 'tags:Gold')).sort(), [ds('a', 'kafka'), ds('b')].sort())
    // Updates and removals of a rebuilt document find its rows.
    await fx.apply(index, fx.dataset('b', { globalTags: tags('Silver') }))
    t.same((await fx.urns(index, 'tags:Silver')).sort(), [ds('b'), ds('c')].sort())
    t.same(await fx.urns(index, 'tags:gold'), [ds('a', 'kafka')])
    await fx.apply(index, [fx.remove(ds('a', 'kafka'), 'datasetKey', true)])
    t.same(await fx.urns(index, 'tags:Gold'), [])
    t.equal(
      raw(file, (db) =>
        db.prepare('SELECT count(*) FROM exact WHERE doc_id NOT IN (SELECT id FROM docs)').pluck().get(),
      ),
      0,
      'the removed document left no exact value',
    )
    const browse = await index.browse(
      fx.requests.browse({ path: '/', entityType: 'dataset', start: 0, limit: 10 }),
    )
    t.same(browse.groups, [{ name: 'prod', count: 2 }])
  },
)
