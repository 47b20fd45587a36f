import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { ROOT, startApp } from '../helpers/spawn.js'

const BIN = join(ROOT, 'apps/cli/bin/catalog.mjs')
const ALL_IN_ONE = 'apps/gateway/src/all-in-one.ts'
const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,backup.table_${i},PROD)`
const stamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

/** The proposals of write `i`: its properties, and lineage from the previous table. */
function proposals(i: number): object[] {
  const mcp = (aspectName: string, value: object) => ({
    entityType: 'dataset',
    entityUrn: urnOf(i),
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  })
  const out = [mcp('datasetProperties', { description: `backupprobe number ${i}` })]
  if (i > 0)
    out.push(
      mcp('upstreamLineage', {
        upstreams: [{ dataset: urnOf(i - 1), type: 'TRANSFORMED', auditStamp: stamp }],
      }),
    )
  return out
}

interface CliResult {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs the real `catalog` binary in its own process; `onStderr` sees its progress lines as they come. */
function catalog(
  args: string[],
  env: Record<string, string>,
  onStderr?: (chunk: string) => void,
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env: { ...process.env, CATALOG_AUTH: 'off', ...env }, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const status = err ? Number((err as { code?: number }).code ?? 1) : 0
        resolve({ status, stdout, stderr })
      },
    )
    if (onStderr) child.stderr?.on('data', (chunk: Buffer | string) => onStderr(String(chunk)))
  })
}

async function post(url: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

const searchCount = async (url: string, input: string) =>
  (
    (await post(url, '/entities?action=search', { input, entity: 'dataset', start: 0, count: 10 })).body as {
      value: { numEntities: number }
    }
  ).value.numEntities

const tmp = (t: { teardown: (fn: () => void) => void }, name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `catalog-${name}-`))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test(
  'backup while ingesting, check online, restore refused while running, restore and start',
  async (t) => {
    const dataDir = join(tmp(t, 'backup-src'), 'data')
    const server = await startApp(ALL_IN_ONE, { PORT: '0', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' })
    t.teardown(() => server.stop())

    // A writer keeps ingesting (sequentially, so ack order is write order) through the backup.
    const acked: Array<{ i: number; at: number }> = []
    let stop = false
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await post(server.url, '/aspects?action=ingestProposalBatch', { proposals: proposals(i) })
        if (res.status !== 200) throw new Error(`ingest ${i} failed: ${JSON.stringify(res.body)}`)
        acked.push({ i, at: Date.now() })
      }
    })()
    while (acked.length < 50) await new Promise((r) => setTimeout(r, 20))

    const backupDir = join(tmp(t, 'backup-dst'), 'bk')
    // The backup has started copying once it reports progress on its first file (the index;
    // the store is copied after it): every write acknowledged before then must be in the copy.
    let started = Number.POSITIVE_INFINITY
    // A check of the live data dir runs at the same time, while the writer writes.
    const checking = catalog(['check'], { CATALOG_DATA_DIR: dataDir })
    const backup = await catalog(['backup', backupDir], { CATALOG_DATA_DIR: dataDir }, (chunk) => {
      if (started === Number.POSITIVE_INFINITY && /search\.db: 0%/.test(chunk)) started = Date.now()
    })
    const ackedBefore = acked.filter((a) => a.at < started).map((a) => a.i)
    const ackedDuring = acked.filter((a) => a.at >= started).length
    const online = await checking
    stop = true
    await writer
    t.equal(backup.status, 0, 'backup: exit 0', { stderr: backup.stderr })
    t.match(backup.stdout, /^backed up .* to .*bk: 3 files, .* change log at \d+, search index at \d+/)
    t.equal(backup.stdout.trim().split('\n').length, 1, 'one summary line on stdout')
    t.match(backup.stderr, /metadata\.db: 100%/, 'progress on stderr')
    t.ok(ackedBefore.length > 50, `${ackedBefore.length} writes acknowledged before the copy started`)
    t.ok(ackedDuring > 0, `the writer kept writing during the backup (${ackedDuring} writes)`)

    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'))
    t.same(manifest.files.map((f: { name: string }) => f.name).sort(), [
      'metadata.db',
      'search.db',
      'token.secret',
    ])
    t.ok(manifest.searchCursor <= manifest.changeLogHead, 'the copied index is not ahead of the copied log')
    t.equal(statSync(join(backupDir, 'token.secret')).mode & 0o777, 0o600, 'the secret stays 0600')
    const copy = new Database(join(backupDir, 'metadata.db'), { readonly: true })
    const inBackup = new Set(
      copy
        .prepare("SELECT urn FROM metadata_aspect_v2 WHERE aspect = 'datasetProperties' AND version = 0")
        .pluck()
        .all() as string[],
    )
    t.equal(copy.pragma('integrity_check', { simple: true }), 'ok')
    copy.close()
    const lost = ackedBefore.filter((i) => !inBackup.has(urnOf(i)))
    t.same(lost, [], `all ${ackedBefore.length} writes acknowledged before the backup started are in it`)

    t.equal(online.status, 0, 'check of the data dir while it is written is clean', {
      stdout: online.stdout,
      stderr: online.stderr,
    })
    t.match(online.stdout, /edges: \d+ aspects .* 0 missing, 0 extra/)
    t.comment(online.stdout.split('\n').find((line) => line.startsWith('search:')) ?? '')

    const refused = await catalog(['restore', backupDir, '--force'], { CATALOG_DATA_DIR: dataDir })
    t.equal(refused.status, 1, 'restore into a data dir a server has open: exit 1')
    t.match(refused.stderr, new RegExp(`a catalog is running on .*process ${server.child.pid}`))
    t.ok(await searchCount(server.url, 'backupprobe'), 'the running catalog is untouched')

    const target = join(tmp(t, 'restore'), 'data')
    const restored = await catalog(['restore', backupDir], { CATALOG_DATA_DIR: target })
    t.equal(restored.status, 0, 'restore into a fresh dir: exit 0', { stderr: restored.stderr })
    t.match(restored.stdout, /^restored the backup of .* into .*: 3 files/)
    t.equal(statSync(join(target, 'token.secret')).mode & 0o777, 0o600)
    const again = await catalog(['restore', backupDir], { CATALOG_DATA_DIR: target })
    t.equal(again.status, 1, 'a data dir with a catalog needs --force')
    t.match(again.stderr, /is not empty .* pass --force/)

    const second = await startApp(ALL_IN_ONE, { PORT: '0', CATALOG_DATA_DIR: target, CATALOG_AUTH: 'off' })
    t.teardown(() => second.stop())
    const last = ackedBefore.at(-1)!
    const res = await fetch(
      `${second.url}/aspects/${encodeURIComponent(urnOf(last))}?aspect=datasetProperties&version=0`,
    )
    t.equal(res.status, 200, 'a write from before the backup is readable after the restore')
    t.equal(
      await searchCount(second.url, 'backupprobe'),
      inBackup.size,
      'search finds every restored dataset',
    )
    const lineage = await fetch(
      `${second.url}/relationships?direction=INCOMING&urn=${encodeURIComponent(urnOf(0))}&types=DownstreamOf`,
    )
    t.equal(lineage.status, 200)
    t.match(JSON.stringify(await lineage.json()), urnOf(1), 'edges came along')
    await second.stop()

    const forced = await catalog(['restore', backupDir, '--force'], { CATALOG_DATA_DIR: target })
    t.equal(forced.status, 0, '--force replaces a stopped catalog', { stderr: forced.stderr })
  },
)

t.test('check finds a deleted edge and a deleted search document', async (t) => {
  const dataDir = join(tmp(t, 'check'), 'data')
  const server = await startApp(ALL_IN_ONE, { PORT: '0', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' })
  t.teardown(() => server.stop())
  for (let i = 0; i < 5; i++) {
    const res = await post(server.url, '/aspects?action=ingestProposalBatch', { proposals: proposals(i) })
    t.equal(res.status, 200)
  }
  await server.stop()
  const clean = await catalog(['check', '--json'], { CATALOG_DATA_DIR: dataDir })
  t.equal(clean.status, 0, 'check of a good data dir: exit 0', { stdout: clean.stdout })
  const report = JSON.parse(clean.stdout)
  t.equal(report.mismatches, 0)
  t.ok(report.edges.stored >= 4, `edges compared (${report.edges.stored})`)
  t.ok(report.search.entities >= 5, `entities compared (${report.search.entities})`)

  const store = new Database(join(dataDir, 'metadata.db'))
  store.prepare("DELETE FROM edges WHERE source = ? AND type = 'DownstreamOf'").run(urnOf(3))
  store.close()
  const index = new Database(join(dataDir, 'search.db'))
  index.prepare('DELETE FROM docs WHERE urn = ?').run(urnOf(2))
  index.close()
  const broken = await catalog(['check'], { CATALOG_DATA_DIR: dataDir })
  t.equal(broken.status, 1, 'mismatches: exit 1')
  t.match(broken.stdout, `edge-missing: ${urnOf(3)} -[DownstreamOf]-> ${urnOf(2)}`)
  t.match(broken.stdout, `document-missing: ${urnOf(2)} has no search document`)
  t.match(broken.stdout, /check: 2 mismatches/)
})

t.test('refusals: other backends, damaged backups', async (t) => {
  const dataDir = join(tmp(t, 'refuse'), 'data')
  const neo4j = await catalog(['backup', join(dataDir, 'x')], {
    CATALOG_DATA_DIR: dataDir,
    CATALOG_STORE: 'neo4j',
    NEO4J_URI: 'bolt://127.0.0.1:1',
  })
  t.equal(neo4j.status, 2, 'not the embedded store: exit 2')
  t.match(neo4j.stderr, /embedded SQLite store and search index only; .*CATALOG_STORE=neo4j/)

  const token = await catalog(['token', 'create', '--actor', 'urn:li:corpuser:alice'], {
    CATALOG_DATA_DIR: dataDir,
  })
  t.equal(token.status, 0, 'token create', { stderr: token.stderr })
  const backupDir = join(tmp(t, 'refuse-bk'), 'bk')
  t.equal((await catalog(['backup', backupDir], { CATALOG_DATA_DIR: dataDir })).status, 0)
  const file = join(backupDir, 'metadata.db')
  const bytes = readFileSync(file)
  bytes[bytes.length - 100] = (bytes[bytes.length - 100]! + 1) % 256
  chmodSync(file, 0o644)
  writeFileSync(file, bytes)
  const target = join(tmp(t, 'refuse-target'), 'data')
  const damaged = await catalog(['restore', backupDir], { CATALOG_DATA_DIR: target })
  t.equal(damaged.status, 1)
  t.match(damaged.stderr, /is damaged:\n {2}metadata\.db does not match the manifest/)
  t.throws(() => statSync(join(target, 'metadata.db')), 'nothing restored')
})
