/**
 * After a migration the store compacts its file (`VACUUM`); a compaction that cannot run leaves the
 * migrated file working, reported through `onMigrate`, instead of failing the open.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { STORE_SCHEMA_VERSION } from './schema.js'
import { openStoreSchema } from './sqlite-schema.js'
import { STORE_V2_DDL } from './store-v2-ddl.fixture.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
const SM = '{"lastObserved":1,"runId":"run-1","lastRunId":"no-run-id-provided"}'

function v2File(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-compact-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'metadata.db')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec(STORE_V2_DDL)
  db.pragma('user_version = 2')
  db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    URN,
    'status',
    0,
    '{"removed":false}',
    SM,
    1,
    'urn:li:corpuser:datahub',
  )
  db.close()
  return file
}

const stored = (db: Database.Database) =>
  db.prepare('SELECT urn, aspect, systemmetadata, createdby FROM metadata_aspect_v2').all()

/** `db` whose `VACUUM` fails as on a full disk (SQLite needs free space for a copy of the file). */
function fullDiskForVacuum(db: Database.Database): Database.Database {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'exec')
        return (sql: string) => {
          if (sql.trim().toUpperCase() === 'VACUUM') throw new Error('database or disk is full')
          return target.exec(sql)
        }
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

t.test('a migration whose VACUUM cannot run still opens, migrated, and says so', async (t) => {
  const db = new Database(v2File(t))
  t.teardown(() => db.close())
  const notes: string[] = []
  t.doesNotThrow(() => openStoreSchema(fullDiskForVacuum(db), (note) => notes.push(note)))
  t.equal(db.pragma('user_version', { simple: true }), STORE_SCHEMA_VERSION)
  t.same(stored(db), [
    { urn: URN, aspect: 'status', systemmetadata: SM, createdby: 'urn:li:corpuser:datahub' },
  ])
  t.equal(notes.length, 2, notes.join(' | '))
  t.match(notes[1], /not compacted \(database or disk is full\); it works as it is/)
})

t.test('a migration compacts the file when it can', async (t) => {
  const db = new Database(v2File(t))
  t.teardown(() => db.close())
  const notes: string[] = []
  openStoreSchema(db, (note) => notes.push(note))
  t.equal(notes.length, 1)
  t.equal(db.pragma('freelist_count', { simple: true }), 0)
  t.equal(stored(db).length, 1)
})
