import type { Direction, RelationshipPage, RelationshipQuery } from '@catalog/store'
import type Database from 'better-sqlite3'

/**
 * Most relationship types bound one by one (`type IN (?, ?, ...)`, a seek per type on the
 * index); longer lists are passed as one JSON array.
 */
const MAX_BOUND_TYPES = 4

interface Statements {
  readonly count: Database.Statement
  readonly page: Database.Statement
}

/**
 * One-hop relationship reads over `edge_rows` (by URN id, the far end's URN joined): distinct (type, entity) pairs at an
 * entity, ordered by type then entity. Statements are prepared once per direction and type
 * filter shape. The total is counted by a second query only when the page does not show it:
 * a page that is neither full nor past the end holds the last pair.
 */
export class SqliteRelationships {
  private readonly statements = new Map<string, Statements>()

  constructor(private readonly db: Database.Database) {}

  page(q: RelationshipQuery): RelationshipPage {
    const bound = q.types.length <= MAX_BOUND_TYPES
    const s = this.prepared(q.direction, bound ? q.types.length : 'json')
    // Positional parameters (binding by name costs about as much as the index seek): the URN
    // and the types, twice for both directions.
    const one = bound ? [q.urn, ...q.types] : [q.urn, JSON.stringify(q.types)]
    const args = q.direction === 'OUTGOING' || q.direction === 'INCOMING' ? one : [...one, ...one]
    const relationships =
      q.count === 0 ? [] : (s.page.all(...args, q.count, q.start) as Array<{ type: string; entity: string }>)
    const shown = relationships.length
    const total =
      q.count > 0 && q.start >= 0 && shown < q.count && (shown > 0 || q.start === 0)
        ? q.start + shown
        : (s.count.get(...args) as { n: number }).n
    return { total, relationships }
  }

  private prepared(direction: Direction, types: number | 'json'): Statements {
    const key = `${direction}:${types}`
    let s = this.statements.get(key)
    if (!s) {
      s = prepare(this.db, direction, types)
      this.statements.set(key, s)
    }
    return s
  }
}

function prepare(db: Database.Database, direction: Direction, types: number | 'json'): Statements {
  const filter =
    types === 'json'
      ? ' AND e.type IN (SELECT value FROM json_each(?))'
      : types === 0
        ? ''
        : ` AND e.type IN (${Array.from({ length: types }, () => '?').join(', ')})`
  const out = `SELECT e.type AS type, f.urn AS entity
    FROM urns n CROSS JOIN edge_rows e ON e.src = n.id CROSS JOIN urns f ON f.id = e.dst WHERE n.urn = ?${filter}`
  const inc = `SELECT e.type AS type, f.urn AS entity
    FROM urns n CROSS JOIN edge_rows e ON e.dst = n.id CROSS JOIN urns f ON f.id = e.src WHERE n.urn = ?${filter}`
  const page = 'ORDER BY type, entity LIMIT ? OFFSET ?'
  if (direction === 'OUTGOING' || direction === 'INCOMING') {
    const one = direction === 'OUTGOING' ? out : inc
    return {
      count: db.prepare(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT type, entity FROM (${one}))`),
      page: db.prepare(`SELECT DISTINCT type, entity FROM (${one}) ${page}`),
    }
  }
  return {
    count: db.prepare(`SELECT COUNT(*) AS n FROM (${out} UNION ${inc})`),
    page: db.prepare(`SELECT type, entity FROM (${out} UNION ${inc}) ${page}`),
  }
}
