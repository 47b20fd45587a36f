import {
  type AutocompleteRequest,
  mergeContributions,
  RequestBuilder,
  type SearchRequest,
  type SearchSchema,
} from '@catalog/search'
import type Database from 'better-sqlite3'
import type { PartsCodec } from './parts-codec.js'

/**
 * The queries a warm-up runs once its caches are loaded, answers unused: searches (default
 * facets) of the index's two most common words, of the most common one, and of words of the
 * name (best fields) of a document from the middle of the index (the common words may be in no
 * name), and an autocomplete. They compile the query code and prepare the statements that every
 * query uses, so that the first real query after a restart does not pay for that (at 100,000
 * datasets it took 2.3× a later query's time without them, about 1× with them).
 */
export function practiceQueries(
  db: Database.Database,
  schema: SearchSchema,
  codec: PartsCodec,
  common: readonly string[],
  bestFields: (entityType: string) => ReadonlySet<string>,
): Array<SearchRequest | AutocompleteRequest> {
  const doc = db
    .prepare(
      'SELECT entity_type, parts FROM docs WHERE removed = 0 AND id >= (SELECT max(id) / 2 FROM docs) LIMIT 1',
    )
    .raw()
    .get() as [string, string] | undefined
  const [first] = common
  if (!doc || first === undefined) return []
  const [entityType, parts] = doc
  const fields = mergeContributions(codec.decode(parts))
  const named = [...bestFields(entityType)].flatMap((f) => (fields[f] ?? []).map(String)).slice(0, 1)
  const nameWords = named.flatMap((v) => v.split(/[^A-Za-z]+/)).filter((w) => w.length >= 3)
  const requests = new RequestBuilder(schema)
  const search = (input: string) => requests.search({ input, entityTypes: [entityType], start: 0, count: 10 })
  try {
    return [
      search(common.join(' ')),
      search(first),
      ...(nameWords.length > 0
        ? [search(nameWords.slice(0, 2).join(' ')), search(nameWords[0] as string)]
        : []),
      requests.autocomplete({ query: first.slice(0, 4), entityType, limit: 10 }),
    ]
  } catch {
    // A request the model refuses (an entity type without default fields): nothing to practise.
    return []
  }
}
