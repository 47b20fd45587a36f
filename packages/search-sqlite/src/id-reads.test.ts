import Database from 'better-sqlite3'
import t from 'tap'
import { concatIds, idsUpTo, parseIds } from './id-reads.js'

/** An FTS5 table of 5,000 rows: `common` in every third row, `rare` in rows 4,000 and up that are multiples of 97. */
function fixture() {
  const db = new Database(':memory:')
  db.exec("CREATE VIRTUAL TABLE fts USING fts5 (body, content='')")
  const insert = db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)')
  db.transaction(() => {
    for (let id = 1; id <= 5000; id++)
      insert.run(id, [id % 3 === 0 ? 'common' : 'other', id >= 4000 && id % 97 === 0 ? 'rare' : ''].join(' '))
  })()
  const statement = (sql: string) => db.prepare(sql)
  const all = (word: string) =>
    db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid').pluck().all(word) as number[]
  return { db, statement, all }
}

t.test('parseIds reads comma-separated ids, negative ones included', async (t) => {
  t.same(parseIds('7'), [7])
  t.same(parseIds('1,22,333,-4,0'), [1, 22, 333, -4, 0])
})

t.test('concatIds gives every id of a select, in its order, and none for no row', async (t) => {
  const { db, statement, all } = fixture()
  t.teardown(() => db.close())
  t.same(concatIds(statement, 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?', ['common']), all('common'))
  t.same(
    concatIds(statement, 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ? LIMIT ?', ['common', 10]),
    all('common').slice(0, 10),
  )
  t.same(concatIds(statement, 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?', ['absent']), [])
})

t.test('idsUpTo gives exactly the ids up to the bound, however the list and the bound compare', async (t) => {
  const { db, statement, all } = fixture()
  t.teardown(() => db.close())
  const select = 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?'
  for (const word of ['common', 'rare', 'other', 'absent'])
    for (const bound of [0, 1, 3, 500, 3071, 3072, 4000, 4850, 5000, 99_999]) {
      const expected = all(word).filter((id) => id <= bound)
      t.same(idsUpTo(statement, select, [word], bound), expected, `${word} up to ${bound}`)
    }
})
