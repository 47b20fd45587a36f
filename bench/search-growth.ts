/**
 * How the search figures grow with the catalog: `npm start`'s bundle on two loaded data dirs at
 * once (e.g. 100,000 and 300,000 datasets kept by `BENCH_SCALE_DIR`), each kind of the scale
 * benchmark sent to both in turn, request by request, so the shared machine's load weighs on
 * both alike. Prints per kind p50/p95 and the server's CPU per request for each dir, and the
 * ratio of the second to the first (CPU per request is the steadier figure), beside the scale
 * benchmark's raw baseline on A's search file, timed in the same rounds.
 * `node --import tsx bench/search-growth.ts <data dir A> <data dir B> [<kind name>...]`;
 * BENCH_SAMPLES sets the timed requests per kind and dir (default 200). BENCH_B_ROOT runs B from
 * another copy of the repository (e.g. the previous commit's, with its own `node_modules/@catalog`
 * links), to compare two implementations on two copies of one data dir.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { type Running, startBundled } from '../test/helpers/spawn.js'
import { fmt } from './lib.js'
import { send, type Timing, timeInterleaved } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { BASELINE_NAME, rawQuery, searchBody, warm } from './scale-search.js'
import { latency } from './scale-table.js'

const [dirA, dirB, ...names] = process.argv.slice(2)
if (!dirA || !dirB) throw new Error('usage: search-growth.ts <data dir A> <data dir B> [<kind name>...]')
const kinds = names.length > 0 ? scaleKinds.filter((k) => names.includes(k.name)) : scaleKinds
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200)
const start = (dataDir: string) =>
  startBundled(
    'all-in-one',
    { PORT: '0', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off', CATALOG_LOG_LEVEL: 'info' },
    600_000,
  )
/** `npm start`'s bundle of the repository at `root`, on a data dir (its URL read from its log). */
function startFrom(root: string, dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), 'all-in-one'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const url = /"url":"(http:\/\/localhost:\d+)"/.exec(output)?.[1]
      if (!url) return
      child.stdout?.off('data', onData)
      child.stderr?.off('data', onData)
      resolve({
        url: url.replace('localhost', '127.0.0.1'),
        child,
        output: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`${root} exited with ${code}:\n${output}`)))
  })
}

const a = await start(dirA)
try {
  const b = process.env.BENCH_B_ROOT ? await startFrom(process.env.BENCH_B_ROOT, dirB) : await start(dirB)
  try {
    const say = (line: string) => process.stdout.write(`${line}\n`)
    say(`A = ${dirA}, B = ${dirB}; ${SAMPLES} requests per kind and dir, interleaved`)
    await warm(a.url)
    await warm(b.url)
    const db = new Database(join(dirA, 'search.db'), { readonly: true })
    for (const kind of kinds) {
      const series = [a, b].map((app) => ({
        pid: app.child.pid as number,
        run: (i: number) =>
          send(
            `${app.url}/entities?action=${kind.action}`,
            searchBody(kind, kind.inputs[i % kind.inputs.length] as string),
          ),
      }))
      // The first requests load each index's caches.
      for (const s of series) for (let i = 0; i < kind.inputs.length; i++) await s.run(i)
      // The scale benchmark's raw baseline on A's search file, in this process, in the same rounds.
      const query = rawQuery(db, kind)
      const raw = {
        pid: process.pid,
        run: async (i: number) => query(kind.inputs[i % kind.inputs.length] as string),
      }
      const [ta, tb, tr] = (await timeInterleaved([...series, raw], SAMPLES)) as [Timing, Timing, Timing]
      say(
        `${kind.name}: A ${latency(ta)} | B ${latency(tb)} | B/A: p95 ${fmt(tb.p95 / ta.p95, 2)}×, CPU ${fmt(tb.cpuMs / ta.cpuMs, 2)}× | ${BASELINE_NAME(kind)} (A's file): ${latency({ p50: tr.p50, p95: tr.p95 })}`,
      )
    }
    db.close()
  } finally {
    await b.stop()
  }
} finally {
  await a.stop()
}
