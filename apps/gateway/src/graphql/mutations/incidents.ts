import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError, NotFoundError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { priorityNumber } from '../mappers/incident.js'
import { compareAndSet } from './compare-and-set.js'
import { resolveInput, stampOf, typedRef, upsert, write } from './support.js'

type Stamp = ReturnType<typeof stampOf>

interface IncidentStatusInput {
  readonly state: string
  readonly stage?: string | null
  readonly message?: string | null
}

interface RaiseIncidentInput {
  readonly type: string
  readonly customType?: string | null
  readonly title?: string | null
  readonly description?: string | null
  readonly resourceUrn?: string | null
  readonly resourceUrns?: readonly string[] | null
  readonly startedAt?: number | null
  readonly status?: IncidentStatusInput | null
  readonly priority?: string | null
  readonly assigneeUrns?: readonly string[] | null
}

interface UpdateIncidentInput {
  readonly title?: string | null
  readonly description?: string | null
  readonly startedAt?: number | null
  readonly status?: IncidentStatusInput | null
  readonly priority?: string | null
  readonly resourceUrns?: readonly string[] | null
  readonly assigneeUrns?: readonly string[] | null
}

/** DataHub's message for an incident to update that does not exist. */
const NOT_FOUND = 'Failed to update incident. Incident does not exist.'

/** An incident URN from input: a 400 when it is malformed or names another entity type. */
const incidentRef = (ctx: CatalogContext, urn: string): EntityRef => typedRef(ctx, urn, 'incident')

/** The URNs an incident is raised on, each valid, without repeats (DataHub's `stringsToUrns`). */
function resources(ctx: CatalogContext, urns: readonly string[]): string[] {
  return [...new Set(urns.map((u) => resolveInput(ctx, u).urn))]
}

/** DataHub's `mapIncidentStatus`: ACTIVE when not given; the stage and message as given; stamped now. */
function statusOf(input: IncidentStatusInput | null | undefined, stamp: Stamp): AspectValue {
  if (!input) return { state: 'ACTIVE', lastUpdated: stamp }
  const status: AspectValue = { state: input.state, lastUpdated: stamp }
  if (input.stage != null) status.stage = input.stage
  if (input.message != null) status.message = input.message
  return status
}

/**
 * DataHub's `mapIncidentAssignees`: each a user or a group, assigned now (one already assigned
 * keeps its assignment time).
 */
function assigneesOf(
  ctx: CatalogContext,
  urns: readonly string[],
  stamp: Stamp,
  current?: unknown,
): AspectValue[] {
  const since = new Map<string, unknown>()
  for (const a of Array.isArray(current) ? current : []) {
    const actor = (a as AspectValue | null)?.actor
    if (typeof actor === 'string') since.set(actor, (a as AspectValue).assignedAt)
  }
  return [...new Set(urns)].map((urn) => {
    const ref = resolveInput(ctx, urn)
    if (ref.entity.name !== 'corpuser' && ref.entity.name !== 'corpGroup') {
      throw new InvalidInputError(`Invalid assignee urn: ${urn}`)
    }
    return { actor: ref.urn, assignedAt: since.get(ref.urn) ?? stamp }
  })
}

/**
 * DataHub's RaiseIncidentResolver: a new incident (a random id) of the given type on the given
 * resources (`resourceUrns` and `resourceUrn`), MANUAL, created by the caller now, ACTIVE unless
 * a status is given. Returns its URN.
 */
async function raiseIncident(
  _: unknown,
  args: { input: RaiseIncidentInput },
  ctx: CatalogContext,
): Promise<string> {
  const { input } = args
  const urns = [...(input.resourceUrns ?? [])]
  if (input.resourceUrn != null && !urns.includes(input.resourceUrn)) urns.push(input.resourceUrn)
  if (urns.length === 0) {
    throw new InvalidInputError('At least 1 resource urn must be defined to raise an incident.')
  }
  if (input.type === 'CUSTOM' && !input.customType?.trim()) {
    throw new InvalidInputError('Failed to raise incident: customType is required when type is CUSTOM')
  }
  const stamp = stampOf(ctx)
  const info: AspectValue = { type: input.type, entities: resources(ctx, urns), created: stamp }
  if (input.customType != null) info.customType = input.customType
  if (input.title != null) info.title = input.title
  if (input.description != null) info.description = input.description
  if (input.startedAt != null) info.startedAt = input.startedAt
  info.source = { type: 'MANUAL' }
  if (input.priority != null) info.priority = priorityNumber(input.priority)
  if (input.assigneeUrns != null) info.assignees = assigneesOf(ctx, input.assigneeUrns, stamp)
  info.status = statusOf(input.status, stamp)
  const incident = incidentRef(ctx, `urn:li:incident:${randomUUID()}`)
  await write(ctx, [upsert(incident, 'incidentInfo', info)])
  return incident.urn
}

/**
 * A read-modify-write of an incident's `incidentInfo` that loses no concurrent edit; a 404 with
 * DataHub's message when the incident does not exist.
 */
async function updateInfo(
  ctx: CatalogContext,
  urn: string,
  change: (info: AspectValue, stamp: Stamp) => AspectValue,
): Promise<boolean> {
  const incident = incidentRef(ctx, urn)
  let found = false
  await compareAndSet(ctx, incident, 'incidentInfo', (current) => {
    found = current !== undefined
    return current ? change(current, stampOf(ctx)) : undefined
  })
  if (!found) throw new NotFoundError(NOT_FOUND)
  return true
}

/**
 * DataHub's UpdateIncidentStatusResolver: the state, and the stage and message when given,
 * updated by the caller now.
 */
function updateIncidentStatus(
  _: unknown,
  args: { urn: string; input: IncidentStatusInput },
  ctx: CatalogContext,
): Promise<boolean> {
  return updateInfo(ctx, args.urn, (info, stamp) => {
    const status: AspectValue = { ...(info.status as AspectValue | undefined), state: args.input.state }
    if (args.input.stage != null) status.stage = args.input.stage
    if (args.input.message != null) status.message = args.input.message
    return { ...info, status: { ...status, lastUpdated: stamp } }
  })
}

/**
 * DataHub's UpdateIncidentResolver (its patch form): the fields given replace the stored ones; a
 * status given is stamped now; `resourceUrns`, when given, may not be empty.
 */
function updateIncident(
  _: unknown,
  args: { urn: string; input: UpdateIncidentInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const { input } = args
  if (input.resourceUrns != null && input.resourceUrns.length === 0) {
    throw new InvalidInputError('resourceUrns cannot be empty if provided')
  }
  const entities = input.resourceUrns != null ? resources(ctx, input.resourceUrns) : undefined
  return updateInfo(ctx, args.urn, (info, stamp) => {
    const next: AspectValue = { ...info }
    if (input.title != null) next.title = input.title
    if (input.description != null) next.description = input.description
    if (input.startedAt != null) next.startedAt = input.startedAt
    if (input.status != null) next.status = statusOf(input.status, stamp)
    if (input.priority != null) next.priority = priorityNumber(input.priority)
    if (entities) next.entities = entities
    if (input.assigneeUrns != null)
      next.assignees = assigneesOf(ctx, input.assigneeUrns, stamp, info.assignees)
    return next
  })
}

export const incidentMutations = { raiseIncident, updateIncidentStatus, updateIncident }
