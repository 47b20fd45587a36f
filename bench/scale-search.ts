/**
 * The search figures of the scale benchmark: each kind of `scale-kinds.ts` over HTTP
 * (sequential, default facets), beside a raw query on the same search file in this process:
 * for words and autocomplete, FTS5 ranking every match (`ORDER BY bm25 LIMIT 10`, what an index
 * pays when it scores every hit); for `field:value`, the first 10 documents of the value from
 * the index's own `exact` and `urn_keys` tables.
 */
import Database from 'better-sqlite3'
import { fmt } from './lib.js'
import { send, type Timing, timeInterleaved } from './scale-http.js'
import { type Kind, scaleKinds } from './scale-kinds.js'
import { latency, type Row } from './scale-table.js'

/** The request body of a kind's input. */
export const searchBody = (kind: Kind, input: string) =>
  kind.action === 'search'
    ? { input, entity: 'dataset', start: 0, count: 10 }
    : { query: input, entity: 'dataset', limit: 10 }

/** The raw baseline of a kind: one query on the search file. */
export function rawQuery(db: Database.Database, kind: Kind): (input: string) => unknown {
  if (kind.name.startsWith('exact')) {
    const stmt = db.prepare(
      `SELECT d.urn FROM docs d WHERE d.id IN (
         SELECT doc_id FROM exact WHERE field = (SELECT id FROM fields WHERE name = $f) AND value = $v COLLATE NOCASE
         UNION ALL
         SELECT doc_id FROM urn_keys WHERE field = (SELECT id FROM fields WHERE name = $f) AND key = lower($v))
       AND d.entity_type = 'dataset' AND d.removed = 0 LIMIT 10`,
    )
    return (input) => {
      const at = input.indexOf(':')
      return stmt.all({ f: input.slice(0, at), v: input.slice(at + 1) })
    }
  }
  const all = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10').pluck()
  return (input) => {
    const words = input.split(/[^a-z0-9]+/i).filter(Boolean)
    return all.all(words.map((w) => `"${w}" *`).join(' AND '))
  }
}

export const BASELINE_NAME = (kind: Kind) =>
  kind.name.startsWith('exact') ? 'raw exact lookup, first 10' : 'raw FTS5, rank every match'

/** What the first answer of a kind says: hits or suggestions. */
function answerOf(kind: Kind, text: string): string {
  const value = (JSON.parse(text) as { value: { numEntities?: number; suggestions?: unknown[] } }).value
  return kind.action === 'search'
    ? `${fmt(value.numEntities ?? 0)} hits`
    : `${value.suggestions?.length ?? 0} suggestions`
}

/** Waits until a first search answers 200 (the first ones load the index's caches). */
export async function warm(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}/entities?action=search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(searchBody(scaleKinds[0] as Kind, 'orders')),
    })
    await res.text()
    if (res.status === 200) return
    if (attempt >= 20) throw new Error(`search still answers ${res.status} after ${attempt} tries`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Measures each kind (by default every one); returns its table rows, and says the detail of each. */
export async function searchRows(
  url: string,
  pid: number,
  searchFile: string,
  samples: number,
  say: (line: string) => void,
  kinds: readonly Kind[] = scaleKinds,
): Promise<Row[]> {
  await warm(url)
  const db = new Database(searchFile, { readonly: true })
  const rows: Row[] = []
  try {
    for (const kind of kinds) {
      const input = (i: number) => kind.inputs[i % kind.inputs.length] as string
      const endpoint = `${url}/entities?action=${kind.action}`
      const answers = []
      for (const text of kind.inputs)
        answers.push(`"${text}" ${answerOf(kind, await send(endpoint, searchBody(kind, text)))}`)
      say(`search ${kind.name}: ${answers.join(', ')}`)
      const query = rawQuery(db, kind)
      const [http, raw] = (await timeInterleaved(
        [
          { pid, run: (i) => send(endpoint, searchBody(kind, input(i))) },
          { pid: process.pid, run: async (i) => query(input(i)) },
        ],
        samples,
      )) as [Timing, Timing]
      rows.push({
        figure: `search ${kind.name}`,
        result: latency(http),
        baseline: `${BASELINE_NAME(kind)}: ${latency({ p50: raw.p50, p95: raw.p95 })}`,
        ratio: http.p95 / raw.p95,
        target: `p95 ≤ ${kind.targetMs} ms`,
        met: http.p95 <= kind.targetMs,
      })
    }
  } finally {
    db.close()
  }
  return rows
}
