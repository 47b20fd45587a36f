/**
 * Cypher for time-series rows: `(:Timeseries {entityType, aspect, urn, timestampMillis,
 * partition, messageId, value, systemMetadata})`, unique by the first six (DataHub's
 * document id). They are not versioned and not in the change log.
 */
import { cypher } from './statement.js'

/** Inserts a row, or replaces the value of the row with the same key. */
export const UPSERT_TIMESERIES = cypher(
  `MERGE (t:Timeseries {entityType: $entityType, aspect: $aspect, urn: $urn,
     timestampMillis: $timestampMillis, partition: $partition, messageId: $messageId})
   SET t.value = $value, t.systemMetadata = $systemMetadata`,
  'entityType',
  'aspect',
  'urn',
  'timestampMillis',
  'partition',
  'messageId',
  'value',
  'systemMetadata',
)

/** Rows of one aspect of one entity within inclusive time bounds, newest first. */
export const TIMESERIES_RANGE = cypher(
  `MATCH (t:Timeseries {entityType: $entityType, aspect: $aspect, urn: $urn})
   WHERE t.timestampMillis >= $startTimeMillis AND t.timestampMillis <= $endTimeMillis
   RETURN t.timestampMillis AS timestampMillis, t.value AS value, t.systemMetadata AS systemMetadata
   ORDER BY t.timestampMillis DESC LIMIT $limit`,
  'entityType',
  'aspect',
  'urn',
  'startTimeMillis',
  'endTimeMillis',
  'limit',
)
