import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import t from 'tap'
import { loadMallocTrim, startNativeHeapTrim, type TrimFunction } from './native-heap-trim.js'
import { nativeHeapTrimOf } from './run.js'

/**
 * A CPU clock for the test: it moves by hand (`add`) and, while `busy` is on, as fast as the wall
 * clock (a whole core), so every tick of a busy stretch sees work however late timers fire.
 */
function fakeCpu() {
  let ms = 0
  let since: number | undefined
  const now = () => ms + (since === undefined ? 0 : performance.now() - since)
  return {
    add: (n: number) => {
      ms += n
    },
    busy: (on: boolean) => {
      if (on) since = performance.now()
      else {
        ms = now()
        since = undefined
      }
    },
    usage: () => ({ user: now() * 1000, system: 0 }),
  }
}

/** A trim function that counts its calls. */
function countingTrim(): { calls: number; fn: TrimFunction } {
  const c = { calls: 0, fn: () => ++c.calls && 1 }
  return c
}

// Loading fails where koffi is not installed or libc is not glibc: the case of the next test.
let loaded: TrimFunction | string
try {
  loaded = loadMallocTrim()
} catch (err) {
  loaded = `malloc_trim unavailable here: ${String(err)}`
}

t.test(
  'on this glibc Linux malloc_trim loads and trims without throwing',
  { skip: typeof loaded === 'string' ? loaded : false },
  async (t) => {
    const trim = loaded as TrimFunction
    const freed = Array.from({ length: 2000 }, () => Buffer.alloc(64 * 1024, 1))
    freed.length = 0
    t.ok([0, 1].includes(trim()), 'returns 0 or 1')
  },
)

t.test('when the library cannot load it does nothing, throws nothing, logs one debug line', async (t) => {
  const lines: string[] = []
  const trim = startNativeHeapTrim({
    load: () => {
      throw new Error('Cannot find module koffi')
    },
    log: { debug: (_obj, msg) => lines.push(msg) },
    tickMs: 5,
  })
  t.equal(trim.active, false)
  await sleep(30)
  t.same(trim.stats(), { trims: 0, ms: 0 })
  t.equal(lines.length, 1)
  t.match(lines[0], /unavailable/)
  trim.close()
})

t.test('trims when a burst ends, not while idle', async (t) => {
  const cpu = fakeCpu()
  const c = countingTrim()
  const trim = startNativeHeapTrim({ load: () => c.fn, cpuUsage: cpu.usage, tickMs: 10, busyEveryMs: 1e9 })
  t.teardown(() => trim.close())
  await sleep(60)
  t.equal(c.calls, 0, 'idle from the start: no trim')
  // Busy: a whole core, no trim while it lasts (busyEveryMs is huge).
  cpu.busy(true)
  await sleep(200)
  t.equal(c.calls, 0, 'no trim while busy')
  cpu.busy(false)
  await sleep(150)
  t.equal(c.calls, 1, 'one trim once quiet')
  await sleep(100)
  t.equal(c.calls, 1, 'no more while idle')
  t.equal(trim.stats().trims, 1)
})

t.test('trims periodically while busy', async (t) => {
  const cpu = fakeCpu()
  const c = countingTrim()
  const trim = startNativeHeapTrim({ load: () => c.fn, cpuUsage: cpu.usage, tickMs: 10, busyEveryMs: 40 })
  t.teardown(() => trim.close())
  // A trim needs 100 ms of CPU since the last one, so 450 ms of a whole core make 2 to 4.
  cpu.busy(true)
  await sleep(450)
  cpu.busy(false)
  t.ok(c.calls >= 2, `${c.calls} trims in 450 ms of work`)
  t.ok(c.calls <= 4, `${c.calls} trims, not one per tick`)
})

t.test('the timer is unref’d: a process with nothing else to do exits', async (t) => {
  // A child that starts trimming (with a trim that does nothing) and then has no other work:
  // it exits at once only if the timer does not hold it.
  const module = pathToFileURL(join(import.meta.dirname, 'native-heap-trim.ts')).href
  const code = `const { startNativeHeapTrim } = await import(${JSON.stringify(module)});
    const trim = startNativeHeapTrim({ load: () => () => 0, tickMs: 10 });
    if (!trim.active) process.exit(3)`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: import.meta.dirname,
    timeout: 30_000,
    encoding: 'utf8',
  })
  t.equal(child.signal, null, 'not killed by the timeout')
  t.equal(child.status, 0, child.stderr)
})

t.test('the timer stops on close', async (t) => {
  const cpu = fakeCpu()
  const c = countingTrim()
  const trim = startNativeHeapTrim({ load: () => c.fn, cpuUsage: cpu.usage, tickMs: 10 })
  t.equal(trim.active, true)
  trim.close()
  cpu.add(1000)
  await sleep(50)
  t.equal(c.calls, 0, 'no trim after close, however much work was done')
})

t.test('a trim that throws turns trimming off without throwing', async (t) => {
  const cpu = fakeCpu()
  let calls = 0
  const lines: string[] = []
  const trim = startNativeHeapTrim({
    load: () => () => {
      calls++
      throw new Error('boom')
    },
    cpuUsage: cpu.usage,
    tickMs: 10,
    log: { debug: (_obj, msg) => lines.push(msg) },
  })
  t.teardown(() => trim.close())
  cpu.add(1000)
  await sleep(80)
  t.equal(calls, 1)
  t.match(lines.join('\n'), /malloc_trim failed/)
})

t.test(
  'the settings: CATALOG_NATIVE_HEAP_TRIM=off never loads malloc_trim, on starts the trim',
  async (t) => {
    const log = pino({ level: 'silent' })
    let loads = 0
    const load = () => {
      loads++
      return () => 1
    }
    const busy = { CATALOG_NATIVE_HEAP_TRIM_BUSY_MS: 10_000 }
    t.equal(nativeHeapTrimOf({ ...busy, CATALOG_NATIVE_HEAP_TRIM: 'off' }, log, load), undefined)
    t.equal(loads, 0, 'off: nothing loaded')
    const on = nativeHeapTrimOf({ ...busy, CATALOG_NATIVE_HEAP_TRIM: 'on' }, log, load)
    t.teardown(() => on?.close())
    t.equal(on?.active, true)
    t.equal(loads, 1)
  },
)
