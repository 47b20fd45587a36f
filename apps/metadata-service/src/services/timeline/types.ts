import type { AuditStamp } from '@catalog/core'

/** DataHub's `ChangeCategory` values, in its declaration order. */
export const CHANGE_CATEGORIES = [
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'DOMAIN',
  'DEPRECATION',
  'LIFECYCLE',
  'RUN',
  'BUSINESS_ATTRIBUTE',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'PARENT',
  'RELATED_ENTITIES',
  'ASSET_MEMBERSHIP',
] as const
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number]

export type ChangeOperation =
  | 'ADD'
  | 'MODIFY'
  | 'REMOVE'
  | 'CREATE'
  | 'HARD_DELETE'
  | 'SOFT_DELETE'
  | 'REINSTATE'

/** DataHub's `SemanticChangeType`, lowest first (the order `max` uses). */
export const SEMANTIC_CHANGES = ['NONE', 'PATCH', 'MINOR', 'MAJOR', 'EXCEPTIONAL'] as const
export type SemanticChangeType = (typeof SEMANTIC_CHANGES)[number]

/** DataHub's `ChangeEvent` as its JSON carries it (absent members are null). */
export interface ChangeEvent {
  entityUrn: string | null
  category: ChangeCategory | null
  operation: ChangeOperation | null
  modifier: string | null
  parameters: Record<string, unknown> | null
  auditStamp: AuditStamp | null
  semVerChange: SemanticChangeType | null
  description: string | null
}

/** One RFC 6902 operation of a raw diff. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace'
  path: string
  value?: unknown
}

/** DataHub's `ChangeTransaction`: the events of one write time. */
export interface ChangeTransaction {
  timestamp: number
  actor: string | null
  proxy: string | null
  reporter: string | null
  semVer: string | null
  semVerChange: SemanticChangeType
  changeEvents: ChangeEvent[]
  rawDiff: PatchOperation[] | null
  versionStamp: string | null
}

/** What a differ knows besides the two values. */
export interface DiffContext {
  /** The entity whose aspect changed. */
  readonly entityUrn: string
  /** The category asked for (the schema differs answer several). */
  readonly category: ChangeCategory
  /** The audit stamp events carry; the timeline passes null, as DataHub does. */
  readonly auditStamp: AuditStamp | null
}

export type AspectValue = Record<string, unknown> | undefined

/** One aspect's change-event generator: pure, from the previous and next value. */
export type Differ = (previous: AspectValue, next: AspectValue, ctx: DiffContext) => ChangeEvent[]

/** A change event with DataHub's defaults for the members a generator leaves unset. */
export function changeEvent(e: Partial<ChangeEvent>): ChangeEvent {
  return {
    entityUrn: e.entityUrn ?? null,
    category: e.category ?? null,
    operation: e.operation ?? null,
    modifier: e.modifier ?? null,
    parameters: e.parameters ?? null,
    auditStamp: e.auditStamp ?? null,
    semVerChange: e.semVerChange ?? null,
    description: e.description ?? null,
  }
}

/** The highest semantic change of some events (NONE for none). */
export function highestChange(
  events: readonly { semVerChange: SemanticChangeType | null }[],
): SemanticChangeType {
  let best = 0
  for (const e of events) best = Math.max(best, SEMANTIC_CHANGES.indexOf(e.semVerChange ?? 'NONE'))
  return SEMANTIC_CHANGES[best] ?? 'NONE'
}
