import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Config } from '@catalog/config'
import { Registry } from '@catalog/core'
import { type BulkProgress, SqliteBulkImport } from '@catalog/store-sqlite'
import { CommandFailure } from '../command-failure.js'
import { DATA_FILES, processesUsing, requireEmbedded } from '../data-dir.js'
import { type ImportInput, importInputs, readInput } from './import-input.js'
import { ImportProgress } from './import-progress.js'
import { type Converted, isAspectRow, RecordConverter } from './import-records.js'
import { rebuildSearch } from './import-search.js'

/** Aspects written per transaction: large enough that commits cost little, small enough to resume soon. */
const COMMIT_ASPECTS = 25_000

export interface ImportSummary {
  readonly files: number
  /** Files skipped because an earlier run imported them completely. */
  readonly alreadyDone: number
  readonly records: number
  readonly aspects: number
  readonly entities: number
  readonly failed: number
  readonly seconds: number
  /** Of which building the search documents. */
  readonly indexSeconds: number
}

export interface ImportOptions {
  /** Progress lines and failures (stderr). */
  readonly out?: NodeJS.WritableStream & { isTTY?: boolean }
}

/**
 * `catalog import <paths...>`: loads DataHub MCE/MCP files (JSON arrays or JSON lines) and
 * `metadata_aspect_v2` exports (CSV or JSON lines) straight into the embedded store of the data
 * dir, offline, then builds the search documents of what it wrote. Every record goes through the
 * REST ingest path's validation; invalid ones are counted and the first few printed. Progress is
 * committed with the data, so a killed import rerun resumes after its last commit.
 */
export async function importPaths(
  config: Config,
  paths: readonly string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  requireEmbedded(config, 'import')
  const dataDir = config.CATALOG_DATA_DIR
  const pids = processesUsing(dataDir)
  if (pids.length > 0) {
    throw new CommandFailure(
      `a catalog is running on ${dataDir} (process ${pids.join(', ')} has its databases open); stop it before importing`,
    )
  }
  const inputs = importInputs(paths)
  const started = performance.now()
  const storeFile = join(dataDir, DATA_FILES.store)
  const bulk = new SqliteBulkImport(storeFile)
  const registry = new Registry()
  const converter = new RecordConverter(registry)
  const progress = new ImportProgress(options.out ?? process.stderr, inputs)
  const totals = { records: 0, aspects: 0, failed: 0, alreadyDone: 0 }
  // A load larger than the store (by a rough 200 bytes of input per aspect row) builds the
  // store's secondary indexes once at the end instead of row by row.
  const inputRows = inputs.reduce((n, i) => n + i.bytes, 0) / 200
  const existing = bulk.aspectRows()
  if (inputRows > Math.max(existing, 10_000)) bulk.deferIndexes()
  try {
    for (const input of inputs) {
      const saved = bulk.progress(input.path)
      const resume = saved && saved.fingerprint === input.fingerprint ? saved : undefined
      if (saved && !resume) progress.line(`${input.path} changed since its last import; importing it again`)
      if (resume?.done) {
        totals.alreadyDone++
        progress.fileDone(input)
        continue
      }
      if (resume) progress.line(`${input.path}: resuming after record ${resume.position}`)
      const result = await importFile(input, resume, bulk, converter, progress)
      totals.records += result.records
      totals.aspects += result.aspects
      totals.failed += result.failed
      progress.fileDone(input)
    }
    const entities = bulk.touchedCount()
    const indexing = performance.now()
    progress.startIndexing(entities)
    await rebuildSearch(storeFile, join(dataDir, DATA_FILES.search), bulk, registry, (n) =>
      progress.indexed(n),
    )
    progress.stop()
    bulk.finish()
    const now = performance.now()
    return {
      files: inputs.length,
      ...totals,
      entities,
      seconds: (now - started) / 1000,
      indexSeconds: (now - indexing) / 1000,
    }
  } catch (err) {
    progress.stop()
    bulk.close()
    throw err
  }
}

/** Imports one file from its saved position; returns this run's counts (and the file's, saved). */
async function importFile(
  input: ImportInput,
  resume: BulkProgress | undefined,
  bulk: SqliteBulkImport,
  converter: RecordConverter,
  progress: ImportProgress,
): Promise<{ records: number; aspects: number; failed: number }> {
  const run = { records: 0, aspects: 0, failed: 0 }
  let position = resume?.position ?? 0
  const file = { records: resume?.records ?? 0, aspects: resume?.aspects ?? 0, failed: resume?.failed ?? 0 }
  let pending: Converted[] = []
  let pendingAspects = 0
  let pendingRecords = 0
  let group: Array<Record<string, unknown>> = []
  const read = { bytes: 0 }

  const add = (c: Converted, records: number) => {
    pending.push(c)
    pendingRecords += records
    pendingAspects += (c.batch?.mutations.length ?? 0) + c.history.length
  }
  const commit = (done: boolean) => {
    const units = pending
    let aspects = 0
    let failed = 0
    const before = bulk.rowsWritten
    bulk.commit(
      () => {
        for (const unit of units) {
          failed += unit.failures.length
          for (const reason of unit.failures) progress.failure(input.path, reason)
          for (const row of unit.history) bulk.putVersion(row)
          if (!unit.batch) continue
          try {
            bulk.write(unit.batch)
          } catch (err) {
            failed++
            progress.failure(input.path, (err as Error).message)
          }
        }
        aspects = bulk.rowsWritten - before
      },
      () => ({
        source: input.path,
        fingerprint: input.fingerprint,
        position: position + pendingRecords,
        done: done ? 1 : 0,
        records: file.records + pendingRecords,
        aspects: file.aspects + aspects,
        failed: file.failed + failed,
      }),
    )
    position += pendingRecords
    file.records += pendingRecords
    file.aspects += aspects
    file.failed += failed
    run.records += pendingRecords
    run.aspects += aspects
    run.failed += failed
    progress.advance(input, read.bytes, pendingRecords, aspects, failed)
    pending = []
    pendingAspects = 0
    pendingRecords = 0
  }
  const flushGroup = () => {
    if (group.length === 0) return
    add(converter.aspectRows(group), group.length)
    group = []
  }

  for await (const item of readInput(input, position, read)) {
    if (item === 'skipped') continue
    if ('error' in item) {
      flushGroup()
      add({ history: [], failures: [item.error] }, 1)
    } else if (isAspectRow(item.value)) {
      // One entity's run of rows is converted (and committed) as a unit.
      if (group.length > 0 && group[0]?.urn !== item.value.urn) {
        flushGroup()
        if (pendingAspects >= COMMIT_ASPECTS) commit(false)
      }
      group.push(item.value)
      continue
    } else {
      flushGroup()
      add(await converter.metadataRecord(item.value), 1)
    }
    if (pendingAspects >= COMMIT_ASPECTS) commit(false)
  }
  flushGroup()
  commit(true)
  return run
}

/** The summary `catalog import` prints on stdout. */
export function describeImport(s: ImportSummary, dataDir: string): string {
  const rate = s.seconds > 0 ? Math.round(s.aspects / s.seconds) : 0
  const skipped = s.alreadyDone > 0 ? ` (${s.alreadyDone} already imported)` : ''
  return `imported into ${dataDir}: ${s.files} file(s)${skipped}, ${s.records} records, ${s.aspects} aspects, ${s.entities} entities indexed, ${s.failed} failed, ${s.seconds.toFixed(1)} s (search documents ${s.indexSeconds.toFixed(1)} s), ${rate} aspects/s`
}
