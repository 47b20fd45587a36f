import type { SearchSchema } from '@catalog/search'

/**
 * An entity type's default fields of the highest boost (a dataset's `id`, `name`,
 * `qualifiedName`), whose words are counted for ranking; memoized by entity type.
 */
export function bestFieldsOf(schema: SearchSchema): (entityType: string) => ReadonlySet<string> {
  const memo = new Map<string, ReadonlySet<string>>()
  return (entityType) => {
    let best = memo.get(entityType)
    if (!best) {
      const spec = schema.entity(entityType)
      const boost = (f: string) => spec?.fields.get(f)?.boost ?? 1
      const top = Math.max(0, ...(spec?.defaultFields ?? []).map(boost))
      best = new Set((spec?.defaultFields ?? []).filter((f) => boost(f) === top))
      memo.set(entityType, best)
    }
    return best
  }
}
