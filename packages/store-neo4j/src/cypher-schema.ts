/**
 * The store's schema: uniqueness constraints (each backed by an index) and plain indexes,
 * all `IF NOT EXISTS`, so running them at every start is idempotent. Neo4j Community
 * supports every one of them (composite uniqueness included; node keys would not be).
 */

import { cypher } from './statement.js'

export const SCHEMA = [
  cypher('CREATE CONSTRAINT catalog_entity_urn IF NOT EXISTS FOR (e:Entity) REQUIRE e.urn IS UNIQUE'),
  cypher(
    `CREATE CONSTRAINT catalog_aspect_version IF NOT EXISTS
     FOR (a:Aspect) REQUIRE (a.urn, a.aspect, a.version) IS UNIQUE`,
  ),
  cypher('CREATE INDEX catalog_aspect_urn IF NOT EXISTS FOR (a:Aspect) ON (a.urn)'),
  cypher('CREATE INDEX catalog_aspect_name IF NOT EXISTS FOR (a:Aspect) ON (a.aspect, a.version)'),
  cypher('CREATE INDEX catalog_aspect_run IF NOT EXISTS FOR (a:Aspect) ON (a.runId)'),
  cypher('CREATE CONSTRAINT catalog_change_seq IF NOT EXISTS FOR (c:Change) REQUIRE c.seq IS UNIQUE'),
  cypher('CREATE CONSTRAINT catalog_counter_name IF NOT EXISTS FOR (c:Counter) REQUIRE c.name IS UNIQUE'),
  cypher(
    `CREATE CONSTRAINT catalog_timeseries_key IF NOT EXISTS FOR (t:Timeseries)
     REQUIRE (t.entityType, t.aspect, t.urn, t.timestampMillis, t.partition, t.messageId) IS UNIQUE`,
  ),
  cypher(
    `CREATE INDEX catalog_timeseries_range IF NOT EXISTS FOR (t:Timeseries)
     ON (t.entityType, t.aspect, t.urn, t.timestampMillis)`,
  ),
  cypher('CREATE INDEX catalog_timeseries_urn IF NOT EXISTS FOR (t:Timeseries) ON (t.urn)'),
  cypher(
    `CREATE INDEX catalog_timeseries_age IF NOT EXISTS FOR (t:Timeseries)
     ON (t.entityType, t.aspect, t.timestampMillis)`,
  ),
  cypher(
    'CREATE CONSTRAINT catalog_task_id IF NOT EXISTS FOR (t:Task) REQUIRE (t.nodeId, t.taskId) IS UNIQUE',
  ),
  cypher('CREATE INDEX catalog_task_state IF NOT EXISTS FOR (t:Task) ON (t.state)'),
] as const

/** Creates the change-log counter at 0 unless it exists. */
export const INIT_COUNTER = cypher('MERGE (c:Counter {name: $counter}) ON CREATE SET c.value = 0', 'counter')

/** Waits until every index is online (a fresh plain index populates in the background). */
export const AWAIT_INDEXES = cypher('CALL db.awaitIndexes($timeoutSeconds)', 'timeoutSeconds')

/**
 * Codes Neo4j answers when a concurrent start created the same schema rule first; the rule
 * exists, which is all `IF NOT EXISTS` wanted.
 */
export const SCHEMA_RACE_CODES = new Set([
  'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists',
  'Neo.ClientError.Schema.ConstraintAlreadyExists',
  'Neo.ClientError.Schema.IndexAlreadyExists',
])
