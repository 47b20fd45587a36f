import { InvalidInputError } from '@catalog/core'

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
}

/**
 * Parses a token lifetime such as `30d`, `12h`, `90m`, `1y` or `never` (no expiry) into
 * milliseconds; `never` gives null.
 */
export function parseTtl(text: string): number | null {
  if (text === 'never') return null
  const match = /^(\d+)([smhdwy])$/.exec(text.trim())
  if (!match) {
    throw new InvalidInputError(
      `Invalid token lifetime '${text}': use <number><s|m|h|d|w|y> (e.g. 30d) or 'never'`,
    )
  }
  const ms = Number(match[1]) * (UNIT_MS[match[2] as string] as number)
  if (ms <= 0 || !Number.isSafeInteger(ms)) throw new InvalidInputError(`Invalid token lifetime '${text}'`)
  return ms
}

/** DataHub's `AccessTokenDuration` symbols, in milliseconds (null: no expiry). */
export const ACCESS_TOKEN_DURATIONS: Readonly<Record<string, number | null>> = {
  ONE_HOUR: 3_600_000,
  ONE_DAY: 86_400_000,
  ONE_WEEK: 7 * 86_400_000,
  ONE_MONTH: 30 * 86_400_000,
  THREE_MONTHS: 90 * 86_400_000,
  SIX_MONTHS: 180 * 86_400_000,
  ONE_YEAR: 365 * 86_400_000,
  NO_EXPIRY: null,
}
