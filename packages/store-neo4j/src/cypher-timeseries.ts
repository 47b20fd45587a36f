/**
 * Cypher for time-series rows: `(:Timeseries {entityType, aspect, urn, timestampMillis,
 * partition, messageId, value, systemMetadata, bytes, ...fields})`, unique by the first six
 * (DataHub's document id). They are not versioned and not in the change log. `fields` are
 * the value's scalars flattened into list properties (see `timeseries-fields.ts`) so filters
 * and sorts on value fields run in the database.
 */
import { cypher, type Statement } from './statement.js'

/** Inserts a row, or replaces the value (and derived fields) of the row with the same key. */
export const UPSERT_TIMESERIES = cypher(
  `MERGE (t:Timeseries {entityType: $entityType, aspect: $aspect, urn: $urn,
     timestampMillis: $timestampMillis, partition: $partition, messageId: $messageId})
   SET t.value = $value, t.systemMetadata = $systemMetadata, t.bytes = $bytes,
     t.fieldPaths = $fields.fieldPaths,
     t.textPaths = $fields.textPaths, t.textValues = $fields.textValues,
     t.numberPaths = $fields.numberPaths, t.numberValues = $fields.numberValues,
     t.booleanPaths = $fields.booleanPaths, t.booleanValues = $fields.booleanValues`,
  'entityType',
  'aspect',
  'urn',
  'timestampMillis',
  'partition',
  'messageId',
  'value',
  'systemMetadata',
  'bytes',
  'fields',
)

/** Positions `i` of a row's parallel lists `<kind>Paths` whose path is `path`. */
const at = (kind: 'text' | 'number' | 'boolean', path: string) =>
  `i IN range(0, size(coalesce(t.${kind}Paths, [])) - 1) WHERE t.${kind}Paths[i] = ${path}`

/** A bound test of `x` against criterion `c` (`c.above`: `>`, else `<`; `c.inclusive` adds `=`). */
const bound = (x: string) =>
  `CASE WHEN c.above THEN ${x} > c.bound OR (c.inclusive AND ${x} = c.bound)
   ELSE ${x} < c.bound OR (c.inclusive AND ${x} = c.bound) END`

/**
 * The filter: `$filter` is a list of groups of criteria (see `CriterionParam`); a row passes
 * when every criterion of some group holds, or when there are no groups.
 */
const FILTER = `(size($filter) = 0 OR any(g IN $filter WHERE all(c IN g WHERE c.negated <> coalesce(
     (c.exists AND c.path IN coalesce(t.fieldPaths, []))
     OR any(${at('text', 'c.path')} AND (t.textValues[i] IN c.texts
       OR (c.compare AND NOT c.numeric AND ${bound('t.textValues[i]')})))
     OR any(${at('number', 'c.path')} AND (t.numberValues[i] IN c.numbers
       OR (c.compare AND c.numeric AND ${bound('t.numberValues[i]')})))
     OR any(${at('boolean', 'c.path')} AND t.booleanValues[i] IN c.booleans),
   false))))`

const MATCH_RANGE = `MATCH (t:Timeseries {entityType: $entityType, aspect: $aspect, urn: $urn})
   WHERE t.timestampMillis >= $startTimeMillis AND t.timestampMillis <= $endTimeMillis
     AND ${FILTER}`

const ROW = 't.timestampMillis AS timestampMillis, t.value AS value, t.systemMetadata AS systemMetadata'

const QUERY_PARAMS = [
  'entityType',
  'aspect',
  'urn',
  'startTimeMillis',
  'endTimeMillis',
  'filter',
  'limit',
] as const
type QueryParam = (typeof QUERY_PARAMS)[number]

/** Rows of one aspect of one entity within inclusive time bounds passing `$filter`, newest first. */
export const TIMESERIES_QUERY: Statement<QueryParam> = cypher(
  `${MATCH_RANGE}
   RETURN ${ROW}
   ORDER BY t.timestampMillis DESC LIMIT $limit`,
  ...QUERY_PARAMS,
)

/**
 * The same rows sorted by the value field at `$sortField`, as SQLite orders JSON values:
 * rows without it, then numbers (booleans as 0/1), then strings; ties newest first. The
 * first value at the path is the row's sort key. One statement per order.
 */
function sortedBy(order: 'ASC' | 'DESC'): Statement<QueryParam | 'sortField'> {
  return cypher(
    `${MATCH_RANGE}
     WITH t,
       [${at('number', '$sortField')} | t.numberValues[i]]
         + [${at('boolean', '$sortField')} | CASE WHEN t.booleanValues[i] THEN 1 ELSE 0 END] AS numbers,
       [${at('text', '$sortField')} | t.textValues[i]] AS texts
     WITH t, head(numbers) AS n, CASE WHEN size(numbers) = 0 THEN head(texts) END AS s
     RETURN ${ROW}
     ORDER BY (n IS NOT NULL OR s IS NOT NULL) ${order}, s IS NOT NULL ${order}, n ${order}, s ${order},
       t.timestampMillis DESC
     LIMIT $limit`,
    ...QUERY_PARAMS,
    'sortField',
  )
}

/** {@link TIMESERIES_QUERY} sorted by a value field, by order. */
export const TIMESERIES_SORTED = { ASCENDING: sortedBy('ASC'), DESCENDING: sortedBy('DESC') } as const

/** Rows of an index in total and with `timestampMillis <= $endTimeMillis`. */
export const TIMESERIES_COUNTS = cypher(
  `MATCH (t:Timeseries {entityType: $entityType, aspect: $aspect})
   RETURN count(t) AS total, count(CASE WHEN t.timestampMillis <= $endTimeMillis THEN t END) AS matching`,
  'entityType',
  'aspect',
  'endTimeMillis',
)

/** Deletes the oldest `$limit` rows of an index up to `$endTimeMillis`; returns how many went. */
export const TRUNCATE_TIMESERIES = cypher(
  `MATCH (t:Timeseries {entityType: $entityType, aspect: $aspect})
   WHERE t.timestampMillis <= $endTimeMillis
   WITH t ORDER BY t.timestampMillis LIMIT $limit
   DELETE t
   RETURN count(*) AS removed`,
  'entityType',
  'aspect',
  'endTimeMillis',
  'limit',
)

/** Rows and bytes of every index holding rows, by entity type and aspect. */
export const TIMESERIES_SIZES = cypher(
  `MATCH (t:Timeseries)
   WITH t.entityType AS entityType, t.aspect AS aspect, count(t) AS rowCount,
     sum(coalesce(t.bytes, size(t.value))) AS bytes
   RETURN entityType, aspect, rowCount, bytes
   ORDER BY entityType, aspect`,
)
