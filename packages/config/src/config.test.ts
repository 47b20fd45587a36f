import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t from 'tap'
import { ConfigError, loadConfig, loadEnvFile } from './index.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

t.test('defaults, conversion, and one line per bad setting with the allowed values', async (t) => {
  const config = loadConfig({ PORT: '9000' })
  t.equal(config.PORT, 9000)
  t.equal(config.CATALOG_AUTH, 'on')
  t.throws(() => loadConfig({ CATALOG_AUTH: 'maybe', PORT: 'x' }), {
    constructor: ConfigError,
    message: 'PORT="x": must be integer\nCATALOG_AUTH="maybe": expected one of on, off',
  })
  t.throws(() => loadConfig({ CATALOG_STORE: 'neo4j' }), { message: 'CATALOG_STORE=neo4j needs NEO4J_URI' })
  t.equal(config.CATALOG_NATIVE_HEAP_TRIM, 'on')
  t.equal(config.CATALOG_NATIVE_HEAP_TRIM_BUSY_MS, 10_000)
  t.throws(() => loadConfig({ CATALOG_NATIVE_HEAP_TRIM_BUSY_MS: '10' }), {
    message: 'CATALOG_NATIVE_HEAP_TRIM_BUSY_MS=10: must be >= 1000',
  })
})

t.test('.env fills what the environment does not set', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-env-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'custom.env')
  writeFileSync(file, '# comment\nPORT=9100\nCATALOG_LOG_LEVEL="debug"\n')
  const env: NodeJS.ProcessEnv = { CATALOG_ENV_FILE: file, CATALOG_LOG_LEVEL: 'warn' }
  loadEnvFile(env)
  t.equal(env.PORT, '9100')
  t.equal(env.CATALOG_LOG_LEVEL, 'warn', 'the environment wins')
  t.throws(
    () => loadEnvFile({ CATALOG_ENV_FILE: join(dir, 'missing.env') }),
    ConfigError,
    'a named file must exist',
  )
  t.doesNotThrow(() => loadEnvFile({}), 'no .env is fine')
})

t.test('a bad setting stops the process with one clear line and status 2', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-env-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // typebox and jose from the bundles `npm install` made, as every test process loads them
  const prebundled = pathToFileURL(join(ROOT, 'test/scripts/prebundled-deps.mjs')).href
  const entry = join(ROOT, 'apps/gateway/src/all-in-one.ts')
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', prebundled, entry], {
    cwd: ROOT,
    env: { ...process.env, CATALOG_AUTH: 'maybe', CATALOG_DATA_DIR: dir, PORT: '0' },
    encoding: 'utf8',
    timeout: 30_000,
  })
  t.equal(res.status, 2)
  t.equal(res.stderr.trim(), 'catalog: invalid configuration: CATALOG_AUTH="maybe": expected one of on, off')
  t.equal(res.stdout, '')
})

t.test(
  'admission bounds: 64 writes in flight and 500 ms of loop lag by default, 0 turns one off',
  async (t) => {
    const config = loadConfig({})
    t.equal(config.CATALOG_MAX_INFLIGHT_WRITES, 64)
    t.equal(config.CATALOG_MAX_LOOP_LAG_MS, 500)
    const set = loadConfig({ CATALOG_MAX_INFLIGHT_WRITES: '0', CATALOG_MAX_LOOP_LAG_MS: '250' })
    t.equal(set.CATALOG_MAX_INFLIGHT_WRITES, 0)
    t.equal(set.CATALOG_MAX_LOOP_LAG_MS, 250)
    t.throws(() => loadConfig({ CATALOG_MAX_INFLIGHT_WRITES: '-1', CATALOG_MAX_LOOP_LAG_MS: 'lots' }), {
      constructor: ConfigError,
      message:
        'CATALOG_MAX_INFLIGHT_WRITES=-1: must be >= 0\nCATALOG_MAX_LOOP_LAG_MS="lots": must be integer',
    })
  },
)
