/**
 * Cypher for relationship edges: native Neo4j relationships between `:Entity` nodes, typed
 * with the registry's relationship name (`OwnedBy`, `DownstreamOf`, ...) and carrying the
 * `aspect` whose value produced them.
 *
 * Cypher cannot take a relationship type as a parameter in a pattern that creates one, so
 * the edge-writing statement is the one place a name enters the text: it must match
 * {@link RELATIONSHIP_TYPE} (the registry's names do; nothing else gets through) and is
 * quoted with backticks. Reads never need that: they filter with `type(r) IN $types`.
 */
import { InvalidInputError } from '@catalog/core'
import type { Direction } from '@catalog/store'
import { cypher, type Statement } from './statement.js'

/** What a relationship type must look like to be written into a statement. */
export const RELATIONSHIP_TYPE = /^[A-Za-z][A-Za-z0-9_]*$/

/** Throws {@link InvalidInputError} unless `type` is a valid relationship type name. */
export function checkRelationshipType(type: string): string {
  if (typeof type !== 'string' || !RELATIONSHIP_TYPE.test(type)) {
    throw new InvalidInputError(
      `'${String(type)}' is not a relationship type name (letters, digits and '_', starting with a letter)`,
    )
  }
  return type
}

/**
 * Deletes the edges one aspect of an entity produced, then removes destination placeholders
 * left with no edges and no aspect rows.
 */
export const DELETE_EDGES_OF = cypher(
  `MATCH (:Entity {urn: $urn})-[r]->(d:Entity)
   WHERE r.aspect = $aspect
   DELETE r
   WITH DISTINCT d
   WHERE NOT EXISTS { (d)--() } AND NOT EXISTS { MATCH (:Aspect {urn: d.urn}) }
   DELETE d`,
  'urn',
  'aspect',
)

/** Deletes every outgoing edge of an entity, and the placeholders left without edges. */
export const DELETE_OUTGOING_EDGES = cypher(
  `MATCH (:Entity {urn: $urn})-[r]->(d:Entity)
   DELETE r
   WITH DISTINCT d
   WHERE NOT EXISTS { (d)--() } AND NOT EXISTS { MATCH (:Aspect {urn: d.urn}) }
   DELETE d`,
  'urn',
)

const edgeStatements = new Map<string, Statement<EdgeParam>>()
type EdgeParam = 'urn' | 'entityType' | 'aspect' | 'edges'

/**
 * The statement that writes edges of one type from `$urn` (its node is created when
 * missing) to each `$edges[i].destination`, MERGEing destination placeholders. `$edges`
 * holds `{destination, destinationType}` maps; an edge already there is kept (not doubled).
 */
export function mergeEdges(type: string): Statement<EdgeParam> {
  let statement = edgeStatements.get(type)
  if (!statement) {
    const name = checkRelationshipType(type)
    statement = cypher(
      `MERGE (s:Entity {urn: $urn}) ON CREATE SET s.entityType = $entityType
       WITH s
       UNWIND $edges AS edge
       MERGE (d:Entity {urn: edge.destination}) ON CREATE SET d.entityType = edge.destinationType
       MERGE (s)-[:\`${name}\` {aspect: $aspect}]->(d)`,
      'urn',
      'entityType',
      'aspect',
      'edges',
    )
    edgeStatements.set(type, statement)
  }
  return statement
}

function relationshipStatements(pattern: string) {
  const match = `MATCH (:Entity {urn: $urn})${pattern}(other:Entity)
     WHERE size($types) = 0 OR type(r) IN $types
     WITH DISTINCT type(r) AS type, other.urn AS entity`
  return {
    count: cypher(`${match} RETURN count(*) AS total`, 'urn', 'types'),
    page: cypher(
      `${match} RETURN type, entity ORDER BY type, entity SKIP $start LIMIT $count`,
      'urn',
      'types',
      'start',
      'count',
    ),
  }
}

/**
 * Distinct (type, entity) pairs at an entity, by direction: a count and one page ordered by
 * type then URN. The direction picks one of three constant patterns.
 */
export const RELATIONSHIPS: Record<Direction, ReturnType<typeof relationshipStatements>> = {
  OUTGOING: relationshipStatements('-[r]->'),
  INCOMING: relationshipStatements('<-[r]-'),
  UNDIRECTED: relationshipStatements('-[r]-'),
}

