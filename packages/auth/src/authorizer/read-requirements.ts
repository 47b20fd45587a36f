import { parseUrn, splitUrnPath } from '@catalog/core'
import { urnFromPath } from '@catalog/http-kit'
import type { Requirement } from './authorizer.js'
import { ENTITY_PRIVILEGES, ENTITY_TYPE_PRIVILEGES } from './privileges.js'
import type { RestCheck } from './rest-requirements.js'

/** Rest.li read routes addressed by one URN in the path, and DataHub's refusal of each. */
const URN_READS: readonly { prefix: string; message: (urn: string) => string }[] = [
  { prefix: '/entities/', message: (urn) => `User is unauthorized to get entity ${urn}` },
  { prefix: '/entitiesV2/', message: (urn) => `User is unauthorized to get entity ${urn}` },
  { prefix: '/aspects/', message: (urn) => `User is unauthorized to get aspect for ${urn}` },
]

/** The search-service actions on `/entities`, which DataHub checks as READ of the entity type. */
const SEARCH_ACTIONS = new Set([
  'search',
  'searchAcrossEntities',
  'scrollAcrossEntities',
  'filter',
  'list',
  'autocomplete',
  'browse',
  'browseV2',
])

/** `API_PRIVILEGE_MAP[LINEAGE][READ]` and `[TIMESERIES][READ]`. */
const LINEAGE_READ = [
  'VIEW_ENTITY_PAGE',
  'GET_ENTITY_PRIVILEGE',
  'EDIT_ENTITY',
  'EDIT_LINEAGE',
  'DELETE_ENTITY',
]
const TIMESERIES_READ = ['GET_TIMESERIES_ASPECT_PRIVILEGE', 'EDIT_ENTITY', 'DELETE_ENTITY']

type Row = Record<string, unknown>
const stringAt = (v: unknown, key: string): string | undefined => {
  const value = v !== null && typeof v === 'object' ? (v as Row)[key] : undefined
  return typeof value === 'string' ? value : undefined
}

/** One URN-addressed read: READ `privileges` on `urn`, or nothing when the URN is malformed. */
function onUrn(
  urn: string | undefined,
  privileges: readonly string[],
  message: string,
): RestCheck | undefined {
  if (urn === undefined) return undefined
  try {
    parseUrn(urn)
  } catch {
    return undefined
  }
  return { requirements: [{ anyOf: [...privileges], resource: urn }], message }
}

const OPENAPI = '/openapi/v3/entity/'

/**
 * OpenAPI v3 reads (DataHub's `GenericEntitiesController`): one entity or aspect by path,
 * `batchGet` (READ of each URN), and the scrolls (READ of the type, asked with no resource).
 */
function openApiRead(
  method: string,
  route: string,
  url: string,
  body: unknown,
  actor: string,
): RestCheck | undefined {
  if (!route.startsWith(OPENAPI)) return undefined
  const message = `${actor} is unauthorized to READ  entities.`
  const path = url.split('?', 1)[0] ?? ''
  const rest = path.slice(OPENAPI.length)
  const slash = rest.indexOf('/')
  const tail = slash < 0 ? undefined : rest.slice(slash + 1)
  const entityType = (slash < 0 ? rest : rest.slice(0, slash)) || undefined
  const scroll = (method === 'GET' && tail === undefined) || (method === 'POST' && tail === 'scroll')
  if (scroll) return { requirements: [{ anyOf: [...readPrivileges(entityType)] }], message }
  let urns: string[] = []
  if (method === 'POST' && tail === 'batchGet') {
    urns = (Array.isArray(body) ? body : [])
      .map((item) => stringAt(item, 'urn'))
      .filter((u) => u !== undefined)
  } else if (method === 'GET' && tail !== undefined) {
    try {
      urns = [splitUrnPath(tail).urn]
    } catch {
      return undefined
    }
  } else {
    return undefined
  }
  const requirements: Requirement[] = []
  for (const urn of new Set(urns)) {
    try {
      requirements.push({ anyOf: [...readPrivileges(parseUrn(urn).entityType)], resource: urn })
    } catch {
      // A malformed URN: the route answers its own 400.
    }
  }
  return requirements.length > 0 ? { requirements, message } : undefined
}

/** DataHub's READ privileges of an entity type (`API_ENTITY_PRIVILEGE_MAP`, else the ENTITY group). */
function readPrivileges(entityType: string | undefined): readonly string[] {
  return (entityType && ENTITY_TYPE_PRIVILEGES[entityType]?.READ) || ENTITY_PRIVILEGES.READ
}

/**
 * What a REST read needs when REST API authorization is on (DataHub's
 * `authorization.restApiAuthorization`, on by default): READ of the entity for `GET
 * /entities/{urn}`, `/entitiesV2/{urn}` and `/aspects/{urn}` (`isAPIAuthorizedEntityUrns`),
 * LINEAGE READ for `GET /relationships?urn=`, TIMESERIES READ for `getTimeseriesAspectValues`,
 * READ for the OpenAPI v3 entity reads, and READ with no resource for the search actions (DataHub asks READ of the entity type; a
 * policy scoped to some types does not grant search here). DataHub's default policy "All
 * Users - View Entity Page" grants these reads to everyone. Undefined for other requests, and
 * for a URN the route itself will refuse as malformed (it reads it the same way).
 */
export function restReadCheck(
  method: string,
  route: string,
  url: string,
  action: string | undefined,
  query: unknown,
  body: unknown,
  actor: string,
): RestCheck | undefined {
  const openApi = openApiRead(method, route, url, body, actor)
  if (openApi) return openApi
  if (method === 'POST' && route === '/entities' && action !== undefined && SEARCH_ACTIONS.has(action)) {
    return {
      requirements: [{ anyOf: [...readPrivileges(undefined), 'SEARCH_PRIVILEGE'] }],
      message: 'User is unauthorized to search.',
    }
  }
  if (method === 'POST' && route === '/aspects' && action === 'getTimeseriesAspectValues') {
    const urn = stringAt(body, 'urn')
    return onUrn(urn, TIMESERIES_READ, `User is unauthorized to get timeseries aspect for ${urn}`)
  }
  if (method !== 'GET' && method !== 'HEAD') return undefined
  if (route === '/relationships') {
    const urn = stringAt(query, 'urn')
    return onUrn(urn, LINEAGE_READ, `User is unauthorized to get entity lineage: ${urn}`)
  }
  const read = URN_READS.find((r) => route === `${r.prefix}*`)
  if (!read) return undefined
  let urn: string
  let entityType: string
  try {
    urn = urnFromPath(url, read.prefix)
    entityType = parseUrn(urn).entityType
  } catch {
    return undefined
  }
  const requirement: Requirement = { anyOf: [...readPrivileges(entityType)], resource: urn }
  return { requirements: [requirement], message: read.message(urn) }
}
