import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadOrCreateSecret } from '@catalog/auth'
import { loadConfig } from '@catalog/config'
import { Registry } from '@catalog/core'
import { createServer } from '@catalog/http-kit'
import { SearchSchema } from '@catalog/search-service'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t from 'tap'
import { backupDataDir } from '../../apps/cli/src/commands/backup.js'
import { isInternalPath } from '../../apps/gateway/src/plugins/internal-guard.js'
import { proxyRoutes } from '../../apps/gateway/src/proxy.js'
import { build } from '../helpers/build.js'

/** What the public gateway exposes, and who may read the files in the data dir. */

const INTERNAL = [
  '/internal/changes?after=0&limit=10',
  '/internal/search/stats',
  '/%69nternal/changes?after=0',
  '//internal/changes',
  '/INTERNAL/changes',
  '/internal/changes/',
]

const mode = (file: string) => statSync(file).mode & 0o777

t.test('the one-process gateway never serves /internal/*', async (t) => {
  const { app, adminToken } = await build(t, { auth: true })
  const headers = { authorization: `Bearer ${adminToken}` }
  t.equal((await app.inject({ method: 'GET', url: INTERNAL[0] as string })).statusCode, 401, 'no token: 401')
  for (const url of INTERNAL) {
    const res = await app.inject({ method: 'GET', url, headers })
    t.equal(res.statusCode, 404, `${url}: 404 even for the admin`)
    t.match(JSON.parse(res.body), { status: 404, message: /^No root resource defined for path/ })
  }
  const sync = await app.inject({ method: 'POST', url: '/internal/search/sync', headers, payload: {} })
  t.equal(sync.statusCode, 404, 'POST /internal/search/sync')
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200, 'other routes answer')
})

t.test('the split-mode proxy never forwards /internal/*', async (t) => {
  const backend = createServer()
  let forwarded = 0
  backend.all('/*', async () => {
    forwarded++
    return { forwarded: true }
  })
  const base = await backend.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => backend.close())
  const gateway = createServer()
  await gateway.register(proxyRoutes, { targets: { metadata: base, search: base } })
  t.teardown(() => gateway.close())
  for (const url of INTERNAL) {
    t.equal((await gateway.inject({ method: 'GET', url })).statusCode, 404, `${url}: 404`)
  }
  t.equal(forwarded, 0, 'nothing reached the services')
  const other = await gateway.inject({ method: 'GET', url: '/entitiesV2/x' })
  t.same([other.statusCode, forwarded], [200, 1], 'other routes are forwarded')
  t.notOk(isInternalPath('/internals'), 'only /internal and below')
  t.notOk(isInternalPath('/entities?x=/internal/'), 'the query does not count')
})

t.test('a new data dir is 0700; database and secret files 0600', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'catalog-modes-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const dir = join(root, 'data')
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db') })
  t.equal(mode(dir), 0o700, 'data dir')
  t.equal(mode(join(dir, 'metadata.db')), 0o600, 'metadata.db')
  t.equal(mode(join(dir, 'metadata.db-wal')), 0o600, 'its WAL file')
  await store.close()
  const searchDir = join(root, 'search')
  const index = new SqliteSearchIndex({
    file: join(searchDir, 'search.db'),
    schema: new SearchSchema(new Registry()),
  })
  t.equal(mode(searchDir), 0o700, 'search data dir')
  t.equal(mode(join(searchDir, 'search.db')), 0o600, 'search.db')
  await index.close()
  const secretDir = join(root, 'secret')
  const secret = loadOrCreateSecret(secretDir)
  t.equal(mode(secretDir), 0o700, 'secret dir')
  t.equal(mode(secret.file as string), 0o600, 'token.secret')
  const reopened = new SqliteMetadataStore({ file: join(dir, 'metadata.db') })
  t.equal(await reopened.head(), 0, 'the pre-created empty file opens as a new database')
  await reopened.close()
})

t.test('a backup keeps the modes of the database files', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'catalog-backup-modes-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const dir = join(root, 'data')
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db') })
  await store.close()
  loadOrCreateSecret(dir)
  const config = loadConfig({ CATALOG_DATA_DIR: dir })
  await backupDataDir(config, join(root, 'backup'), { version: 'test', say: () => {} })
  t.equal(mode(join(root, 'backup', 'metadata.db')), 0o600, 'metadata.db stays 0600')
  t.equal(mode(join(root, 'backup', 'token.secret')), 0o600, 'token.secret stays 0600')
  t.equal(mode(join(root, 'backup')), 0o700, 'the backup dir is 0700')
})
