export type Direction = 'INCOMING' | 'OUTGOING'

export interface RelationshipQuery {
  readonly urn: string
  readonly direction: Direction
  /** Relationship names; empty means all. */
  readonly types: readonly string[]
  readonly start: number
  readonly count: number
}

export interface RelationshipPage {
  readonly total: number
  readonly relationships: ReadonlyArray<{ readonly type: string; readonly entity: string }>
}

/** Relationship edges and traversals over them. */
export interface GraphStore {
  /** Edges at `urn`: OUTGOING gives destinations, INCOMING gives sources. Deterministic order. */
  relationships(query: RelationshipQuery): Promise<RelationshipPage>
}
