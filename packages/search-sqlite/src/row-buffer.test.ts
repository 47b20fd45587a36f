import Database from 'better-sqlite3'
import t from 'tap'
import { RowBuffer } from './row-buffer.js'

t.test('every buffered row is written once, whatever the count left for the flush', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE r (a INTEGER NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID')
  const buffer = new RowBuffer(db, 'INSERT OR IGNORE INTO r (a, b) VALUES (?, ?)', 2)
  for (const n of [0, 1, 7, 8, 9, 17, 63, 64, 65, 130]) {
    db.exec('DELETE FROM r')
    for (let i = 0; i < n; i++) buffer.add(i, `v${i}`)
    // A repeated row is ignored, as one statement per row would.
    if (n > 0) buffer.add(0, 'v0')
    buffer.flush()
    const rows = db.prepare('SELECT a, b FROM r ORDER BY a').raw().all()
    t.same(
      rows,
      Array.from({ length: n }, (_, i) => [i, `v${i}`]),
      `${n} rows`,
    )
  }
  buffer.add(1, 'x')
  buffer.clear()
  buffer.flush()
  t.equal(db.prepare("SELECT count(*) FROM r WHERE b = 'x'").pluck().get(), 0, 'cleared rows are not written')
})
