import { InvalidInputError } from './errors.js'

/**
 * The write-side limits, checked before any work starts. Each is far above what DataHub's own
 * model and real ingestion produce; they exist so one request cannot stop the others.
 */
export const WRITE_LIMITS = {
  /** Deepest JSON nesting of one aspect value (DataHub's deepest aspect nests about 12 levels). */
  maxAspectDepth: 64,
  /** Most items in any one array of an aspect value (a 10,000-column schema fits twice). */
  maxArrayItems: 20_000,
  /**
   * Largest aspect value, in characters of its JSON text: DataHub's ingestion limit
   * (`INGESTION_MAX_SERIALIZED_STRING_LENGTH`, 16,000,000).
   */
  maxAspectChars: 16_000_000,
  /** Most proposals in one `ingestProposalBatch`, most snapshots in one `batchIngest`. */
  maxBatchItems: 10_000,
} as const

/** Optional overrides of {@link WRITE_LIMITS} (tests, configuration). */
export interface AspectLimits {
  readonly maxAspectDepth: number
  readonly maxArrayItems: number
  readonly maxAspectChars: number
}

/**
 * Walks an aspect value without recursion (so no depth can overflow the stack) and throws an
 * {@link InvalidInputError} naming the limit it breaks: nesting depth, array length or total
 * size. The size is the length of the value's JSON text (escapes aside), counted as it is walked; the walk
 * stops at the first broken limit, so a huge value costs no more than the limit.
 */
export function checkAspectLimits(
  aspectName: string,
  value: unknown,
  limits: AspectLimits = WRITE_LIMITS,
): void {
  // Two stacks side by side: no object per member walked.
  const values: unknown[] = [value]
  const depths: number[] = [1]
  let chars = 0
  while (values.length > 0) {
    const v = values.pop()
    const depth = depths.pop() as number
    if (v === null || typeof v !== 'object') {
      chars += typeof v === 'string' ? v.length + 2 : String(v).length
      if (chars > limits.maxAspectChars) throw tooLarge(aspectName, limits)
      continue
    }
    if (depth > limits.maxAspectDepth) {
      throw new InvalidInputError(
        `Aspect ${aspectName} nests deeper than the limit of ${limits.maxAspectDepth} levels (max aspect nesting depth)`,
      )
    }
    if (Array.isArray(v)) {
      if (v.length > limits.maxArrayItems) {
        throw new InvalidInputError(
          `Aspect ${aspectName} has an array of ${v.length} items; the limit is ${limits.maxArrayItems} (max array items)`,
        )
      }
      chars += v.length === 0 ? 2 : v.length + 1 // brackets and commas
      for (let i = 0; i < v.length; i++) {
        values.push(v[i])
        depths.push(depth + 1)
      }
    } else {
      const keys = Object.keys(v)
      chars += keys.length === 0 ? 2 : 1 // braces and commas, with the 4 per member below
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string
        chars += key.length + 4
        values.push((v as Record<string, unknown>)[key])
        depths.push(depth + 1)
      }
    }
    if (chars > limits.maxAspectChars) throw tooLarge(aspectName, limits)
  }
}

function tooLarge(aspectName: string, limits: AspectLimits): InvalidInputError {
  return new InvalidInputError(
    `Aspect ${aspectName} is larger than the limit of ${limits.maxAspectChars} characters (max aspect size)`,
  )
}
