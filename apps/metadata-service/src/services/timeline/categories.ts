import { InvalidInputError } from '@catalog/core'
import { CHANGE_CATEGORIES, type ChangeCategory } from './types.js'

const COMPOUNDS: readonly ChangeCategory[] = [
  'GLOSSARY_TERM',
  'TECHNICAL_SCHEMA',
  'STRUCTURED_PROPERTY',
  'ASSET_MEMBERSHIP',
]
const ALIASES: Readonly<Record<string, ChangeCategory>> = { OWNER: 'OWNERSHIP' }

/**
 * DataHub's StringToChangeCategoryConverter: case-insensitive, `OWNER` for OWNERSHIP, and a
 * compound name in any spelling that holds its words (`technical-schema`, `glossary term`).
 */
export function parseCategory(raw: string): ChangeCategory {
  const upper = raw.toUpperCase()
  const alias = ALIASES[upper]
  if (alias) return alias
  const compound = COMPOUNDS.find((c) => c.split('_').every((word) => upper.includes(word)))
  if (compound) return compound
  if ((CHANGE_CATEGORIES as readonly string[]).includes(upper)) return upper as ChangeCategory
  throw new InvalidInputError(
    `Failed to convert from type [java.lang.String] to type [com.linkedin.metadata.timeline.data.ChangeCategory] for value [${raw}]`,
  )
}

/** The `categories` parameter: repeated and/or comma-separated values, as Spring binds a Set. */
export function parseCategories(values: readonly string[]): ChangeCategory[] {
  const parts = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0)
  if (parts.length === 0) {
    throw new InvalidInputError(
      "Required request parameter 'categories' for method parameter type Set is not present",
    )
  }
  return [...new Set(parts.map(parseCategory))]
}