/**
 * One breadth-first lineage level over the whole frontier: the entities one hop from
 * `$frontier` along the lineage edges, not in `$visited`, URN after `$after` (a page cursor,
 * null for the first page), each once with every (parent, type) that reaches it and the
 * metadata of its latest `$statusAspect` row (for the soft-delete check). Ordered by URN,
 * at most `$limit`.
 *
 * `$types` is every lineage relationship type (a cheap first filter); `$specs` holds one
 * map per (type, direction) the traversal follows: `{type, outgoing, near, far}` where
 * `outgoing` says whether the frontier entity is the edge's source, and `near`/`far` list
 * the entity types allowed at the frontier end and the far end (null: any), compared with
 * the nodes' `entityType` (the type an entity was written as; a placeholder's from its URN).
 */
export const LINEAGE_LEVEL = cypher(
  `UNWIND $frontier AS near
   MATCH (a:Entity {urn: near})-[r]-(b:Entity)
   WHERE type(r) IN $types
     AND NOT b.urn IN $visited
     AND ($after IS NULL OR b.urn > $after)
     AND any(spec IN $specs WHERE spec.type = type(r)
       AND spec.outgoing = (startNode(r) = a)
       AND (spec.near IS NULL OR a.entityType IN spec.near)
       AND (spec.far IS NULL OR b.entityType IN spec.far))
   WITH b, collect({parent: near, type: type(r)}) AS via
   ORDER BY b.urn
   LIMIT $limit
   OPTIONAL MATCH (st:Aspect {urn: b.urn, aspect: $statusAspect, version: 0})
   RETURN b.urn AS entity, via, st.metadata AS status
   ORDER BY entity`,
  'frontier',
  'types',
  'visited',
  'after',
  'specs',
  'limit',
  'statusAspect',
)

/**
 * One stretch of the keyset scan over all edges (DataHub's relationship scroll): distinct
 * (source, destination, type) after `$after` (null for the first page, else a map of the
 * three) in that order, at most `$limit`, each with the metadata of both ends' latest
 * `$statusAspect` row (the soft-delete check runs on the results). Every list filters when not
 * empty; entity types are matched as URN prefixes (`urn:li:dataset:`). With `$sliceMax` (null:
 * no slicing) an edge is in slice `(size(source) + size(destination) + size(type)) % $sliceMax`:
 * disjoint slices that together hold every edge, though not evenly filled.
 */
export const EDGE_SCAN = cypher(
  `MATCH (s:Entity)-[r]->(d:Entity)
   WHERE (size($types) = 0 OR type(r) IN $types)
     AND (size($sourceUrns) = 0 OR s.urn IN $sourceUrns)
     AND (size($destinationUrns) = 0 OR d.urn IN $destinationUrns)
     AND (size($sourcePrefixes) = 0 OR any(p IN $sourcePrefixes WHERE s.urn STARTS WITH p))
     AND (size($destinationPrefixes) = 0 OR any(p IN $destinationPrefixes WHERE d.urn STARTS WITH p))
     AND ($after IS NULL OR s.urn > $after.source
       OR (s.urn = $after.source AND (d.urn > $after.destination
         OR (d.urn = $after.destination AND type(r) > $after.type))))
     AND ($sliceMax IS NULL
       OR (size(s.urn) + size(d.urn) + size(type(r))) % $sliceMax = $sliceId)
   WITH DISTINCT s.urn AS source, d.urn AS destination, type(r) AS type
   ORDER BY source, destination, type
   LIMIT $limit
   OPTIONAL MATCH (ss:Aspect {urn: source, aspect: $statusAspect, version: 0})
   OPTIONAL MATCH (ds:Aspect {urn: destination, aspect: $statusAspect, version: 0})
   RETURN source, destination, type, ss.metadata AS sourceStatus, ds.metadata AS destinationStatus
   ORDER BY source, destination, type`,
  'types',
  'sourceUrns',
  'destinationUrns',
  'sourcePrefixes',
  'destinationPrefixes',
  'after',
  'sliceMax',
  'sliceId',
  'limit',
  'statusAspect',
)
