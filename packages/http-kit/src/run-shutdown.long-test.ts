import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { loadExit } from './exit-now.js'

/**
 * Shutdown while a worker thread is inside a long native call: node's process.exit() joins the
 * worker first and so waits for the call (minutes). The deadline and a second signal must end the
 * process anyway. Before exitNow, both left the process running until the test killed it.
 */

const FIXTURE = fileURLToPath(new URL('./shutdown-stuck-worker.fixture.ts', import.meta.url))
/** How long after the expected moment of exit the test waits before it kills the process and fails. */
const GRACE_MS = 5_000

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly output: string
  /** Milliseconds from the first signal (or from `ready`, with none) to the exit. */
  readonly ms: number
  /** Whether the test had to kill the process. */
  readonly killed: boolean
}

/** Starts the fixture, sends `signals` (ms after `ready`) and resolves when it ends, killing it after `waitMs`. */
function run(
  args: readonly string[],
  signals: ReadonlyArray<[NodeJS.Signals, number]>,
  waitMs: number,
): Promise<Ended> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let start = 0
  let killed = false
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (start !== 0 || !output.includes('"msg":"ready"')) return
      start = performance.now()
      for (const [signal, at] of signals) setTimeout(() => child.kill(signal), at)
      setTimeout(() => {
        killed = child.exitCode === null && child.signalCode === null
        child.kill('SIGKILL')
      }, waitMs).unref()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code, signal) =>
      resolve({
        code,
        signal,
        output,
        ms: start === 0 ? 0 : performance.now() - start - (signals[0]?.[1] ?? 0),
        killed,
      }),
    )
  })
}

/** Whether exitNow can load glibc's `_exit` here, which ends the process with its status; otherwise it falls back to SIGKILL. */
const glibcExit = (() => {
  try {
    loadExit()
    return true
  } catch {
    return false
  }
})()

function endedWith(t: Test, ended: Ended, code: number): void {
  if (glibcExit) t.equal(ended.code, code, `exit status ${code}`)
  else t.equal(ended.signal, 'SIGKILL', 'ended by SIGKILL (no glibc _exit here)')
}

// The three processes run side by side (each waits in its worker without using the CPU).
const DEADLINE_MS = 800
const deadlineRun = run([String(DEADLINE_MS)], [['SIGTERM', 100]], DEADLINE_MS + GRACE_MS)
const secondSignalRun = run(
  ['60000'],
  [
    ['SIGTERM', 100],
    ['SIGINT', 400],
  ],
  400 + GRACE_MS,
)
const fallbackRun = run(['60000', 'fallback'], [], GRACE_MS)

t.test('the shutdown deadline ends the process while a worker is inside a native call', async (t) => {
  const ended = await deadlineRun
  t.notOk(ended.killed, `the process ended by itself (${Math.round(ended.ms)} ms after SIGTERM)`)
  t.ok(
    ended.ms < DEADLINE_MS + 2_000,
    `within 2 s of the ${DEADLINE_MS} ms deadline: ${Math.round(ended.ms)} ms`,
  )
  t.match(ended.output, /shutting down/)
  t.match(ended.output, /shutdown deadline passed/, 'the deadline line reached the log before the end')
  endedWith(t, ended, 1)
})

t.test('a second signal ends the process at once while a worker is inside a native call', async (t) => {
  const ended = await secondSignalRun
  t.notOk(ended.killed, 'the process ended by itself')
  t.ok(ended.ms < 300 + 2_000, `within 2 s of the second signal: ${Math.round(ended.ms)} ms after the first`)
  t.match(ended.output, /second signal: exiting now/)
  endedWith(t, ended, 1)
})

t.test(
  'without glibc _exit, exitNow still ends the process (SIGKILL), after pino wrote what it held',
  async (t) => {
    const ended = await fallbackRun
    t.notOk(ended.killed, 'the process ended by itself')
    t.equal(ended.signal, 'SIGKILL')
    t.match(ended.output, /"msg":"ending"/, 'the line logged just before exitNow was written')
  },
)
