import { type ChildProcess, execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { ROOT, spawnNode, startApp } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

const BIN = join(ROOT, 'apps/cli/bin/catalog.mjs')
const N = 15_000
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,killprobe.table_${i},PROD)`
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }
const mcp = (i: number, aspectName: string, value: unknown) =>
  JSON.stringify({
    entityType: 'dataset',
    entityUrn: urnOf(i),
    changeType: 'UPSERT',
    aspectName,
    aspect: { json: value, contentType: 'application/json' },
  })

/**
 * N datasets with lineage, then a second description for each: a resume that re-applied records
 * from before its checkpoint would write the first description again as a new version.
 */
function writeInput(file: string): void {
  const lines: string[] = []
  for (let i = 0; i < N; i++) {
    lines.push(mcp(i, 'datasetProperties', { description: `killprobe first text ${i}` }))
    if (i > 0)
      lines.push(
        mcp(i, 'upstreamLineage', {
          upstreams: [{ dataset: urnOf(i - 1), type: 'TRANSFORMED', auditStamp: stamp }],
        }),
      )
  }
  for (let i = 0; i < N; i++)
    lines.push(mcp(i, 'datasetProperties', { description: `killprobe second text ${i}` }))
  writeFileSync(file, `${lines.join('\n')}\n`)
}

function importer(dataDir: string, input: string): ChildProcess {
  return spawnNode([BIN, 'import', input], {
    cwd: ROOT,
    env: { ...process.env, CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function finished(child: ChildProcess): Promise<{ code: number | null; signal: string | null; out: string }> {
  let out = ''
  child.stdout?.on('data', (c) => (out += String(c)))
  child.stderr?.on('data', (c) => (out += String(c)))
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, out })))
}

/**
 * Polls `probe` on the store file (read-only, beside the writer) every 5 ms until it is true;
 * false if `child` ends first. The file is opened only once `started()` holds: an import
 * refuses to start while another process has the store open, and this connection would be one.
 */
async function waitFor(
  child: ChildProcess,
  dataDir: string,
  probe: (db: Database.Database) => boolean,
  started: () => boolean = () => true,
): Promise<boolean> {
  const file = join(dataDir, 'metadata.db')
  let db: Database.Database | undefined
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) return false
      if (!db && started() && existsSync(file))
        db = new Database(file, { readonly: true, fileMustExist: true })
      try {
        if (db && probe(db)) return true
      } catch {
        // the tables are not there yet
      }
      await new Promise((r) => setTimeout(r, 5))
    }
  } finally {
    db?.close()
  }
}

function contents(dataDir: string) {
  const db = new Database(join(dataDir, 'metadata.db'), { readonly: true })
  try {
    return {
      aspects: db
        .prepare(
          "SELECT urn, aspect, version, metadata, json_remove(systemmetadata, '$.lastObserved') AS sm FROM metadata_aspect_v2 ORDER BY urn, aspect, version",
        )
        .raw()
        .all(),
      edges: db.prepare('SELECT * FROM edges ORDER BY source, type, destination, aspect').raw().all(),
    }
  } finally {
    db.close()
  }
}

function catalog(args: string[], dataDir: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env: { ...process.env, CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    )
  })
}

t.test(
  'catalog import killed with -9 (loading, then indexing) resumes: nothing duplicated, all searchable',
  async (t) => {
    const input = join(tempDir(t, 'import-kill-in-'), 'datasets.jsonl')
    writeInput(input)

    const clean = tempDir(t, 'import-clean-')
    const reference = await finished(importer(clean, input))
    t.equal(reference.code, 0, reference.out)

    // The second kill must land while search documents are built, a window of a few seconds:
    // on a fast run the import may finish first, so a miss starts over in a new dir (3 tries).
    let dir = ''
    for (let attempt = 1; ; attempt++) {
      dir = tempDir(t, 'import-kill-')
      // 1: killed after its first commit, in the middle of the load.
      let child = importer(dir, input)
      let exit = finished(child)
      const loading = await waitFor(
        child,
        dir,
        (db) =>
          (
            db.prepare('SELECT position, done FROM bulk_import_progress').get() as
              | { done: number }
              | undefined
          )?.done === 0,
      )
      child.kill('SIGKILL')
      const first = await exit
      // 2: resumed, then killed once some (not all) search documents are built.
      child = importer(dir, input)
      exit = finished(child)
      let said = ''
      child.stderr?.on('data', (c) => (said += String(c)))
      const indexing = await waitFor(
        child,
        dir,
        (db) => {
          const left = db.prepare('SELECT COUNT(*) FROM bulk_import_touched').pluck().get() as number
          const done = db.prepare('SELECT done FROM bulk_import_progress').pluck().get() as number
          return done === 1 && left > 0 && left < N
        },
        () => /resuming after record/.test(said),
      )
      child.kill('SIGKILL')
      const second = await exit
      if (loading && indexing) {
        t.equal(first.signal, 'SIGKILL', 'killed while loading')
        t.match(said, /resuming after record \d+/, 'the second run resumed')
        t.equal(second.signal, 'SIGKILL', 'killed while indexing')
        break
      }
      t.comment(
        `try ${attempt}: the import ended before the point to kill it (${loading ? 'indexing' : 'loading'})`,
      )
      if (attempt === 3) {
        t.fail('three imports ended before they could be killed at the points this test needs')
        return
      }
    }
    // 3: to the end.
    const last = await finished(importer(dir, input))
    t.equal(last.code, 0, last.out)

    const a = contents(dir)
    const b = contents(clean)
    t.equal(
      a.aspects.length,
      b.aspects.length,
      'as many aspect rows as an import never killed (no extra versions)',
    )
    t.same(a.aspects, b.aspects, 'the same rows')
    t.same(a.edges, b.edges, 'the same edges, none twice')

    const check = await catalog(['check'], dir)
    t.equal(check.code, 0, `catalog check finds search documents and edges consistent: ${check.out}`)

    const app = await startApp('apps/gateway/src/all-in-one.ts', {
      CATALOG_DATA_DIR: dir,
      CATALOG_AUTH: 'off',
      PORT: '0',
    })
    t.teardown(() => app.stop())
    t.match(app.output(), /search index caught up: 0 change-log entries applied/, 'nothing left to replay')
    const refused = await catalog(['import', input], dir)
    t.equal(refused.code, 1)
    t.match(refused.out, /a catalog is running on .*stop it before importing/)

    const post = (path: string, body: unknown) =>
      fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { value: Record<string, unknown> },
      }))
    const search = await post('/entities?action=search', {
      input: 'killprobe',
      entity: 'dataset',
      start: 0,
      count: 1,
    })
    t.equal(search.status, 200)
    t.equal(search.body.value.numEntities, 10_000, 'matches counted up to 10,000, as DataHub does')
    const docs = new Database(join(dir, 'search.db'), { readonly: true })
    t.equal(
      docs.prepare('SELECT COUNT(*) FROM docs').pluck().get(),
      N,
      'every imported dataset has its document',
    )
    docs.close()
    const one = await post('/entities?action=search', {
      input: 'killprobe.table_4321',
      entity: 'dataset',
      start: 0,
      count: 3,
    })
    t.same(one.body.value.entities, [urnOf(4321)], 'a dataset is found by its name')
    const latest = await fetch(
      `${app.url}/aspects/${encodeURIComponent(urnOf(4321))}?aspect=datasetProperties&version=0`,
    )
    t.match(await latest.text(), /killprobe second text 4321/, 'the latest description is version 0')
    const browse = await post('/entities?action=browse', {
      path: '/prod/hive',
      entity: 'dataset',
      start: 0,
      limit: 10,
    })
    t.equal(browse.status, 200)
    t.ok(JSON.stringify(browse.body).includes('killprobe'), 'browse finds them')
    const rel = await fetch(
      `${app.url}/relationships?urn=${encodeURIComponent(urnOf(100))}&types=List(DownstreamOf)&direction=INCOMING`,
    )
    const relBody = (await rel.json()) as { relationships: Array<{ entity: string }> }
    t.same(
      relBody.relationships.map((r) => r.entity),
      [urnOf(101)],
      'relationships come from the imported edges',
    )
  },
)
