import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { priorityNumber } from '../../mappers/incident.js'
import { listEntities } from '../users-groups.js'

/** DataHub's page size of an entity's `incidents` when `count` is not given. */
const DEFAULT_COUNT = 20

interface IncidentsArgs {
  readonly state?: string | null
  readonly stage?: string | null
  readonly priority?: string | null
  readonly assigneeUrns?: readonly string[] | null
  readonly start?: number | null
  readonly count?: number | null
}

/**
 * `incidents(state, stage, priority, assigneeUrns, start, count)` of an entity, as DataHub's
 * EntityIncidentsResolver: the incidents raised on it (their `entities` search field), those of
 * the given state, stage, priority and assignees, newest first by creation, 20 per page.
 */
export async function entityIncidents(source: EntitySource, args: IncidentsArgs, ctx: CatalogContext) {
  const and = [{ field: 'entities', values: [source.urn] }]
  if (args.state) and.push({ field: 'state', values: [args.state] })
  if (args.stage) and.push({ field: 'stage', values: [args.stage] })
  if (args.priority) and.push({ field: 'priority', values: [String(priorityNumber(args.priority))] })
  if (args.assigneeUrns?.length) and.push({ field: 'assignees', values: [...args.assigneeUrns] })
  const { urns, ...page } = await listEntities(
    ctx,
    'incident',
    { start: args.start, count: args.count ?? DEFAULT_COUNT, orFilters: [{ and }] },
    [{ field: 'created', order: 'DESCENDING' }],
  )
  return { ...page, incidents: urns.map((urn): EntitySource => ({ urn })) }
}
