import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { ROOT, startBundled } from './helpers/spawn.js'

/**
 * Every way the catalog starts runs node with the server's flags (V8's young generation on the
 * main thread, which only a start can set): the npm scripts and the container's entry point give
 * them, and the tests' and benchmarks' servers get them.
 */

const flags = (await import(pathToFileURL(join(ROOT, 'scripts', 'server-node-flags.mjs')).href)) as {
  SERVER_NODE_FLAGS: string[]
}

t.test('the flags: 8 MB semi-spaces on the main thread, heaps grown by half their live size', async (t) => {
  t.same(flags.SERVER_NODE_FLAGS, ['--max-semi-space-size=8', '--heap-growing-percent=50'])
})

t.test('every npm start script gives node the flags before the script', async (t) => {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<
    string,
    string
  >
  const starts = Object.entries(scripts).filter(([name]) => name === 'start' || name.startsWith('start:'))
  t.equal(starts.length, 4)
  for (const [name, command] of starts)
    t.match(command, new RegExp(`^node ${flags.SERVER_NODE_FLAGS.join(' ')} scripts/start\\.mjs `), name)
})

t.test('the bundled catalog the tests and benchmarks start runs with the flags', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-node-flags-'))
  const app = await startBundled('all-in-one', { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' })
  t.teardown(async () => {
    await app.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const argv = readFileSync(`/proc/${app.child.pid}/cmdline`, 'utf8').split('\0')
  for (const flag of flags.SERVER_NODE_FLAGS) t.ok(argv.includes(flag), `${flag} in ${argv.join(' ')}`)
  t.equal((await fetch(`${app.url}/health`)).status, 200)
})
