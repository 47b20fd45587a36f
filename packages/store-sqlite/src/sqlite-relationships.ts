import type { Direction, RelationshipPage, RelationshipQuery } from '@catalog/store'
import type Database from 'better-sqlite3'

/**
 * Most relationship types bound one by one (`type IN (?, ?, ...)`, a seek per type on the
 * index); longer lists are passed as one JSON array.
 */
const MAX_BOUND_TYPES = 4

/**
 * Edge rows paged in JS at most: up to this many are read as they come, deduplicated and
 * sorted here, which costs less than SQLite's temporary b-trees for DISTINCT and ORDER BY;
 * past it, SQLite pages (and counts) them.
 */
const MAX_PAGED_HERE = 500

/**
 * UTF-16 surrogates: JS orders strings by UTF-16 code units and SQLite by UTF-8 bytes, which
 * agree except between characters past U+FFFF and those from U+E000: such pages are left to SQLite.
 */
const SURROGATE = /[\uD800-\uDFFF]/

interface Statements {
  readonly count: Database.Statement
  readonly page: Database.Statement
  /** The (type, entity) rows of each direction asked, unordered, with a LIMIT. */
  readonly rows: readonly Database.Statement[]
}

type Pair = { type: string; entity: string }

/**
 * One-hop relationship reads over `edge_rows` (by URN id, the far end's URN joined): distinct (type, entity) pairs at an
 * entity, ordered by type then entity. Statements are prepared once per direction and type
 * filter shape. An entity with few edges is paged from its rows in JS (see `pageHere`);
 * otherwise SQLite pages them, and the total is counted by a second query only when the page
 * does not show it: a page that is neither full nor past the end holds the last pair.
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
    if (q.count > 0 && q.start >= 0) {
      const here = pageHere(s.rows, one, q.start, q.count)
      if (here) return here
    }
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
  // The limit written as a literal: bound as a parameter, it made each read take about twice the CPU.
  const rows = (sql: string) => db.prepare(`${sql} LIMIT ${MAX_PAGED_HERE + 1}`).raw()
  if (direction === 'OUTGOING' || direction === 'INCOMING') {
    const one = direction === 'OUTGOING' ? out : inc
    return {
      count: db.prepare(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT type, entity FROM (${one}))`),
      page: db.prepare(`SELECT DISTINCT type, entity FROM (${one}) ${page}`),
      rows: [rows(one)],
    }
  }
  return {
    count: db.prepare(`SELECT COUNT(*) AS n FROM (${out} UNION ${inc})`),
    page: db.prepare(`SELECT type, entity FROM (${out} UNION ${inc}) ${page}`),
    rows: [rows(out), rows(inc)],
  }
}

/**
 * The page and total the SQL statements give, worked out here from every edge row (at most
 * {@link MAX_PAGED_HERE} per direction): distinct (type, entity) pairs ordered by type, then
 * entity. Undefined when there are more rows, or strings JS would order otherwise.
 */
function pageHere(
  statements: readonly Database.Statement[],
  args: readonly unknown[],
  start: number,
  count: number,
): { total: number; relationships: Pair[] } | undefined {
  const pairs: Pair[] = []
  const seen = new Set<string>()
  for (const statement of statements) {
    const rows = statement.all(...args) as Array<[string, string]>
    if (rows.length > MAX_PAGED_HERE) return undefined
    for (const [type, entity] of rows) {
      if (SURROGATE.test(type) || SURROGATE.test(entity)) return undefined
      const key = `${type}\u0000${entity}`
      if (seen.has(key)) continue
      seen.add(key)
      pairs.push({ type, entity })
    }
  }
  if (pairs.length > 1) pairs.sort(byTypeThenEntity)
  return { total: pairs.length, relationships: pairs.slice(start, start + count) }
}

function byTypeThenEntity(a: Pair, b: Pair): number {
  if (a.type !== b.type) return a.type < b.type ? -1 : 1
  return a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : 0
}
