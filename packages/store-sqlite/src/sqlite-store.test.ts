import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runStoreContract } from '@catalog/store/contract'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
let current = ''

runStoreContract(t, 'sqlite', {
  async open() {
    current = join(dir, `store-${n++}.db`)
    return new SqliteMetadataStore({ file: current })
  },
  async reopen() {
    return new SqliteMetadataStore({ file: current })
  },
})
