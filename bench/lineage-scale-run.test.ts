/**
 * The other build of the lineage-only scale run starts with the node flags of the catalog under
 * test (`scripts/server-node-flags.mjs`), as `npm start` starts a catalog. `npx tap bench/lineage-scale-run.test.ts`
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { bundleStart } from './lineage-scale-run.js'

t.test('a bundle starts with the node flags of the catalog under test', async (t) => {
  const { SERVER_NODE_FLAGS } = (await import(
    new URL('../scripts/server-node-flags.mjs', import.meta.url).href
  )) as {
    SERVER_NODE_FLAGS: string[]
  }
  const dir = mkdtempSync(join(tmpdir(), 'lineage-bundle-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // A stand-in bundle: tells the flags node got.
  writeFileSync(join(dir, 'all-in-one.mjs'), 'process.stdout.write(JSON.stringify(process.execArgv))\n')
  const { args, cleanup } = await bundleStart(dir)
  const execArgv = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as string[]
  t.same(execArgv, SERVER_NODE_FLAGS, 'the flags npm start gives a catalog')
  cleanup()
  t.notOk(existsSync(args[args.length - 1] as string), 'the entry file is removed')
})
