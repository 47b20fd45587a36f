import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { PartsCodec } from './parts-codec.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'

t.test('an index written before layout 4 gets its browse paths v2 joined on open', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-legacy-v2-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'search.db')
  const fx = new ContractFixture()
  const urn = ds('db.schema.orders')
  const old = new SqliteSearchIndex({ file, schema: fx.schema })
  // What the deriver wrote before: one value per path entry.
  await old.apply(
    [
      ...fx.deriver.changes(fx.dataset('db.schema.orders', {})),
      {
        kind: 'upsert',
        urn,
        entityType: 'dataset',
        aspect: 'browsePathsV2',
        fields: { browsePathV2: ['urn:li:container:db', 'schema'] },
      },
    ],
    9,
  )
  await old.close()
  // The file as layout 3 wrote it: parts keyed by names, no name codes recorded.
  const raw = new Database(file)
  raw.prepare("UPDATE meta SET value = '{\"layout\":3}' WHERE key = 'layout'").run()
  raw.prepare("DELETE FROM meta WHERE key = 'names'").run()
  const codec = PartsCodec.of(fx.schema)
  for (const r of raw.prepare('SELECT id, parts FROM docs').all() as Array<{ id: number; parts: string }>)
    raw.prepare('UPDATE docs SET parts = ? WHERE id = ?').run(JSON.stringify(codec.decode(r.parts)), r.id)
  raw.close()

  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  t.same((await index.document(urn))?.fields.browsePathV2, ['\u241Furn:li:container:db\u241Fschema'])
  const page = await index.browseV2(
    fx.requests.browseV2({
      entityTypes: ['dataset'],
      path: ['urn:li:container:db'],
      input: '*',
      start: 0,
      count: 10,
    }),
  )
  t.same(page, {
    groups: [{ name: 'schema', count: 1, hasSubGroups: false }],
    numGroups: 1,
    totalNumEntities: 1,
  })
  t.equal(await index.cursor(), 9, 'the cursor stays')
})
