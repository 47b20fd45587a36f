import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '@catalog/config'
import { Registry } from '@catalog/core'
import { type IndexedDocumentRow, SqliteIndexReader } from '@catalog/search-sqlite'
import { checkDatabase, SqliteStoreReader, type StoreSnapshot } from '@catalog/store-sqlite'
import { CommandFailure } from '../command-failure.js'
import { DATA_FILES, requireEmbedded } from '../data-dir.js'

/** One difference `catalog check` found. */
export interface Mismatch {
  readonly kind:
    | 'integrity'
    | 'edge-missing'
    | 'edge-extra'
    | 'document-missing'
    | 'document-orphan'
    | 'cursor-ahead'
  readonly detail: string
}

/** What `catalog check` found; `mismatches` counts every problem, `first` lists the first few. */
export interface CheckReport {
  dataDir: string
  integrity: { store: string[]; search: string[] }
  edges: { aspects: number; skipped: number; derived: number; stored: number; missing: number; extra: number }
  search: {
    present: boolean
    entities: number
    documents: number
    cursor: number
    head: number
    /** Entities changed after the index's cursor: not compared (the index is catching up). */
    pending: number
    missing: number
    orphans: number
  }
  mismatches: number
  first: Mismatch[]
}

/**
 * `catalog check`: a read-only integrity check of the embedded data dir, offline or while a
 * server runs. (a) `PRAGMA integrity_check` of the store and the index; (b) the edges each
 * latest aspect produces, derived by the registry exactly as ingest derives them, against the
 * stored edges (and stored edges whose aspect row is gone); (c) every entity in the store has
 * a search document and every document an entity, except entities changed after the index's
 * cursor, and the cursor is not ahead of the change log. The index is read before the store,
 * so the store's snapshot is never older than the index's.
 */
export function checkDataDir(config: Config, maxListed = 10): CheckReport {
  requireEmbedded(config, 'check')
  const dataDir = config.CATALOG_DATA_DIR
  const storeFile = join(dataDir, DATA_FILES.store)
  const searchFile = join(dataDir, DATA_FILES.search)
  if (!existsSync(storeFile))
    throw new CommandFailure(`no catalog data in ${dataDir} (no ${DATA_FILES.store})`)
  const report: CheckReport = {
    dataDir,
    integrity: {
      store: checkDatabase(storeFile),
      search: existsSync(searchFile) ? checkDatabase(searchFile) : [],
    },
    edges: { aspects: 0, skipped: 0, derived: 0, stored: 0, missing: 0, extra: 0 },
    search: {
      present: existsSync(searchFile),
      entities: 0,
      documents: 0,
      cursor: 0,
      head: 0,
      pending: 0,
      missing: 0,
      orphans: 0,
    },
    mismatches: 0,
    first: [],
  }
  const note = (kind: Mismatch['kind'], detail: string) => {
    report.mismatches++
    if (report.first.length < maxListed) report.first.push({ kind, detail })
  }
  for (const p of report.integrity.store) note('integrity', `${DATA_FILES.store}: ${p}`)
  for (const p of report.integrity.search) note('integrity', `${DATA_FILES.search}: ${p}`)
  if (report.integrity.store.length > 0) return report

  let index: { cursor: number; documents: IndexedDocumentRow[] } | undefined
  if (report.search.present && report.integrity.search.length === 0) {
    const reader = new SqliteIndexReader(searchFile)
    try {
      index = reader.snapshot()
    } finally {
      reader.close()
    }
  }
  const registry = new Registry()
  const store = new SqliteStoreReader(storeFile)
  try {
    store.snapshot((s) => {
      checkEdges(s, registry, report, note)
      if (index) checkSearch(s, registry, index, report, note)
    })
  } finally {
    store.close()
  }
  return report
}

type Note = (kind: Mismatch['kind'], detail: string) => void

