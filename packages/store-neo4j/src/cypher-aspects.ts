/**
 * Cypher for versioned aspects and the change log. Model:
 *
 * - `(:Entity {urn, entityType})`: one node per entity, unique by URN. An entity that is
 *   only the destination of an edge is a placeholder node without aspects.
 * - `(:Aspect {urn, aspect, version, metadata, systemMetadata, runId, lastObserved, createdOn,
 *   createdBy})`: one
 *   node per version, unique by (urn, aspect, version), `metadata` the canonical JSON. Aspect
 *   nodes are keyed by URN rather than linked to their entity node, so every relationship in
 *   the graph is a registry edge between entity nodes.
 * - `(:Counter {name, value})`: the change-log position; `(:Change {seq, ...})`: one node
 *   per change-log entry.
 *
 * Every statement is constant text; values are parameters.
 */
import { cypher } from './statement.js'

/** Name of the counter node that holds the change-log position. */
export const CHANGE_LOG_COUNTER = 'changeLog'

/**
 * Write-locks the change-log counter (creating it at 0 when missing) and returns its value.
 * Every writing transaction starts with it, so writers are serialized: version numbers and
 * change-log positions never race, and positions become visible in commit order.
 */
export const LOCK_CHANGE_LOG = cypher(
  `MERGE (c:Counter {name: $counter}) ON CREATE SET c.value = 0
   SET c.locked = true REMOVE c.locked
   RETURN c.value AS seq`,
  'counter',
)

/** The latest row of an aspect (or null) and the highest version stored for it. */
export const CURRENT_ASPECT = cypher(
  `OPTIONAL MATCH (v:Aspect {urn: $urn, aspect: $aspect})
   WITH max(v.version) AS maxVersion
   OPTIONAL MATCH (a:Aspect {urn: $urn, aspect: $aspect, version: 0})
   RETURN a {.*} AS current, maxVersion`,
  'urn',
  'aspect',
)

/**
 * The stored latest value (canonical JSON, or null when there is none) of each
 * `$keys[i] = {urn, aspect}`: `restate` checks the values it re-announces against them.
 */
export const LATEST_VALUES = cypher(
  `UNWIND $keys AS key
   OPTIONAL MATCH (a:Aspect {urn: key.urn, aspect: key.aspect, version: 0})
   RETURN key.urn AS urn, key.aspect AS aspect, a.metadata AS metadata`,
  'keys',
)

/** Refreshes the system metadata of the latest row (an identical write), with its run. */
export const TOUCH_SYSTEM_METADATA = cypher(
  `MATCH (a:Aspect {urn: $urn, aspect: $aspect, version: 0})
   SET a.systemMetadata = $systemMetadata, a.runId = $runId, a.lastObserved = $lastObserved`,
  'urn',
  'aspect',
  'systemMetadata',
  'runId',
  'lastObserved',
)

/**
 * Stores a new latest value: ensures the entity node, renumbers the previous latest row
 * (if any) to `$archiveAs` and creates version 0.
 */
export const WRITE_LATEST = cypher(
  `MERGE (e:Entity {urn: $urn}) SET e.entityType = $entityType
   WITH e
   OPTIONAL MATCH (previous:Aspect {urn: $urn, aspect: $aspect, version: 0})
   SET previous.version = $archiveAs
   WITH DISTINCT e
   CREATE (:Aspect {urn: $urn, aspect: $aspect, version: 0, metadata: $metadata,
     systemMetadata: $systemMetadata, runId: $runId, lastObserved: $lastObserved,
     createdOn: $createdOn, createdBy: $createdBy})`,
  'urn',
  'entityType',
  'aspect',
  'archiveAs',
  'metadata',
  'systemMetadata',
  'runId',
  'lastObserved',
  'createdOn',
  'createdBy',
)

/** Deletes every version of one aspect; returns how many rows went. */
export const DELETE_ASPECT = cypher(
  `OPTIONAL MATCH (a:Aspect {urn: $urn, aspect: $aspect})
   WITH collect(a) AS rows
   FOREACH (a IN rows | DELETE a)
   RETURN size(rows) AS removed`,
  'urn',
  'aspect',
)

