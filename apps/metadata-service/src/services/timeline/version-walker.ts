import type { StoredAspect } from '@catalog/core'
import type { AspectStore } from '@catalog/store'

/** The most versions of one aspect a timeline reads (older ones are left out). */
export const MAX_TIMELINE_VERSIONS = 1000

/** The rows a timeline diffs for one aspect: the base before the window (if any) and those inside it. */
export interface AspectHistory {
  readonly aspect: string
  /** The newest row before the window; undefined when the window starts at the first version. */
  readonly base?: StoredAspect
  /** Rows written inside the window, oldest first. */
  readonly rows: readonly StoredAspect[]
}

/**
 * Reads every version of each aspect through the store port (1..N oldest first, then 0 the
 * latest) and keeps those created within [start, end], with the one before them as the base
 * of the first diff, as DataHub's timeline does.
 */
export async function walkVersions(
  store: Pick<AspectStore, 'version'>,
  urn: string,
  aspects: readonly string[],
  start: number,
  end: number,
): Promise<AspectHistory[]> {
  const out: AspectHistory[] = []
  for (const aspect of aspects) {
    const latest = await store.version(urn, aspect, 0)
    if (!latest) continue
    const all: StoredAspect[] = []
    for (let v = 1; v <= MAX_TIMELINE_VERSIONS; v++) {
      const row = await store.version(urn, aspect, v)
      if (!row) break
      all.push(row)
    }
    all.push(latest)
    const first = all.findIndex((r) => r.created.time >= start && r.created.time <= end)
    if (first < 0) continue
    const rows = all.slice(first).filter((r) => r.created.time <= end)
    const base = first > 0 ? all[first - 1] : undefined
    out.push({ aspect, rows, ...(base ? { base } : {}) })
  }
  return out
}
