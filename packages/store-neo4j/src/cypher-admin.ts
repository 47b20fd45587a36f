/**
 * Cypher for runs, counts, time-series deletes, entity deletes and rollbacks. Every latest
 * `(:Aspect)` row carries `runId` and `lastObserved` copied from its system metadata, so runs
 * are read from the rows themselves (indexed by `catalog_aspect_run`).
 */
import { cypher } from './statement.js'

/** Latest rows of an aspect; `$urnRegex` is the LIKE pattern as a regular expression, or null. */
export const COUNT_ASPECTS = cypher(
  `MATCH (a:Aspect {aspect: $aspect, version: 0})
   WHERE $urnRegex IS NULL OR a.urn =~ $urnRegex
   RETURN count(a) AS n`,
  'aspect',
  'urnRegex',
)

/**
 * Runs by their newest write. Rows of entities whose latest `$statusAspect` value is
 * `$removedValue` are left out unless `$includeSoft`.
 */
export const RUNS = cypher(
  `MATCH (a:Aspect {version: 0})
   WHERE a.runId IS NOT NULL AND a.runId <> $noRun
     AND ($includeSoft OR NOT EXISTS {
       MATCH (s:Aspect {urn: a.urn, aspect: $statusAspect, version: 0}) WHERE s.metadata = $removedValue })
   WITH a.runId AS runId, count(a) AS rowCount, max(coalesce(a.lastObserved, a.createdOn)) AS ts
   RETURN runId, rowCount, ts ORDER BY ts DESC, runId SKIP $start LIMIT $count`,
  'noRun',
  'includeSoft',
  'statusAspect',
  'removedValue',
  'start',
  'count',
)

/** The latest rows last written by `$runId`, in (urn, aspect) order. */
export const RUN_ASPECTS = cypher(
  `MATCH (a:Aspect {runId: $runId, version: 0})
   WHERE $includeSoft OR NOT EXISTS {
     MATCH (s:Aspect {urn: a.urn, aspect: $statusAspect, version: 0}) WHERE s.metadata = $removedValue }
   RETURN a.urn AS urn, a.aspect AS aspect, coalesce(a.lastObserved, a.createdOn) AS ts
   ORDER BY urn, aspect SKIP $start LIMIT $count`,
  'runId',
  'includeSoft',
  'statusAspect',
  'removedValue',
  'start',
  'count',
)

/** Deletes time-series rows of an entity (`$aspects` null for all; null bounds are open). */
export const DELETE_TIMESERIES = cypher(
  `MATCH (t:Timeseries {urn: $urn})
   WHERE ($aspects IS NULL OR t.aspect IN $aspects)
     AND ($startTimeMillis IS NULL OR t.timestampMillis >= $startTimeMillis)
     AND ($endTimeMillis IS NULL OR t.timestampMillis <= $endTimeMillis)
   DELETE t
   RETURN count(*) AS removed`,
  'urn',
  'aspects',
  'startTimeMillis',
  'endTimeMillis',
)

/** Removes the edges pointing at an entity (its node is deleted), dropping emptied sources. */
export const DELETE_INCOMING_EDGES = cypher(
  `MATCH (s:Entity)-[r]->(:Entity {urn: $urn})
   DELETE r
   WITH DISTINCT s
   WHERE NOT EXISTS { (s)--() } AND NOT EXISTS { MATCH (:Aspect {urn: s.urn}) }
   DELETE s`,
  'urn',
)

/** Rollback: drops the latest row and makes version `$previous` the latest again. */
export const PROMOTE_PREVIOUS = cypher(
  `MATCH (a:Aspect {urn: $urn, aspect: $aspect, version: 0})
   DELETE a
   WITH count(*) AS dropped
   MATCH (p:Aspect {urn: $urn, aspect: $aspect, version: $previous})
   SET p.version = 0
   RETURN p {.*} AS row`,
  'urn',
  'aspect',
  'previous',
)
