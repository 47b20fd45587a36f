import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import pino from 'pino'
import t from 'tap'
import {
  loadMallopt,
  M_ARENA_MAX,
  M_MMAP_THRESHOLD,
  M_TRIM_THRESHOLD,
  type Mallopt,
  setMallocOptions,
} from './native-malloc-options.js'
import { MALLOC_OPTIONS, mallocOptionsOf } from './run.js'

/** A logger collecting its debug lines' messages. */
function lines(): { log: pino.Logger; messages: string[] } {
  const messages: string[] = []
  const log = pino(
    { level: 'debug' },
    { write: (line: string) => messages.push(String(JSON.parse(line).msg)) },
  )
  return { log, messages }
}

/** A `mallopt` that records its calls and answers `answer`. */
function recording(answer = 1): { calls: Array<[number, number]>; fn: Mallopt } {
  const calls: Array<[number, number]> = []
  return { calls, fn: (param, value) => calls.push([param, value]) && answer }
}

// Loading fails where koffi is not installed or libc is not glibc: those cases are the fakes below.
let loaded: Mallopt | string
try {
  loaded = loadMallopt()
} catch (err) {
  loaded = `mallopt unavailable here: ${String(err)}`
}

t.test(
  "on this glibc Linux mallopt loads and takes the server's options",
  { skip: typeof loaded === 'string' ? loaded : false },
  async (t) => {
    t.same(setMallocOptions(MALLOC_OPTIONS), MALLOC_OPTIONS)
  },
)

/**
 * In a fresh node process (mallopt cannot be undone): frees an 8 MB block, then asks for 2 MB,
 * and prints how many blocks glibc then holds mapped on their own (mallinfo2's `hblks`), after
 * `setMallocOptions(options)` when options are given.
 */
function mappedAfterLargeFree(options?: object): number {
  const module = pathToFileURL(join(import.meta.dirname, 'native-malloc-options.ts')).href
  const code = `import { createRequire } from 'node:module'
    const { setMallocOptions } = await import(${JSON.stringify(module)})
    const koffi = createRequire(import.meta.url)('koffi')
    const libc = koffi.load('libc.so.6')
    const fields = ['arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks', 'fsmblks', 'uordblks', 'fordblks', 'keepcost']
    const info = libc.func('mallinfo2', koffi.struct('mallinfo2', Object.fromEntries(fields.map((f) => [f, 'size_t']))), [])
    const malloc = libc.func('void *malloc(size_t size)')
    const free = libc.func('void free(void *ptr)')
    ${options ? `setMallocOptions(${JSON.stringify(options)})` : ''}
    const before = Number(info().hblks)
    free(malloc(8 * 1024 * 1024))
    const block = malloc(2 * 1024 * 1024)
    process.stdout.write(String(Number(info().hblks) - before))
    free(block)`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: import.meta.dirname,
    timeout: 30_000,
    encoding: 'utf8',
  })
  if (child.status !== 0) throw new Error(child.stderr)
  return Number(child.stdout)
}

t.test(
  "the server's mmap threshold holds: after a large block is freed, a 2 MB block is still mapped on its own",
  { skip: typeof loaded === 'string' ? loaded : false },
  async (t) => {
    // glibc's default raises the threshold to the freed 8 MB block's size: the 2 MB then comes
    // from an arena, and stays there as free space once freed.
    t.equal(mappedAfterLargeFree(), 0, "glibc's moving threshold")
    t.equal(mappedAfterLargeFree(MALLOC_OPTIONS), 1, 'MALLOC_OPTIONS')
  },
)

t.test("each option reaches mallopt as glibc's parameter, the others are left alone", async (t) => {
  const m = recording()
  t.same(
    setMallocOptions({ arenaMax: 2, mmapThreshold: 131072, trimThreshold: 65536 }, { load: () => m.fn }),
    {
      arenaMax: 2,
      mmapThreshold: 131072,
      trimThreshold: 65536,
    },
  )
  t.same(m.calls, [
    [M_ARENA_MAX, 2],
    [M_MMAP_THRESHOLD, 131072],
    [M_TRIM_THRESHOLD, 65536],
  ])
  const only = recording()
  t.same(setMallocOptions({ arenaMax: 4 }, { load: () => only.fn }), { arenaMax: 4 })
  t.same(only.calls, [[M_ARENA_MAX, 4]])
})

t.test('when mallopt cannot load or refuses: nothing set, a debug line, no throw', async (t) => {
  const { log, messages } = lines()
  const unavailable = () => {
    throw new Error('no koffi')
  }
  t.same(setMallocOptions({ arenaMax: 2 }, { log, load: unavailable }), {})
  t.same(setMallocOptions({ arenaMax: 2 }, { log, load: () => recording(0).fn }), {})
  t.same(messages, [
    'malloc options off: mallopt unavailable',
    'mallopt refused a malloc option',
    'malloc options set',
  ])
})

t.test(
  'an option below 1, too large or not an integer is a clear error, and mallopt is not called',
  async (t) => {
    const m = recording()
    for (const bad of [0, -8, 1.5, Number.NaN, 2 ** 31])
      t.throws(() => setMallocOptions({ arenaMax: 2, mmapThreshold: bad }, { load: () => m.fn }), RangeError)
    t.same(m.calls, [])
  },
)

t.test('the server sets its malloc options unless CATALOG_NATIVE_HEAP_TRIM=off', async (t) => {
  const { log } = lines()
  const m = recording()
  t.same(
    mallocOptionsOf({ CATALOG_NATIVE_HEAP_TRIM: 'on' }, log, () => m.fn),
    MALLOC_OPTIONS,
  )
  const calls = m.calls.length
  t.ok(calls > 0)
  t.same(
    mallocOptionsOf({ CATALOG_NATIVE_HEAP_TRIM: 'off' }, log, () => m.fn),
    {},
  )
  t.equal(m.calls.length, calls)
})