/** Deletes every aspect row and time-series row of an entity; returns how many aspect rows went. */
export const DELETE_ENTITY_ROWS = cypher(
  `OPTIONAL MATCH (a:Aspect {urn: $urn})
   WITH collect(a) AS rows
   FOREACH (a IN rows | DELETE a)
   WITH size(rows) AS removed
   OPTIONAL MATCH (t:Timeseries {urn: $urn})
   WITH removed, collect(t) AS series
   FOREACH (t IN series | DELETE t)
   RETURN removed`,
  'urn',
)

/** Removes an entity node that has neither aspect rows nor edges left. */
export const DROP_EMPTY_ENTITY = cypher(
  `MATCH (e:Entity {urn: $urn})
   WHERE NOT EXISTS { (e)--() } AND NOT EXISTS { MATCH (:Aspect {urn: $urn}) }
   DELETE e`,
  'urn',
)

/** Appends one change-log entry at the next position; returns that position. */
export const LOG_CHANGE = cypher(
  `MATCH (c:Counter {name: $counter})
   SET c.value = c.value + 1
   CREATE (:Change {seq: c.value, urn: $urn, entityType: $entityType, aspect: $aspect,
     change: $change, value: $value, entityDeleted: $entityDeleted, createdOn: $createdOn,
     createdBy: $createdBy, systemMetadata: $systemMetadata})
   RETURN c.value AS seq`,
  'counter',
  'urn',
  'entityType',
  'aspect',
  'change',
  'value',
  'entityDeleted',
  'createdOn',
  'createdBy',
  'systemMetadata',
)

/** The newest change-log position (0 when nothing was ever logged). */
export const HEAD = cypher(
  `OPTIONAL MATCH (c:Counter {name: $counter})
   RETURN coalesce(c.value, 0) AS seq`,
  'counter',
)

/** Change-log entries after a position, in order. */
export const CHANGES = cypher(
  `MATCH (c:Change) WHERE c.seq > $after
   RETURN c {.*} AS change ORDER BY c.seq LIMIT $limit`,
  'after',
  'limit',
)

/** Latest rows of some entities, optionally only some aspects (`$aspects` null for all). */
export const LATEST = cypher(
  `UNWIND $urns AS urn
   MATCH (a:Aspect {urn: urn, version: 0})
   WHERE $aspects IS NULL OR a.aspect IN $aspects
   RETURN a {.*} AS row ORDER BY a.urn, a.aspect`,
  'urns',
  'aspects',
)

/**
 * One version: `$version` >= 0 as stored; a negative one counts back from the newest
 * previous value (max + version + 1), where nothing at or below 0 exists.
 */
export const VERSION = cypher(
  `OPTIONAL MATCH (v:Aspect {urn: $urn, aspect: $aspect})
   WITH max(v.version) AS maxVersion
   WITH CASE WHEN $version >= 0 THEN $version ELSE maxVersion + $version + 1 END AS wanted
   WHERE $version >= 0 OR wanted > 0
   MATCH (a:Aspect {urn: $urn, aspect: $aspect, version: wanted})
   RETURN a {.*} AS row`,
  'urn',
  'aspect',
  'version',
)

/** True when the latest row of the key aspect exists. */
export const EXISTS = cypher(
  `RETURN EXISTS { MATCH (:Aspect {urn: $urn, aspect: $aspect, version: 0}) } AS present`,
  'urn',
  'aspect',
)

/**
 * Latest rows for re-indexing in (urn, aspect) order. Optional filters are null when unused;
 * `$urnRegex` is the scan's LIKE pattern as a regular expression.
 */
export const SCAN = cypher(
  `MATCH (a:Aspect)
   WHERE a.version = 0
     AND ($urn IS NULL OR a.urn = $urn)
     AND ($urnRegex IS NULL OR a.urn =~ $urnRegex)
     AND ($aspect IS NULL OR a.aspect = $aspect)
   RETURN a {.*} AS row ORDER BY a.urn, a.aspect SKIP $start LIMIT $limit`,
  'urn',
  'urnRegex',
  'aspect',
  'start',
  'limit',
)
