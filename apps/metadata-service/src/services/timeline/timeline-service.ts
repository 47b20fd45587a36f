import { InvalidInputError, parseUrn, type StoredAspect } from '@catalog/core'
import type { AspectStore } from '@catalog/store'
import { jsonDiff } from './json-diff.js'
import { TIMELINE_DIFFERS } from './registry.js'
import { type ChangeCategory, type ChangeTransaction, highestChange } from './types.js'
import { type AspectHistory, walkVersions } from './version-walker.js'

/** DataHub's default window when no start is given: one week back from the end. */
export const DEFAULT_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000

export interface TimelineQuery {
  readonly urn: string
  readonly categories: readonly ChangeCategory[]
  /** -1 (the default): a week before `endTime`. */
  readonly startTime: number
  /** 0 (the default): now. */
  readonly endTime: number
  readonly raw: boolean
}

/**
 * DataHub's timeline (`TimelineServiceImpl`): the semantic changes of an entity's aspects,
 * one transaction per write time, oldest first, with a computed semantic version.
 */
export class TimelineService {
  constructor(
    private readonly store: Pick<AspectStore, 'version'>,
    private readonly now: () => number = Date.now,
  ) {}

  async timeline(q: TimelineQuery): Promise<ChangeTransaction[]> {
    const { entityType } = parseUrn(q.urn)
    const table = TIMELINE_DIFFERS[entityType]
    if (!table) throw new InvalidInputError(`Entity Type ${entityType} not supported`)
    const end = q.endTime === 0 ? this.now() : q.endTime
    const start = q.startTime === -1 ? end - DEFAULT_LOOKBACK_MS : q.startTime
    const aspects = [...new Set(q.categories.flatMap((c) => Object.keys(table[c] ?? {})))]
    const histories = await walkVersions(this.store, q.urn, aspects, start, end)

    // Transactions keyed by write time; several aspects and categories at one time merge.
    const byTime = new Map<number, ChangeTransaction>()
    for (const history of histories) {
      let previous: StoredAspect | undefined = history.base
      for (const row of history.rows) {
        const events = q.categories.flatMap((category) => {
          const differ = table[category]?.[history.aspect]
          return differ
            ? differ(previous?.value, row.value, { entityUrn: q.urn, category, auditStamp: null })
            : []
        })
        if (events.length > 0) {
          const rawDiff = q.raw ? jsonDiff(previous?.value ?? {}, row.value) : null
          const t = byTime.get(row.created.time)
          if (t) {
            t.changeEvents.push(...events)
            if (t.rawDiff && rawDiff) t.rawDiff.push(...rawDiff)
          } else {
            byTime.set(row.created.time, {
              timestamp: row.created.time,
              actor: row.created.actor,
              proxy: null,
              reporter: null,
              semVer: null,
              semVerChange: 'NONE',
              changeEvents: events,
              rawDiff,
              versionStamp: versionStamp(histories, row.created.time),
            })
          }
        }
        previous = row
      }
    }
    const transactions = [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp)
    assignSemanticVersions(transactions)
    return transactions
  }
}

/** DataHub's computed versions: 0.0.0 first, then bumped by each transaction's highest change. */
function assignSemanticVersions(transactions: ChangeTransaction[]): void {
  let version: [number, number, number] | undefined
  for (const t of transactions) {
    t.semVerChange = highestChange(t.changeEvents)
    if (!version) version = [0, 0, 0]
    else if (t.semVerChange === 'MAJOR') version = [version[0] + 1, 0, 0]
    else if (t.semVerChange === 'MINOR') version = [version[0], version[1] + 1, 0]
    else if (t.semVerChange === 'PATCH') version = [version[0], version[1], version[2] + 1]
    t.semVer = `${version.join('.')}-computed`
  }
}

/** `aspect:version;...` of the rows current at `time` (DataHub's version stamp), by aspect name. */
function versionStamp(histories: readonly AspectHistory[], time: number): string {
  const parts: string[] = []
  for (const h of [...histories].sort((a, b) => (a.aspect < b.aspect ? -1 : 1))) {
    const rows = [...(h.base ? [h.base] : []), ...h.rows].filter((r) => r.created.time <= time)
    const current = rows.at(-1)
    if (current) parts.push(`${h.aspect}:${current.version}`)
  }
  return parts.join(';')
}
