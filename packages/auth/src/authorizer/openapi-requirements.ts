import { parseUrn, splitUrnPath } from '@catalog/core'
import type { Requirement } from './authorizer.js'
import { ENTITY_PRIVILEGES, ENTITY_TYPE_PRIVILEGES, writePrivileges } from './privileges.js'

const PREFIX = '/openapi/v3/entity/'
type Row = Record<string, unknown>
const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The URN and aspect a path addresses, as the OpenAPI routes read them; undefined when malformed. */
function splitTail(tail: string): { urn: string; aspect?: string } | undefined {
  try {
    return splitUrnPath(tail)
  } catch {
    return undefined
  }
}

function entityTypeOf(urn: string, fallback: string): string {
  try {
    return parseUrn(urn).entityType
  } catch {
    return fallback
  }
}

/**
 * What an OpenAPI v3 entity write needs: `POST`/`PATCH /openapi/v3/entity/{entityName}`
 * (a list of `{urn, <aspect>: …}`), and `POST`/`PATCH`/`DELETE
 * /openapi/v3/entity/{entityName}/{urn}[/{aspect}]`. Undefined for anything else.
 */
export function openApiWrites(
  method: string,
  route: string,
  rawPath: string,
  body: unknown,
): { requirements: Requirement[]; urns: string[]; operation: string } | undefined {
  if (!route.startsWith(PREFIX) || !['POST', 'PATCH', 'DELETE'].includes(method)) return undefined
  // The raw path, cut as the OpenAPI routes cut it, so both read the same URN.
  const rest = rawPath.slice(PREFIX.length)
  const slash = rest.indexOf('/')
  const entityName = slash < 0 ? rest : rest.slice(0, slash)
  const changeType = method === 'DELETE' ? 'DELETE' : 'UPSERT'
  const writes: { urn: string; aspect?: string }[] = []
  if (slash < 0) {
    if (method === 'DELETE' || !Array.isArray(body)) return undefined
    for (const item of body) {
      if (!isRow(item) || typeof item.urn !== 'string') continue
      const aspects = Object.keys(item).filter((k) => k !== 'urn')
      if (aspects.length === 0) writes.push({ urn: item.urn })
      for (const aspect of aspects) writes.push({ urn: item.urn, aspect })
    }
  } else {
    const tail = rest.slice(slash + 1)
    // batchGet and scroll are reads.
    if (method === 'POST' && (tail === 'batchGet' || tail === 'scroll')) return undefined
    const target = splitTail(tail)
    if (!target) return undefined
    writes.push(target)
  }
  if (writes.length === 0) return undefined
  const requirements = writes.flatMap((w) =>
    writePrivileges(entityTypeOf(w.urn, entityName), w.aspect, changeType).map((anyOf) => ({
      anyOf,
      resource: w.urn,
    })),
  )
  return {
    requirements,
    urns: [...new Set(writes.map((w) => w.urn))],
    operation: changeType === 'DELETE' ? 'DELETE' : 'UPDATE',
  }
}

/** `API_PRIVILEGE_MAP[ENTITY][EXISTS]` (every entity type with its own entry uses it too, tokens add MANAGE_ACCESS_TOKENS). */
export function existsPrivileges(entityType: string): readonly string[] {
  const exists = ['EXISTS_ENTITY', 'EDIT_ENTITY', 'DELETE_ENTITY', 'VIEW_ENTITY_PAGE', 'SEARCH_PRIVILEGE']
  return entityType === 'dataHubAccessToken' ? ['MANAGE_ACCESS_TOKENS', ...exists] : exists
}

/** DataHub's READ privileges of an entity type (`API_ENTITY_PRIVILEGE_MAP`, else the ENTITY group). */
export function readPrivileges(entityType: string | undefined): readonly string[] {
  return (entityType && ENTITY_TYPE_PRIVILEGES[entityType]?.READ) || ENTITY_PRIVILEGES.READ
}

/** READ of each parseable URN (a malformed one is left to the route, which answers its own error). */
export function readOfEach(
  urns: Iterable<string>,
  privileges: (entityType: string) => readonly string[] = readPrivileges,
): Requirement[] {
  const requirements: Requirement[] = []
  for (const urn of new Set(urns)) {
    try {
      requirements.push({ anyOf: [...privileges(parseUrn(urn).entityType)], resource: urn })
    } catch {
      // A malformed URN: the route answers its own 400.
    }
  }
  return requirements
}

const V2_BATCH = '/openapi/v2/entity/batch/'

/**
 * OpenAPI entity reads (DataHub's `GenericEntitiesController`, which v2 and v3 share, hence one
 * message): one entity or aspect by path, `batchGet` and the v2 batch (READ of each URN), and
 * the scrolls (READ of the type, asked with no resource). Undefined for anything else.
 */
export function openApiReads(
  method: string,
  route: string,
  rawPath: string,
  body: unknown,
): { requirements: Requirement[] } | undefined {
  const urnsOf = (list: unknown, key?: string) =>
    (Array.isArray(list) ? list : []).flatMap((item) => {
      const value = key === undefined ? item : isRow(item) ? item[key] : undefined
      return typeof value === 'string' ? [value] : []
    })
  if (method === 'POST' && route.startsWith(V2_BATCH)) {
    const requirements = readOfEach(urnsOf(isRow(body) ? body.urns : undefined))
    return requirements.length > 0 ? { requirements } : undefined
  }
  if (!route.startsWith(PREFIX)) return undefined
  const rest = rawPath.slice(PREFIX.length)
  const slash = rest.indexOf('/')
  const tail = slash < 0 ? undefined : rest.slice(slash + 1)
  const entityType = (slash < 0 ? rest : rest.slice(0, slash)) || undefined
  const scroll = (method === 'GET' && tail === undefined) || (method === 'POST' && tail === 'scroll')
  if (scroll) return { requirements: [{ anyOf: [...readPrivileges(entityType)] }] }
  let urns: string[]
  if (method === 'POST' && tail === 'batchGet') urns = urnsOf(body, 'urn')
  else if ((method === 'GET' || method === 'HEAD') && tail !== undefined) {
    const target = splitTail(tail)
    if (!target) return undefined
    urns = [target.urn]
  } else return undefined
  // HEAD asks whether the entity (or aspect) exists: EXISTS, as DataHub's `headEntity` checks it.
  const requirements = readOfEach(urns, method === 'HEAD' ? existsPrivileges : readPrivileges)
  return requirements.length > 0 ? { requirements } : undefined
}
