import { parseUrn } from '@catalog/core'
import { restliList, urnFromPath } from '@catalog/http-kit'
import { existsPrivileges, openApiReads, readOfEach, readPrivileges } from './openapi-requirements.js'
import type { RestCheck } from './rest-requirements.js'

/** Rest.li read routes addressed by one URN in the path, and DataHub's refusal of each. */
const URN_READS: readonly { prefix: string; message: (urn: string) => string }[] = [
  { prefix: '/entities/', message: (urn) => `User is unauthorized to get entity ${urn}` },
  { prefix: '/entitiesV2/', message: (urn) => `User is unauthorized to get entity ${urn}` },
  { prefix: '/aspects/', message: (urn) => `User is unauthorized to get aspect for ${urn}` },
]

/** The timeline controller's two paths (v1 is deprecated but still mapped). */
const TIMELINE_PREFIXES = ['/openapi/v2/timeline/v1/', '/openapi/timeline/v1/']

/**
 * The `/entities` actions DataHub checks as READ of the entity type (`isAPIAuthorizedEntityType`),
 * answering "User is unauthorized to search.": the search-service actions and `listUrns`.
 */
const SEARCH_ACTIONS = new Set([
  'search',
  'searchAcrossEntities',
  'scrollAcrossEntities',
  'filter',
  'list',
  'listUrns',
  'autocomplete',
  'browse',
  'browseV2',
])

/** `API_PRIVILEGE_MAP[LINEAGE][READ]`, `[TIMESERIES][READ]` and `[COUNTS][READ]`. */
const LINEAGE_READ = [
  'VIEW_ENTITY_PAGE',
  'GET_ENTITY_PRIVILEGE',
  'EDIT_ENTITY',
  'EDIT_LINEAGE',
  'DELETE_ENTITY',
]
const TIMESERIES_READ = ['GET_TIMESERIES_ASPECT_PRIVILEGE', 'EDIT_ENTITY', 'DELETE_ENTITY']
const COUNTS_READ = ['GET_COUNTS_PRIVILEGE']
/** `API_PRIVILEGE_MAP[RELATIONSHIP][READ]`. */
const RELATIONSHIP_READ = ['VIEW_ENTITY_PAGE', 'GET_ENTITY_PRIVILEGE', 'EDIT_ENTITY']
/** DataHub's generic relationship controller, mounted under both prefixes. */
const RELATIONSHIP_PREFIXES = ['/openapi/v3/relationship/', '/openapi/v2/relationship/']
/** `isAPIAuthorized(privilege, resource)` also grants to holders of MANAGE_SYSTEM_OPERATIONS. */
const USAGE_READ = ['VIEW_DATASET_USAGE', 'MANAGE_SYSTEM_OPERATIONS']

type Row = Record<string, unknown>
const stringAt = (v: unknown, key: string): string | undefined => {
  const value = v !== null && typeof v === 'object' ? (v as Row)[key] : undefined
  return typeof value === 'string' ? value : undefined
}

/** One URN-addressed read: `privileges` on `urn`, or nothing when the URN is malformed. */
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

/** The Rest.li actions that read (POST with `?action=`), by route and action. */
function actionRead(route: string, action: string, body: unknown): RestCheck | undefined {
  if (route === '/entities' && SEARCH_ACTIONS.has(action)) {
    // DataHub asks READ of the entity type: a policy scoped to some resources does not grant it.
    return {
      requirements: [{ anyOf: [...readPrivileges(undefined), 'SEARCH_PRIVILEGE'] }],
      message: 'User is unauthorized to search.',
    }
  }
  if (route === '/entities' && action === 'exists') {
    const urn = stringAt(body, 'urn')
    let type: string
    try {
      type = parseUrn(urn ?? '').entityType
    } catch {
      return undefined
    }
    return onUrn(urn, existsPrivileges(type), `User is unauthorized check entity existence: ${urn}`)
  }
  if (route === '/entities' && action === 'batchGetTotalEntityCount') {
    return { requirements: [{ anyOf: COUNTS_READ }], message: 'User is unauthorized to get entity counts.' }
  }
  if (route === '/aspects' && action === 'getCount') {
    return { requirements: [{ anyOf: COUNTS_READ }], message: 'User is unauthorized to get aspect counts.' }
  }
  if (route === '/aspects' && action === 'getTimeseriesAspectValues') {
    const urn = stringAt(body, 'urn')
    return onUrn(urn, TIMESERIES_READ, `User is unauthorized to get timeseries aspect for ${urn}`)
  }
  if (route === '/relationships' && action === 'getLineage') {
    const urn = stringAt(body, 'urn')
    return onUrn(urn, LINEAGE_READ, `User is unauthorized to get entity lineage: ${urn}`)
  }
  if (route === '/usageStats' && (action === 'query' || action === 'queryRange')) {
    return onUrn(stringAt(body, 'resource'), USAGE_READ, 'User is unauthorized to query usage.')
  }
  return undefined
}

