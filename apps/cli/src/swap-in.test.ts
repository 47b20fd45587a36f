import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { CommandFailure } from './command-failure.js'
import { swapIn } from './swap-in.js'

function setup(t: { teardown: (fn: () => void) => void }) {
  const root = mkdtempSync(join(tmpdir(), 'catalog-swap-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const dir = join(root, 'data')
  const staging = join(dir, '.restore-1')
  mkdirSync(staging, { recursive: true })
  writeFileSync(join(dir, 'metadata.db'), 'old db')
  writeFileSync(join(dir, 'metadata.db-wal'), 'old wal')
  writeFileSync(join(dir, 'token.secret'), 'old secret')
  writeFileSync(join(staging, 'metadata.db'), 'new db')
  writeFileSync(join(staging, 'token.secret'), 'new secret')
  return { dir, staging, aside: join(dir, '.pre-restore-1') }
}

const OLD = ['metadata.db', 'metadata.db-wal', 'metadata.db-shm', 'search.db', 'token.secret']

t.test('the staged files replace the old ones; stale WAL files go aside', async (t) => {
  const { dir, staging, aside } = setup(t)
  swapIn(dir, staging, aside, OLD, ['metadata.db', 'token.secret'])
  t.equal(readFileSync(join(dir, 'metadata.db'), 'utf8'), 'new db')
  t.equal(readFileSync(join(dir, 'token.secret'), 'utf8'), 'new secret')
  t.notOk(existsSync(join(dir, 'metadata.db-wal')), 'the old WAL is not beside the new database')
  t.same(readdirSync(aside).sort(), ['metadata.db', 'metadata.db-wal', 'token.secret'])
})

t.test('a failure midway puts every old file back', async (t) => {
  const { dir, staging, aside } = setup(t)
  // search.db is not staged: its rename fails after metadata.db was already placed.
  t.throws(
    () => swapIn(dir, staging, aside, OLD, ['metadata.db', 'search.db', 'token.secret']),
    CommandFailure,
  )
  t.equal(readFileSync(join(dir, 'metadata.db'), 'utf8'), 'old db')
  t.equal(readFileSync(join(dir, 'metadata.db-wal'), 'utf8'), 'old wal')
  t.equal(readFileSync(join(dir, 'token.secret'), 'utf8'), 'old secret')
  t.notOk(existsSync(join(dir, 'search.db')), 'nothing new left behind')
  t.notOk(existsSync(aside), 'the aside dir is gone')
})
