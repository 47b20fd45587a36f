/** The levels of a lineage walk: frontier entities, their chunks, the page of results and their paths. */
import type { LineageResult } from '@catalog/store'

/** Frontier entities per set-based query: small enough that the loop can yield and check budgets often. */
const CHUNK = 64

/** An entity the walk reached (or its start), by URN id. */
export interface Reached {
  readonly urn: string
  /** Id of the entity one hop nearer the start on the kept path; -1 for the start. */
  readonly parent: number
  /** Relationship type of that hop. */
  readonly type: string
  readonly degree: number
}

/** A frontier entity: its id, URN and entity type. */
export interface Node {
  readonly id: number
  readonly urn: string
  readonly entityType: string
}

export const byUrn = (a: Node, b: Node) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)
export const byId = (a: Node, b: Node) => a.id - b.id

/**
 * Ids `start` to `start + count` of the entities found, ordered by degree then URN: only the
 * levels the page overlaps are sorted.
 */
export function page(levels: readonly Node[][], start: number, count: number): number[] {
  const ids: number[] = []
  let before = 0
  for (const level of levels) {
    if (ids.length >= count) break
    if (before + level.length > start) {
      const from = Math.max(0, start - before)
      const sorted = [...level].sort(byUrn)
      for (let i = from; i < sorted.length && ids.length < count; i++) ids.push((sorted[i] as Node).id)
    }
    before += level.length
  }
  return ids
}

/** The frontier split by entity type (in order of first appearance), in chunks of at most {@link CHUNK}. */
export function chunksByEntityType(frontier: readonly Node[]): Node[][] {
  const byType = new Map<string, Node[]>()
  for (const node of frontier) {
    const list = byType.get(node.entityType)
    if (list) list.push(node)
    else byType.set(node.entityType, [node])
  }
  const chunks: Node[][] = []
  for (const list of byType.values())
    for (let i = 0; i < list.length; i += CHUNK) chunks.push(list.slice(i, i + CHUNK))
  return chunks
}

/** `dataset` of `urn:li:dataset:(...)`. */
export function entityTypeOf(urn: string): string {
  const end = urn.indexOf(':', 7)
  return end < 0 ? '' : urn.slice(7, end)
}

/** The result for entity `id`: its last hop's type, its degree and its path from the start. */
export function result(seen: ReadonlyMap<number, Reached>, id: number): LineageResult {
  const hop = seen.get(id) as Reached
  const path: string[] = new Array(hop.degree + 1)
  for (let at = hop, i = hop.degree; ; ) {
    path[i] = at.urn
    if (--i < 0) break
    at = seen.get(at.parent) as Reached
  }
  return { entity: hop.urn, type: hop.type, degree: hop.degree, path }
}
