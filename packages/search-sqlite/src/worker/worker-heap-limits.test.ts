import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { WorkerSearchIndex } from './worker-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-worker-heap-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const MB = 1024 * 1024

t.test('oldGenerationMb caps the worker thread heap; without it V8 picks the ceiling', async (t) => {
  const capped = await WorkerSearchIndex.open({
    file: join(dir, 'capped.db'),
    oldGenerationMb: 256,
    warmup: false,
  })
  t.teardown(() => capped.close())
  const free = await WorkerSearchIndex.open({ file: join(dir, 'free.db'), warmup: false })
  t.teardown(() => free.close())
  const cappedLimit = (await capped.heapStatistics()).heap_size_limit
  const freeLimit = (await free.heapStatistics()).heap_size_limit
  // The limit counts the young generation (YOUNG_GENERATION_MB) beside the old one.
  t.ok(
    cappedLimit >= 256 * MB && cappedLimit < 320 * MB,
    `capped at 256 MB plus the young generation: ${cappedLimit / MB} MB`,
  )
  t.ok(freeLimit > cappedLimit, `V8's own ceiling is higher: ${freeLimit / MB} MB`)
  t.ok((await capped.heapStatistics()).used_heap_size > 0, 'what the heap holds')
})
