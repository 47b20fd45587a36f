import { ENTITY_PRIVILEGES } from '@catalog/auth'
import { ForbiddenError } from '@catalog/core'
import type { TimelineChangeEvent, TimelineTransaction } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { resolveInput } from '../mutations/support.js'

/**
 * DataHub's `ChangeCategoryType`: the categories the GraphQL API can express. Without
 * `changeCategories` these are asked for (DataHub asks every timeline category, and fails the
 * whole field on an event whose category the GraphQL enum lacks).
 */
const GRAPHQL_CATEGORIES = [
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNERSHIP',
  'TECHNICAL_SCHEMA',
  'TAG',
  'PARENT',
  'RELATED_ENTITIES',
  'DOMAIN',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'ASSET_MEMBERSHIP',
] as const

/** DataHub's `ChangeOperationType`. */
const GRAPHQL_OPERATIONS = new Set(['ADD', 'MODIFY', 'REMOVE'])

interface GetTimelineInput {
  readonly urn: string
  readonly changeCategories?: readonly string[] | null
}

/** A parameter value as Java's `toString` gives it: scalars as they are, structures as JSON. */
function parameterValue(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** DataHub's `ChangeEventMapper`. */
function toChangeEvent(e: TimelineChangeEvent) {
  return {
    urn: e.entityUrn ?? 'empty',
    category: e.category,
    operation: e.operation,
    modifier: e.modifier,
    parameters: e.parameters
      ? Object.entries(e.parameters).map(([key, value]) => ({ key, value: parameterValue(value) }))
      : null,
    auditStamp: e.auditStamp ? { time: e.auditStamp.time, actor: e.auditStamp.actor ?? null } : null,
    description: e.description,
  }
}

/**
 * DataHub's `ChangeTransactionMapper`: the computed semantic version, a MODIFY transaction
 * with version stamp "none", and the events that have a category and an operation the GraphQL
 * enums hold.
 */
function toChangeTransaction(t: TimelineTransaction) {
  return {
    timestampMillis: t.timestamp,
    lastSemanticVersion: t.semVer ?? 'none',
    versionStamp: 'none',
    changeType: 'MODIFY',
    actor: t.actor,
    changes: t.changeEvents
      .filter((e) => e.category !== null && e.operation !== null && GRAPHQL_OPERATIONS.has(e.operation))
      .map(toChangeEvent),
  }
}

/** DataHub's `EntityAuthorizationUtils.canViewEntity` (checked with auth on). */
async function requireView(ctx: CatalogContext, urn: string): Promise<void> {
  const allowed =
    !ctx.authorizer ||
    (await ctx.authorizer.authorize(ctx.actor, [{ anyOf: ENTITY_PRIVILEGES.READ, resource: urn }]))
  if (!allowed) throw new ForbiddenError(`Unauthorized to view change history for entity: ${urn}`)
}

/** Root queries of an entity's change history. */
export const timelineQueries = {
  /**
   * DataHub's `GetTimelineResolver`: the entity's change transactions over its whole history,
   * oldest first, without the transactions left with no change. As DataHub does, a timeline
   * that cannot be read (an entity type without one, a failing read) answers null.
   */
  getTimeline: async (_: unknown, { input }: { input: GetTimelineInput }, ctx: CatalogContext) => {
    const urn = resolveInput(ctx, input.urn).urn
    await requireView(ctx, urn)
    try {
      const transactions = await ctx.client.timeline({
        urn,
        categories: input.changeCategories ?? GRAPHQL_CATEGORIES,
        startTime: 0,
        endTime: 0,
      })
      return {
        changeTransactions: transactions.map(toChangeTransaction).filter((t) => t.changes.length > 0),
      }
    } catch (err) {
      ctx.log.error({ err, urn }, 'Failed to get timeline data')
      return null
    }
  },
}
