import { parseUrn } from '@catalog/core'
import type { Requirement } from './authorizer.js'
import { openApiWrites } from './openapi-requirements.js'
import { Privilege, writePrivileges } from './privileges.js'

/** What a REST request needs, and DataHub's message when it is refused. */
export interface RestCheck {
  readonly requirements: Requirement[]
  readonly message: string
}

type Row = Record<string, unknown>
const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v)

/** DataHub's operations resources: the privilege each action needs and its refusal. */
const OPERATIONS: Readonly<Record<string, { privilege: string; message: string }>> = {
  truncateTimeseriesAspect: {
    privilege: Privilege.TRUNCATE_TIMESERIES_INDEX,
    message: 'User is unauthorized to truncate timeseries index',
  },
  restoreIndices: {
    privilege: Privilege.RESTORE_INDICES,
    message: 'User is unauthorized to restore indices.',
  },
  getIndexSizes: {
    privilege: Privilege.GET_TIMESERIES_INDEX_SIZES,
    message: 'User is unauthorized to get index sizes.',
  },
  getEsTaskStatus: {
    privilege: Privilege.GET_ES_TASK_STATUS,
    message: 'User is unauthorized to get ES task status',
  },
}

function entityTypeOf(urn: string): string | undefined {
  try {
    return parseUrn(urn).entityType
  } catch {
    return undefined
  }
}

/** `com.linkedin.identity.CorpUserCredentials` → `corpUserCredentials`. */
function aspectNameOf(unionKey: string): string {
  const short = unionKey.slice(unionKey.lastIndexOf('.') + 1)
  return short.charAt(0).toLowerCase() + short.slice(1)
}

/** The writes of a body: MCPs (`proposal`, `proposals`) or snapshots (`entity`, `entities`). */
function writesOf(action: string, body: Row): { urn: string; aspect?: string; changeType: string }[] {
  const out: { urn: string; aspect?: string; changeType: string }[] = []
  const mcps =
    action === 'ingestProposal' ? [body.proposal] : action === 'ingestProposalBatch' ? body.proposals : []
  for (const p of Array.isArray(mcps) ? mcps : []) {
    if (!isRow(p) || typeof p.entityUrn !== 'string') continue
    out.push({
      urn: p.entityUrn,
      ...(typeof p.aspectName === 'string' ? { aspect: p.aspectName } : {}),
      changeType: typeof p.changeType === 'string' ? p.changeType : 'UPSERT',
    })
  }
  const snapshots = action === 'ingest' ? [body.entity] : action === 'batchIngest' ? body.entities : []
  for (const entity of Array.isArray(snapshots) ? snapshots : []) {
    const union = isRow(entity) && isRow(entity.value) ? Object.values(entity.value)[0] : undefined
    if (!isRow(union) || typeof union.urn !== 'string') continue
    for (const a of Array.isArray(union.aspects) ? union.aspects : []) {
      const key = isRow(a) ? Object.keys(a)[0] : undefined
      out.push({ urn: union.urn, ...(key ? { aspect: aspectNameOf(key) } : {}), changeType: 'UPSERT' })
    }
  }
  return out
}

/**
 * The privileges a REST write or operation needs, given the matched route pattern (`route`)
 * and the raw path, as DataHub's Rest.li resources check them
 * (`AuthUtil.isAPIAuthorized*` with `PoliciesConfig`'s maps); undefined for requests this
 * step leaves open (reads, and writes of other routes).
 */
export function restCheck(
  method: string,
  route: string,
  rawPath: string,
  action: string | undefined,
  body: unknown,
  actor: string,
): RestCheck | undefined {
  const path = route
  const openApi = openApiWrites(method, route, rawPath, body)
  if (openApi) {
    return {
      requirements: openApi.requirements,
      message: `User ${actor} is unauthorized to ${openApi.operation} entities: ${openApi.urns.join(', ')}`,
    }
  }
  if (method !== 'POST' || action === undefined) return undefined
  const op = OPERATIONS[action]
  if (op && (path === '/operations' || (path === '/aspects' && action === 'restoreIndices'))) {
    return { requirements: [{ anyOf: [op.privilege] }], message: op.message }
  }
  const row = isRow(body) ? body : {}
  if (path === '/entities' && (action === 'delete' || action === 'deleteReferences')) {
    const urn = typeof row.urn === 'string' ? row.urn : undefined
    if (!urn) return undefined
    const type = entityTypeOf(urn) ?? 'unknown'
    return {
      requirements: writePrivileges(type, undefined, 'DELETE').map((anyOf) => ({ anyOf, resource: urn })),
      message: `User is unauthorized to delete entity: ${urn}`,
    }
  }
  if ((path === '/runs' && action === 'rollback') || (path === '/entities' && action === 'deleteAll')) {
    // The entities a run (or a registry's writes) touched are not known here: rolling back
    // needs DELETE_ENTITY on every resource (a policy without a resource filter).
    return {
      requirements: [{ anyOf: [Privilege.DELETE_ENTITY] }],
      message: 'User is unauthorized to delete entities.',
    }
  }
  if (path === '/usageStats' && action === 'batchIngest') {
    const urns = (Array.isArray(row.buckets) ? row.buckets : []).flatMap((b) =>
      isRow(b) && typeof b.resource === 'string' ? [b.resource] : [],
    )
    return {
      requirements: [...new Set(urns)].flatMap((urn) =>
        writePrivileges(entityTypeOf(urn) ?? 'unknown', 'datasetUsageStatistics', 'UPSERT').map((anyOf) => ({
          anyOf,
          resource: urn,
        })),
      ),
      message: 'User is unauthorized to edit entities.',
    }
  }
  const writes =
    (path === '/aspects' && (action === 'ingestProposal' || action === 'ingestProposalBatch')) ||
    (path === '/entities' && (action === 'ingest' || action === 'batchIngest'))
      ? writesOf(action, row)
      : undefined
  if (!writes || writes.length === 0) return undefined
  const requirements: Requirement[] = []
  const refused: string[] = []
  for (const w of writes) {
    const type = entityTypeOf(w.urn) ?? 'unknown'
    for (const anyOf of writePrivileges(type, w.aspect, w.changeType))
      requirements.push({ anyOf, resource: w.urn })
    refused.push(`HttpStatus: 403 Urn: ${w.urn}`)
  }
  return {
    requirements,
    message: `User ${actor} is unauthorized to modify entity: ${[...new Set(refused)].join(', ')}`,
  }
}
