import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const helper = fileURLToPath(new URL('./worker-exec-argv.ts', import.meta.url))

t.test('a worker starts when node itself was given flags a worker refuses', async (t) => {
  // `node --max-old-space-size=… app` is a common way to run a server; a worker given the
  // parent's flags as they are fails to start ("invalid execArgv flags"), and with it the app.
  const script = `
    const { startWorker } = await import(${JSON.stringify(helper)})
    const code = "import { parentPort } from 'node:worker_threads'; parentPort.postMessage('up')"
    const worker = startWorker(code, { eval: true })
    worker.once('message', (m) => { console.log(m); worker.terminate() })
  `
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=256', '--stack-size=900', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: 30_000 },
  )
  t.equal(run.status, 0, run.stderr)
  t.equal(run.stdout.trim(), 'up')
})
