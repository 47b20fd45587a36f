import { performance } from 'node:perf_hooks'
import { SingleBar } from 'cli-progress'
import type { ImportInput } from './import-input.js'

const SHOWN_FAILURES = 20
const LINE_EVERY_MS = 5_000

/**
 * What `catalog import` shows while it runs: on a terminal a progress bar over the input bytes
 * (records, aspects, aspects/s, failures); otherwise a line every few seconds. The first
 * failures are printed with their reason, the rest counted.
 */
export class ImportProgress {
  private readonly bar?: SingleBar
  private readonly totalBytes: number
  private doneBytes = 0
  private records = 0
  private aspects = 0
  private failed = 0
  private readonly started = performance.now()
  private lastLine = performance.now()

  constructor(
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    inputs: readonly ImportInput[],
  ) {
    this.totalBytes = Math.max(
      1,
      inputs.reduce((n, i) => n + i.bytes, 0),
    )
    if (out.isTTY) {
      this.bar = new SingleBar({
        stream: out,
        format:
          ' {bar} {percentage}% | {records} records | {aspects} aspects | {rate} aspects/s | {failed} failed',
        hideCursor: true,
      })
      this.bar.start(this.totalBytes, 0, this.payload())
    }
  }

  /** A message between bar updates. */
  line(text: string): void {
    this.bar?.stop()
    this.out.write(`${text}\n`)
    if (this.bar) this.bar.start(this.totalBytes, this.doneBytes, this.payload())
  }

  failure(path: string, reason: string): void {
    this.failed++
    if (this.failed <= SHOWN_FAILURES) this.line(`failed: ${path}: ${reason}`)
    else if (this.failed === SHOWN_FAILURES + 1) this.line('... more failures are counted, not shown')
  }

  /** A commit of `records` records of `input`, read up to `bytes`. */
  advance(input: ImportInput, bytes: number, records: number, aspects: number, _failed: number): void {
    this.records += records
    this.aspects += aspects
    const at = this.doneBytes + Math.min(bytes, input.bytes)
    this.bar?.update(at, this.payload())
    if (!this.bar && performance.now() - this.lastLine >= LINE_EVERY_MS) {
      this.lastLine = performance.now()
      const p = this.payload()
      this.out.write(
        `import: ${Math.round((100 * at) / this.totalBytes)}% ${p.records} records, ${p.aspects} aspects, ${p.rate} aspects/s, ${p.failed} failed\n`,
      )
    }
  }

  fileDone(input: ImportInput): void {
    this.doneBytes += input.bytes
    this.bar?.update(this.doneBytes, this.payload())
  }

  startIndexing(entities: number): void {
    this.line(`building the search documents of ${entities} entities`)
  }

  indexed(n: number): void {
    if (!this.bar && performance.now() - this.lastLine >= LINE_EVERY_MS) {
      this.lastLine = performance.now()
      this.out.write(`search: ${n} entities indexed\n`)
    }
  }

  stop(): void {
    this.bar?.stop()
  }

  private payload() {
    const seconds = (performance.now() - this.started) / 1000
    return {
      records: this.records,
      aspects: this.aspects,
      failed: this.failed,
      rate: seconds > 0 ? Math.round(this.aspects / seconds) : 0,
    }
  }
}