function checkEdges(s: StoreSnapshot, registry: Registry, report: CheckReport, note: Note): void {
  const e = report.edges
  for (const row of s.latestAspects()) {
    const entity = registry.findEntity(row.urn.split(':')[2] ?? '')
    if (!entity || !registry.findAspect(entity, row.aspect)) {
      e.skipped++
      continue
    }
    e.aspects++
    const derived = new Set(
      registry.edges(entity, row.aspect, row.value).map((d) => `${d.type} ${d.destination}`),
    )
    const stored = new Set(s.edgesOf(row.urn, row.aspect).map((d) => `${d.type} ${d.destination}`))
    e.derived += derived.size
    for (const edge of derived) {
      if (stored.has(edge)) continue
      e.missing++
      note('edge-missing', `${row.urn} -[${edge.replace(' ', ']-> ')} (from ${row.aspect}) is not stored`)
    }
    for (const edge of stored) {
      if (derived.has(edge)) continue
      e.extra++
      note(
        'edge-extra',
        `${row.urn} -[${edge.replace(' ', ']-> ')} is stored but ${row.aspect} does not produce it`,
      )
    }
  }
  const orphans = s.orphanEdges(10)
  e.extra += orphans.count
  e.stored = s.edgeCount()
  for (const o of orphans.first)
    note(
      'edge-extra',
      `${o.source} -[${o.type}]-> ${o.destination} is stored but ${o.source} has no ${o.aspect}`,
    )
  report.mismatches += orphans.count - orphans.first.length
}

function checkSearch(
  s: StoreSnapshot,
  registry: Registry,
  index: { cursor: number; documents: IndexedDocumentRow[] },
  report: CheckReport,
  note: Note,
): void {
  const r = report.search
  r.cursor = index.cursor
  r.head = s.head()
  r.documents = index.documents.length
  if (r.cursor > r.head)
    note('cursor-ahead', `the search index cursor ${r.cursor} is ahead of the change log (${r.head})`)
  const pending = r.cursor < r.head ? s.urnsChangedAfter(r.cursor) : new Set<string>()
  const unseen = new Set(index.documents.map((d) => d.urn))
  for (const urn of s.entities()) {
    if (!registry.findEntity(urn.split(':')[2] ?? '')) continue
    r.entities++
    if (unseen.delete(urn)) continue
    if (pending.has(urn)) r.pending++
    else {
      r.missing++
      note('document-missing', `${urn} has no search document`)
    }
  }
  for (const urn of unseen) {
    if (pending.has(urn)) r.pending++
    else {
      r.orphans++
      note('document-orphan', `search document ${urn} has no entity in the store`)
    }
  }
}

/** The report as lines of text (stdout). */
export function describeCheck(r: CheckReport): string[] {
  const e = r.edges
  const s = r.search
  const ok = (problems: string[]) => (problems.length === 0 ? 'ok' : `${problems.length} problems`)
  const lines = [
    `data dir: ${r.dataDir}`,
    `integrity: ${DATA_FILES.store} ${ok(r.integrity.store)}, ${DATA_FILES.search} ${s.present ? ok(r.integrity.search) : 'absent'}`,
    `edges: ${e.aspects} aspects (${e.skipped} of unknown types skipped), ${e.derived} edges derived, ${e.stored} stored: ${e.missing} missing, ${e.extra} extra`,
    s.present
      ? `search: ${s.entities} entities, ${s.documents} documents, cursor ${s.cursor} of change log ${s.head} (${s.pending} entities pending): ${s.missing} entities without a document, ${s.orphans} documents without an entity`
      : 'search: no index file (a start builds it from the change log)',
  ]
  for (const m of r.first) lines.push(`  ${m.kind}: ${m.detail}`)
  if (r.mismatches > r.first.length) lines.push(`  ... and ${r.mismatches - r.first.length} more`)
  lines.push(r.mismatches === 0 ? 'check: clean' : `check: ${r.mismatches} mismatches`)
  return lines
}
