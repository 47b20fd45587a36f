import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSearchContract } from '@catalog/search/contract'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
let current = ''

runSearchContract(t, 'sqlite', {
  async open(schema) {
    current = join(dir, `search-${n++}.db`)
    return new SqliteSearchIndex({ file: current, schema })
  },
  async reopen(schema) {
    return new SqliteSearchIndex({ file: current, schema })
  },
})
