import type { WindowDuration } from '../schemas/usage.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** Start of the calendar bucket holding `t` (UTC; weeks start on Monday, as Elasticsearch's). */
export function bucketStart(t: number, unit: WindowDuration): number {
  const d = new Date(t)
  switch (unit) {
    case 'HOUR':
      return Math.floor(t / HOUR) * HOUR
    case 'DAY':
      return Math.floor(t / DAY) * DAY
    case 'WEEK': {
      const day = Math.floor(t / DAY) * DAY
      return day - ((d.getUTCDay() + 6) % 7) * DAY
    }
    case 'MONTH':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
    case 'YEAR':
      return Date.UTC(d.getUTCFullYear(), 0, 1)
  }
}

/** The bucket after the one starting at `start`. */
export function nextBucket(start: number, unit: WindowDuration): number {
  const d = new Date(start)
  switch (unit) {
    case 'HOUR':
      return start + HOUR
    case 'DAY':
      return start + DAY
    case 'WEEK':
      return start + 7 * DAY
    case 'MONTH':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
    case 'YEAR':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1)
  }
}

/**
 * Every bucket start from the first to the last time given, the empty ones between included
 * (a date histogram's buckets), at most `max` of them.
 */
export function bucketRange(times: readonly number[], unit: WindowDuration, max: number): number[] {
  if (times.length === 0) return []
  const last = bucketStart(Math.max(...times), unit)
  const out: number[] = []
  for (let b = bucketStart(Math.min(...times), unit); b <= last && out.length < max; b = nextBucket(b, unit))
    out.push(b)
  return out
}

/** How far back `queryRange` looks (DataHub's `convertRangeToStartTime`, bounds inclusive). */
export function rangeStart(range: string, now: number): number {
  const back: Record<string, number> = {
    HOUR: 2 * HOUR,
    DAY: 2 * DAY,
    WEEK: 8 * DAY,
    MONTH: 31 * DAY,
    QUARTER: 92 * DAY,
    YEAR: 366 * DAY,
  }
  const span = back[range]
  return span === undefined ? 0 : now - (span + 1)
}
