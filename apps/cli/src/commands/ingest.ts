import { performance } from 'node:perf_hooks'
import { SingleBar } from 'cli-progress'
import { type CallResult, send, type Target } from '../client.js'
import {
  type IngestCall,
  jsonFilesOf,
  type MetadataRecord,
  parseRecords,
  readRecordsFile,
  toIngestCall,
} from '../records.js'

export interface IngestSummary {
  readonly files: number
  readonly records: number
  readonly accepted: number
  readonly failed: number
  readonly seconds: number
}

export interface IngestOptions {
  /** Parallel requests; records of one entity always go in order through the same lane. */
  readonly concurrency?: number
  /** Progress and failures go here (stderr). */
  readonly out?: NodeJS.WritableStream & { isTTY?: boolean }
}

/** Reads the records of files, directories or stdin (`-`). */
export async function collect(
  paths: readonly string[],
): Promise<{ files: number; records: MetadataRecord[] }> {
  const records: MetadataRecord[] = []
  let files = 0
  for (const path of paths) {
    if (path === '-') {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      records.push(...parseRecords(Buffer.concat(chunks).toString('utf8'), 'stdin'))
      files++
      continue
    }
    for (const file of jsonFilesOf(path)) {
      records.push(...readRecordsFile(file))
      files++
    }
  }
  return { files, records }
}

/**
 * Sends every record as DataHub's REST emitter does, `concurrency` at a time. Records of the same
 * entity stay in file order (a later write or patch of an aspect must land after an earlier one).
 * Prints a progress bar on a terminal, each failure, and returns the counts.
 */
export async function ingestRecords(
  target: Target,
  files: number,
  records: readonly MetadataRecord[],
  options: IngestOptions = {},
): Promise<IngestSummary> {
  const out = options.out ?? process.stderr
  const lanes = Math.max(1, options.concurrency ?? 8)
  const started = performance.now()
  const queues: IngestCall[][] = Array.from({ length: lanes }, () => [])
  for (const record of records) {
    const call = toIngestCall(record)
    queues[laneOf(call.urn, lanes)]?.push(call)
  }
  const bar = out.isTTY
    ? new SingleBar({
        stream: out,
        format: ' {bar} {value}/{total} records | {failed} failed | {eta_formatted} left',
        hideCursor: true,
      })
    : undefined
  bar?.start(records.length, 0, { failed: 0 })
  let accepted = 0
  let failed = 0
  const report = (call: IngestCall, result: CallResult) => {
    if (result.status >= 200 && result.status < 300) accepted++
    else {
      failed++
      if (failed <= 20) {
        const line = `failed: ${call.urn} (${call.url}): ${result.status || 'no answer'} ${result.message ?? ''}`
        if (bar) bar.stop()
        out.write(`${line}\n`)
        if (bar) bar.start(records.length, accepted + failed, { failed })
      }
    }
    bar?.update(accepted + failed, { failed })
  }
  await Promise.all(
    queues.map(async (queue) => {
      for (const call of queue) report(call, await send(target, call))
    }),
  )
  bar?.stop()
  if (failed > 20) out.write(`... and ${failed - 20} more failures\n`)
  return { files, records: records.length, accepted, failed, seconds: (performance.now() - started) / 1000 }
}

export function describeSummary(s: IngestSummary, server: string): string {
  return `${s.accepted} of ${s.records} records from ${s.files} file(s) ingested into ${server} in ${s.seconds.toFixed(1)} s; ${s.failed} failed`
}

function laneOf(urn: string, lanes: number): number {
  let h = 0
  for (let i = 0; i < urn.length; i++) h = (h * 31 + urn.charCodeAt(i)) | 0
  return Math.abs(h) % lanes
}
