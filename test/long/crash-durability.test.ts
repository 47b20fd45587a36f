import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startApp } from '../helpers/spawn.js'

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,crash.table_${i},PROD)`
const body = (i: number) =>
  JSON.stringify({
    proposal: {
      entityType: 'dataset',
      entityUrn: urnOf(i),
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { value: JSON.stringify({ description: `written ${i}` }), contentType: 'application/json' },
    },
  })

t.test('SIGKILL in the middle of a stream of ingests loses no acknowledged write', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-crash-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const env = { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' }
  const first = await startApp('apps/gateway/src/all-in-one.ts', env)

  const acked: number[] = []
  let next = 0
  let killed = false
  const worker = async () => {
    while (!killed) {
      const i = next++
      try {
        const res = await fetch(`${first.url}/aspects?action=ingestProposal`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(i),
        })
        if (res.status === 200) acked.push(i)
        await res.arrayBuffer()
      } catch {
        return // the connection died with the process
      }
      if (acked.length >= 300 && !killed) {
        killed = true
        first.child.kill('SIGKILL')
      }
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  await new Promise((r) =>
    first.child.exitCode === null && first.child.signalCode === null ? first.child.once('exit', r) : r(null),
  )
  t.equal(first.child.signalCode, 'SIGKILL', 'the process was killed, not stopped')
  t.ok(acked.length >= 300, `${acked.length} writes acknowledged before the kill, ${next} sent`)

  const second = await startApp('apps/gateway/src/all-in-one.ts', env)
  t.teardown(() => second.stop())
  const missing: number[] = []
  for (const i of acked) {
    const res = await fetch(
      `${second.url}/aspects/${encodeURIComponent(urnOf(i))}?aspect=datasetProperties&version=0`,
    )
    const json = (await res.json()) as { aspect?: Record<string, { description?: string }> }
    if (
      res.status !== 200 ||
      json.aspect?.['com.linkedin.dataset.DatasetProperties']?.description !== `written ${i}`
    )
      missing.push(i)
  }
  t.same(missing, [], 'every acknowledged write is there after the restart')
})
