import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from '@catalog/cli'
import t from 'tap'
import { build, getJson } from '../helpers/build.js'
import { ROOT } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

const BIN = join(ROOT, 'apps/cli/bin/catalog.mjs')
const enc = encodeURIComponent

t.test('catalog ingest: files and directories, a summary, non-zero on failures', async (t) => {
  const { app } = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const dir = tempDir(t, 'catalog-cli-')
  const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,cli.t${n},PROD)`
  const mcp = (n: number, description: string) => ({
    entityType: 'dataset',
    entityUrn: urn(n),
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: { json: { description } },
  })
  // Two writes of one aspect in one file: the later must land last, whatever the concurrency.
  const records = Array.from({ length: 40 }, (_, n) => [mcp(n, 'first'), mcp(n, 'second')]).flat()
  writeFileSync(join(dir, 'a.json'), JSON.stringify(records))
  writeFileSync(join(dir, 'b.json'), JSON.stringify(mcp(99, 'single record file')))
  t.equal(await run(['ingest', dir, '--server', server, '--concurrency', '16']), 0)
  for (const n of [0, 17, 39]) {
    const { body } = await getJson(app, `/aspects/${enc(urn(n))}?aspect=datasetProperties&version=0`)
    t.equal(
      body.aspect['com.linkedin.dataset.DatasetProperties'].description,
      'second',
      `${urn(n)}: file order kept`,
    )
  }
  t.equal((await getJson(app, `/aspects/${enc(urn(99))}?aspect=datasetProperties&version=0`)).status, 200)

  const bad = join(dir, 'bad.json')
  writeFileSync(bad, JSON.stringify([mcp(100, 'ok'), { ...mcp(101, 'x'), entityUrn: 'not-a-urn' }]))
  t.equal(await run(['ingest', bad, '--server', server]), 1, 'a refused record: exit 1')
  process.exitCode = 0
  t.equal(
    (await getJson(app, `/aspects/${enc(urn(100))}?aspect=datasetProperties&version=0`)).status,
    200,
    'the rest went in',
  )
  t.equal(await run(['ingest', join(dir, 'missing.json'), '--server', server]), 1, 'a missing file: exit 1')
  process.exitCode = 0
  t.equal(await run(['ingest', bad, '--concurrency', '0', '--server', server]), 2, 'bad usage: exit 2')
  t.equal(await run(['no-such-command']), 2)
  t.equal(await run(['ingest', bad, '--server', 'http://127.0.0.1:1']), 1, 'no server: exit 1')
  process.exitCode = 0
})

t.test('catalog token create prints just the token on stdout', async (t) => {
  const dir = tempDir(t, 'catalog-cli-')
  const res = spawnSync(process.execPath, [BIN, 'token', 'create', '--actor', 'urn:li:corpuser:alice'], {
    cwd: ROOT,
    env: { ...process.env, CATALOG_DATA_DIR: dir },
    encoding: 'utf8',
  })
  t.equal(res.status, 0, res.stderr)
  t.match(res.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/, 'one line: the JWT')
  t.match(res.stderr, /minted token .* for urn:li:corpuser:alice/)
  const help = spawnSync(process.execPath, [BIN, '--help'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(help.status, 0)
  for (const command of ['start', 'ingest', 'sample-data', 'token']) t.match(help.stdout, command)
})