/**
 * What a REST read needs when REST API authorization is on (DataHub's
 * `authorization.restApiAuthorization`, CATALOG_REST_API_AUTHORIZATION, on by default), as
 * DataHub's Rest.li resources and OpenAPI controllers check it:
 * - READ of the entity (`isAPIAuthorizedEntityUrns`): `GET /entities/{urn}`, `/entitiesV2/{urn}`,
 *   `/aspects/{urn}`, the batch `GET /entitiesV2?ids=List(...)` (every URN), OpenAPI entity reads;
 * - LINEAGE READ of the URN: `GET /relationships`, `getLineage` (and its `GET /lineage` form),
 *   `GET /openapi/relationships/v1`;
 * - TIMESERIES READ for `getTimeseriesAspectValues`, VIEW_DATASET_USAGE for `/usageStats`
 *   `query`/`queryRange`, COUNTS READ for `getCount` and `batchGetTotalEntityCount`, EXISTS for
 *   `exists`, GET_TIMELINE_PRIVILEGE for the timeline;
 * - READ with no resource for the search actions and `listUrns`.
 * DataHub's default policy "All Users - View Entity Page" grants these reads to everyone.
 * Undefined for other requests, and for a URN the route itself will refuse as malformed.
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
  const rawPath = url.split('?', 1)[0] ?? ''
  const openApi = openApiReads(method, route, rawPath, body)
  if (openApi) return { ...openApi, message: `${actor} is unauthorized to READ  entities.` }
  if (method === 'POST' && action !== undefined) return actionRead(route, action, body)
  if (method !== 'GET' && method !== 'HEAD') return undefined
  if (route === '/relationships' || route === '/lineage' || route === '/openapi/relationships/v1') {
    const urn = stringAt(query, 'urn')
    return onUrn(urn, LINEAGE_READ, `User is unauthorized to get entity lineage: ${urn}`)
  }
  if (route === '/aspects' && action === 'getCount') return actionRead(route, action, body)
  const relationships = RELATIONSHIP_PREFIXES.find((p) => route.startsWith(p))
  if (relationships) return relationshipRead(route, url, relationships, actor)
  if (route === '/entitiesV2') {
    const ids = restliList(url, 'ids') ?? []
    const requirements = readOfEach(ids)
    if (requirements.length === 0) return undefined
    return { requirements, message: `User is unauthorized to get entities [${[...new Set(ids)].join(', ')}]` }
  }
  const timeline = TIMELINE_PREFIXES.find((p) => route === `${p}*`)
  if (timeline) {
    const urn = urnAt(url, timeline)
    return onUrn(
      urn,
      ['GET_TIMELINE_PRIVILEGE'],
      `${actor} is unauthorized to get the timeline for entity ${urn}`,
    )
  }
  const read = URN_READS.find((r) => route === `${r.prefix}*`)
  if (!read) return undefined
  const urn = urnAt(url, read.prefix)
  if (urn === undefined) return undefined
  const requirements = readOfEach([urn])
  return requirements.length > 0 ? { requirements, message: read.message(urn) } : undefined
}

/**
 * Checks DataHub makes whatever REST API authorization says: the timeline needs the caller to
 * see the entity (`AuthUtil.canViewEntity`, "independent of restApiAuthorization").
 */
export function alwaysReadCheck(
  method: string,
  route: string,
  url: string,
  actor: string,
): RestCheck | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const timeline = TIMELINE_PREFIXES.find((p) => route === `${p}*`)
  if (!timeline) return undefined
  const urn = urnAt(url, timeline)
  if (urn === undefined) return undefined
  const requirements = readOfEach([urn])
  return requirements.length > 0
    ? { requirements, message: `${actor} is unauthorized to view entity ${urn}` }
    : undefined
}

/**
 * The generic relationship scrolls: RELATIONSHIP READ, on the entity for the by-entity form
 * (`/{entityName}/{entityUrn}`). DataHub also checks every edge's ends after the scan; that
 * check is not made here.
 */
function relationshipRead(route: string, url: string, prefix: string, actor: string): RestCheck {
  const message = `${actor} is unauthorized to READ RELATIONSHIP`
  if (route.endsWith('/:entityName/:entityUrn')) {
    const entityName = (url.split('?', 1)[0] ?? '').slice(prefix.length).split('/', 1)[0]
    const onEntity = onUrn(urnAt(url, `${prefix}${entityName}/`), RELATIONSHIP_READ, message)
    if (onEntity) return onEntity
  }
  return { requirements: [{ anyOf: RELATIONSHIP_READ }], message }
}

/** The URN a path names after `prefix`, as the routes read it; undefined when malformed. */
function urnAt(url: string, prefix: string): string | undefined {
  try {
    return urnFromPath(url, prefix)
  } catch {
    return undefined
  }
}
