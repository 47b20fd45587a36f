import { BROWSE_V2_DELIMITER, browsePathV2Value } from '@catalog/search'
import type Database from 'better-sqlite3'

/**
 * Rewrites contributions stored before layout 4, whose `BROWSE_PATH_V2` fields (`browsePathV2`)
 * held the path's ids as separate values, to the one joined value (`␟id1␟id2`) browseV2
 * matches by prefix. Ids repeated within one path were stored once and stay so. Runs inside
 * the caller's transaction, before the derived tables are rebuilt.
 */
export function joinLegacyBrowsePathsV2(db: Database.Database, fields: readonly string[]): number {
  if (fields.length === 0) return 0
  const update = db.prepare('UPDATE docs SET parts = ? WHERE id = ?')
  const like = fields.map(() => 'parts LIKE ?').join(' OR ')
  const rows = db
    .prepare(`SELECT id, parts FROM docs WHERE ${like}`)
    .all(...fields.map((f) => `%"${f}"%`)) as Array<{ id: number; parts: string }>
  let changed = 0
  for (const row of rows) {
    const parts = JSON.parse(row.parts) as Record<string, Record<string, unknown[]>>
    let touched = false
    for (const contribution of Object.values(parts))
      for (const field of fields) {
        const values = contribution[field]
        if (!values || (values.length === 1 && String(values[0]).startsWith(BROWSE_V2_DELIMITER))) continue
        const joined = browsePathV2Value(values.map(String))
        if (joined === undefined) delete contribution[field]
        else contribution[field] = [joined]
        touched = true
      }
    if (touched) {
      update.run(JSON.stringify(parts), row.id)
      changed++
    }
  }
  return changed
}
