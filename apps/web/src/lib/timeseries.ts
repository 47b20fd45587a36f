/** A time-series event as the API answers it: any record with its `timestampMillis`. */
export type TimeseriesEvent = Record<string, unknown> & { timestampMillis?: number }

export interface Point {
  /** Epoch millis. */
  readonly t: number
  readonly v: number
}

export interface Series {
  readonly field: string
  /** Oldest first. */
  readonly points: readonly Point[]
}

const DAY = 86_400_000

/** Fields that hold a time, not a measure (`timestampMillis`, `lastUpdatedTimestamp`, ...). */
const isTimeField = (name: string) => /(timestamp|millis|time)$/i.test(name)

/**
 * One series per top-level numeric field of the events (a profile's `rowCount`, a usage
 * bucket's `totalSqlQueries`), oldest first; time fields are the x axis, not a series.
 */
export function numericSeries(events: readonly TimeseriesEvent[]): Series[] {
  const byField = new Map<string, Point[]>()
  const ordered = [...events]
    .filter((e) => typeof e.timestampMillis === 'number')
    .sort((a, b) => (a.timestampMillis ?? 0) - (b.timestampMillis ?? 0))
  for (const e of ordered) {
    for (const [field, value] of Object.entries(e)) {
      if (typeof value !== 'number' || isTimeField(field)) continue
      const points = byField.get(field) ?? []
      points.push({ t: e.timestampMillis ?? 0, v: value })
      byField.set(field, points)
    }
  }
  return [...byField].map(([field, points]) => ({ field, points }))
}

/** Events per UTC day, oldest first, days without events left out (an operation log as a bar chart). */
export function perDay(events: readonly TimeseriesEvent[]): Point[] {
  const counts = new Map<number, number>()
  for (const e of events) {
    if (typeof e.timestampMillis !== 'number') continue
    const day = Math.floor(e.timestampMillis / DAY) * DAY
    counts.set(day, (counts.get(day) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ t, v }))
}

/** The top-level scalar fields of the events, in first-seen order: the columns of a value table. */
export function scalarColumns(events: readonly TimeseriesEvent[]): string[] {
  const columns = new Set<string>()
  for (const e of events)
    for (const [k, v] of Object.entries(e))
      if (v !== null && ['string', 'number', 'boolean'].includes(typeof v)) columns.add(k)
  return [...columns]
}

/** Points scaled into a `width` × `height` box (y grows downward, the minimum on the bottom edge). */
export function scalePoints(
  points: readonly Point[],
  width: number,
  height: number,
): { x: number; y: number }[] {
  if (points.length === 0) return []
  const ts = points.map((p) => p.t)
  const vs = points.map((p) => p.v)
  const [t0, t1] = [Math.min(...ts), Math.max(...ts)]
  const [v0, v1] = [Math.min(0, ...vs), Math.max(...vs)]
  const x = (t: number) => (t1 === t0 ? width / 2 : ((t - t0) / (t1 - t0)) * width)
  const y = (v: number) => (v1 === v0 ? height / 2 : height - ((v - v0) / (v1 - v0)) * height)
  return points.map((p) => ({ x: round(x(p.t)), y: round(y(p.v)) }))
}

const round = (n: number) => Math.round(n * 10) / 10
