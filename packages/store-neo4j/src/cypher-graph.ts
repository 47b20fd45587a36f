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
