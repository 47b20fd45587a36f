import { InvalidInputError, NO_RUN_ID, type Registry, type StoredAspect } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { IngestService } from './ingest-service.js'
import type { AspectRowSummary } from './runs-service.js'

/** DataHub's `RollbackResponse` as `deleteAll` fills it. */
export interface DeleteAllResult {
  readonly entitiesAffected: number
  readonly entitiesDeleted: number
  readonly aspectsAffected: number
  readonly aspectRowSummaries: AspectRowSummary[]
}

/** Most rows one `deleteAll` touches (DataHub's `ESUtils.MAX_RESULT_SIZE`). */
export const MAX_REGISTRY_ROWS = 10_000
/** Summaries the answer carries. */
const MAX_SUMMARIES = 100
/** Latest rows read per step of the scan (the scan yields to other requests between steps). */
const SCAN_PAGE = 2_000

/**
 * `/entities?action=deleteAll`: undoes what was written under one model registry
 * (`systemMetadata.registryName` / `registryVersion`, given as `name:version`). As DataHub:
 * the latest rows whose last write carried that registry, of entities not soft-deleted, at
 * most 10,000; each goes back to its previous version, and an entity whose key aspect is
 * among them is soft-deleted (`status.removed`). `dryRun` only reports.
 */
export class RegistryDeleteService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {}

  async deleteAll(registryId: string | undefined, dryRun: boolean, actor: string): Promise<DeleteAllResult> {
    const { name, version } = parseRegistryId(registryId)
    const rows = await this.find(name, version)
    const summaries = rows.map((r) => this.summary(r))
    const keyRows = summaries.filter((r) => r.keyAspect)
    const result = {
      entitiesAffected: new Set(summaries.map((r) => r.urn)).size,
      entitiesDeleted: keyRows.length,
      aspectsAffected: summaries.length,
      aspectRowSummaries: summaries.slice(0, MAX_SUMMARIES),
    }
    if (dryRun || rows.length === 0) return result
    // Each row goes back only if its last write is still the one found (same run).
    const byRun = new Map<string, { urn: string; aspect: string }[]>()
    for (const r of summaries.filter((s) => !s.keyAspect)) {
      const group = byRun.get(r.runId) ?? []
      byRun.set(r.runId, [...group, { urn: r.urn, aspect: r.aspectName }])
    }
    for (const [runId, targets] of byRun) await this.ingest.rollback(targets, runId, actor)
    if (keyRows.length > 0) {
      const proposals = keyRows.map((r) => ({
        entityType: this.registry.resolveUrn(r.urn).entity.name,
        entityUrn: r.urn,
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: JSON.stringify({ removed: true }), contentType: 'application/json' },
      }))
      await this.ingest.ingestProposals(proposals, actor)
    }
    return result
  }

  /** Latest rows written last under the registry, of entities not soft-deleted, in (urn, aspect) order. */
  private async find(name: string, version: string): Promise<StoredAspect[]> {
    const found: StoredAspect[] = []
    for (let start = 0; found.length < MAX_REGISTRY_ROWS; start += SCAN_PAGE) {
      const page = await this.store.scan({ start, limit: SCAN_PAGE })
      for (const row of page) {
        const sm = row.systemMetadata
        if (sm?.registryName === name && sm.registryVersion === version) found.push(row)
      }
      if (page.length < SCAN_PAGE) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    const rows = found.slice(0, MAX_REGISTRY_ROWS)
    const status = await this.store.latest([...new Set(rows.map((r) => r.urn))], ['status'])
    return rows.filter((r) => status.get(r.urn)?.[0]?.value.removed !== true)
  }

  private summary(row: StoredAspect): AspectRowSummary {
    let keyAspect = false
    try {
      keyAspect = this.registry.resolveUrn(row.urn).entity.keyAspect === row.aspect
    } catch {
      // an URN the registry no longer knows: not a key row
    }
    return {
      runId: row.systemMetadata?.runId ?? NO_RUN_ID,
      aspectName: row.aspect,
      urn: row.urn,
      timestamp: row.systemMetadata?.lastObserved ?? row.created.time,
      keyAspect,
    }
  }
}

/** `name:version`, as DataHub splits it; anything else is DataHub's "Failed to parse registry id". */
function parseRegistryId(registryId: string | undefined): { name: string; version: string } {
  const [name, version] = (registryId ?? '').split(':')
  if (!registryId || !name || !version)
    throw new InvalidInputError(`Failed to parse registry id: ${registryId ?? 'null'}`)
  return { name, version }
}
