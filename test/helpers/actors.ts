import type { CatalogServer } from '@catalog/http-kit'
import type { Built, Json } from './build.js'

/** Users, roles and calls made as them, for the authorization tests (`build(t, {auth: true})`). */

/** A status and a parsed body. */
export interface Answer {
  readonly status: number
  readonly body: Json
}

/** POST as DataHub's clients do, with `token` as the bearer (none: unauthenticated). */
export async function post(
  app: CatalogServer,
  url: string,
  token: string | undefined,
  payload: unknown,
): Promise<Answer> {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'x-restli-protocol-version': '2.0.0', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: payload as Record<string, unknown>,
  })
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : undefined }
}

/** GET with `token` as the bearer. */
export async function get(app: CatalogServer, url: string, token: string | undefined): Promise<Answer> {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: { 'x-restli-protocol-version': '2.0.0', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  })
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : undefined }
}

/** One GraphQL call at `/api/graphql`. */
export function gql(
  app: CatalogServer,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Answer> {
  return post(app, '/api/graphql', token, { query, ...(variables ? { variables } : {}) })
}

/** An `ingestProposal` body writing one whole aspect. */
export function upsert(entityUrn: string, aspectName: string, value: unknown) {
  return {
    proposal: {
      entityType: entityUrn.split(':')[2],
      entityUrn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    },
  }
}

/** Writes one aspect with the admin token; throws unless it is stored. */
export async function adminWrite(built: Built, urn: string, aspect: string, value: unknown): Promise<void> {
  const res = await post(
    built.app,
    '/aspects?action=ingestProposal',
    built.adminToken,
    upsert(urn, aspect, value),
  )
  if (res.status !== 200)
    throw new Error(`writing ${aspect} of ${urn}: ${res.status} ${JSON.stringify(res.body)}`)
}

/** A personal token for `actor`, minted by the admin through GraphQL `createAccessToken` (both modes). */
export async function tokenFor(built: Built, actor: string): Promise<string> {
  const minted = await gql(
    built.app,
    built.adminToken,
    'mutation($actor: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $actor, duration: ONE_HOUR, name: "test"}) { accessToken } }',
    { actor },
  )
  const token = minted.body?.data?.createAccessToken?.accessToken
  if (typeof token !== 'string')
    throw new Error(`minting a token for ${actor}: ${JSON.stringify(minted.body)}`)
  return token
}

/** The latest value of one aspect, read over REST by the admin; undefined when absent. */
export async function aspectOf(built: Built, urn: string, aspect: string): Promise<unknown> {
  const res = await get(
    built.app,
    `/entitiesV2/${encodeURIComponent(urn)}?aspects=List(${aspect})`,
    built.adminToken,
  )
  if (res.status === 404) return undefined
  if (res.status !== 200) throw new Error(`reading ${aspect} of ${urn}: ${res.status}`)
  return res.body?.aspects?.[aspect]?.value
}

/** The change-log head in one-process mode; undefined in split mode (the store is in another process). */
export function headOf(built: Built): Promise<number> | undefined {
  return process.env.CATALOG_E2E_SPLIT === '1' ? undefined : built.store.head()
}

/** Makes `actor` a member of one of DataHub's roles, as DataHub stores it (`roleMembership`). */
export function assignRole(built: Built, actor: string, role: 'Admin' | 'Editor' | 'Reader'): Promise<void> {
  return adminWrite(built, actor, 'roleMembership', { roles: [`urn:li:dataHubRole:${role}`] })
}

/** Turns one of DataHub's default policies (`urn:li:dataHubPolicy:<id>`) INACTIVE, as the admin. */
export async function deactivatePolicy(built: Built, id: string): Promise<void> {
  const urn = `urn:li:dataHubPolicy:${id}`
  const info = await aspectOf(built, urn, 'dataHubPolicyInfo')
  if (!info) throw new Error(`no default policy ${id}`)
  await adminWrite(built, urn, 'dataHubPolicyInfo', { ...(info as object), state: 'INACTIVE' })
}
