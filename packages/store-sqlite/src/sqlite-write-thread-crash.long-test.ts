import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { checkDatabase } from './sqlite-file.js'
import { SqliteMetadataStore } from './sqlite-store.js'

const WRITER = fileURLToPath(new URL('./sqlite-crash-writer.fixture.ts', import.meta.url))

/** Runs the crash writer on `file` (with `args`) until `enough(acked)`, then kills it; resolves with the acknowledged writes. */
async function killWhen(
  t: Test,
  file: string,
  args: readonly string[],
  enough: (acked: Set<number>) => boolean,
): Promise<Set<number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const acked = new Set<number>()
  let output = ''
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const lines = output.split('\n')
      output = lines.pop() ?? ''
      for (const line of lines) acked.add(Number(line.slice('acked '.length)))
      if (enough(acked) && child.exitCode === null) {
        child.kill('SIGKILL')
        resolve()
      }
    })
    child.once('exit', () => resolve())
  })
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r))
  t.equal(child.signalCode, 'SIGKILL', `killed after ${acked.size} acknowledged writes`)
  return acked
}

t.test('sqlite: SIGKILL while the writer thread commits loses no acknowledged write', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-crash-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'crash.db')
  // Killed once 8 large writes (every third) were acknowledged, with more in flight.
  const acked = await killWhen(t, file, [], (acked) => [...acked].filter((i) => i % 3 === 0).length >= 8)

  t.same(checkDatabase(file), [], 'the file is sound')
  const store = new SqliteMetadataStore({ file })
  t.teardown(() => store.close())
  const missing: number[] = []
  for (const i of acked) {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${i},PROD)`
    const aspects = (await store.latest([urn])).get(urn) ?? []
    const stored = aspects.find((a) => a.aspect === (i % 3 === 0 ? 'schemaMetadata' : 'status'))
    const ok =
      i % 3 === 0 ? (stored?.value.fields as unknown[] | undefined)?.length === 3_000 : stored !== undefined
    if (!ok) missing.push(i)
  }
  t.same(missing, [], 'every acknowledged write, large or small, is there after the kill')
  const tagged = await store.relationships({
    urn: 'urn:li:tag:t2999',
    direction: 'INCOMING',
    types: ['SchemaFieldTaggedWith'],
    start: 0,
    count: 1000,
  })
  const largeAcked = [...acked].filter((i) => i % 3 === 0)
  t.ok(
    largeAcked.every((i) =>
      tagged.relationships.some(
        (r) => r.entity === `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${i},PROD)`,
      ),
    ),
    'with their edges',
  )
})

t.test(
  'sqlite: SIGKILL amid small writes while the writer thread checkpoints loses no acknowledged write',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-crash-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'crash.db')
    // About 60 MB of WAL frames at ~10 KB per write: many checkpoints of 4 MB, and the kill
    // somewhere among them.
    const acked = await killWhen(t, file, ['small'], (acked) => acked.size >= 6_000)
    t.ok(
      statSync(`${file}-wal`).size < 12 * 1024 * 1024,
      'the WAL was checkpointed and restarted meanwhile (it stayed short)',
    )
    t.same(checkDatabase(file), [], 'the file is sound')
    const store = new SqliteMetadataStore({ file })
    t.teardown(() => store.close())
    const missing: number[] = []
    for (const i of acked) {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${i},PROD)`
      const stored = (await store.latest([urn], ['datasetProperties'])).get(urn)?.[0]
      if (!String(stored?.value.description).startsWith(`write ${i} `)) missing.push(i)
    }
    t.same(missing, [], 'every acknowledged write is there after the kill')
  },
)
