import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { GraphQLResolveInfo } from 'graphql'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { obj, str } from '../mappers/common.js'
import { storedView } from '../resolvers/me.js'
import { searchQueries } from '../resolvers/search.js'
import type { FacetFilter, OrFilters } from '../resolvers/search-input.js'
import { listEntities, requirePlatformPrivilege } from '../resolvers/users-groups.js'
import { viewInfoOf } from '../resolvers/view-apply.js'
import { compareAndSet } from './compare-and-set.js'
import { withCriterion } from './data-product-assets.js'
import { resolveInput, upsert, write } from './support.js'
import { hardDelete, revokeTokensOf } from './users-admin.js'

/** The `subTypes` type name that makes a user a service account (DataHub's `ServiceAccountUtils`). */
export const SERVICE_ACCOUNT_SUB_TYPE = 'SERVICE_ACCOUNT'
/** The username prefix of the service accounts `createServiceAccount` makes. */
const PREFIX = 'service_'
const USER_PREFIX = 'urn:li:corpuser:'
/** DataHub's `ListServiceAccountsResolver` page defaults. */
const DEFAULT_COUNT = 10
const MANAGE = 'MANAGE_SERVICE_ACCOUNTS'
/** DataHub's refusal of `verb` on service accounts. */
const refusal = (verb: string) =>
  `Unauthorized to ${verb} service accounts. Please contact your DataHub administrator.`
/** What the `ServiceAccount` fields are read from. */
const ASPECTS = ['subTypes', 'corpUserInfo', 'corpUserSettings', 'corpUserCredentials']

/**
 * Whether a user is a service account: DataHub's mark (`subTypes` SERVICE_ACCOUNT) on a user named
 * as `createServiceAccount` names them, without a password. DataHub trusts the mark alone, which
 * anyone who may edit users can write on any user: a SERVICE_ACCOUNT token minted for an admin
 * so marked would act as that admin.
 */
function marked(urn: string, aspects: Record<string, AspectValue>): boolean {
  const typeNames = aspects.subTypes?.typeNames
  return (
    urn.startsWith(`${USER_PREFIX}${PREFIX}`) &&
    aspects.corpUserCredentials === undefined &&
    Array.isArray(typeNames) &&
    typeNames.includes(SERVICE_ACCOUNT_SUB_TYPE)
  )
}

/** A user URN from input: a 400 when it is malformed or not a user's. */
function userRef(ctx: CatalogContext, urn: string): EntityRef {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'corpuser')
    throw new InvalidInputError(`The specified URN is not a service account: ${urn}`)
  return ref
}

/** The stored aspects of a user, undefined when it does not exist. */
async function userAspects(
  ctx: CatalogContext,
  ref: EntityRef,
): Promise<Record<string, AspectValue> | undefined> {
  if (!(await ctx.client.exists(ref.urn))) return undefined
  return (await ctx.client.getEntities([ref.urn], ASPECTS)).get(ref.urn)?.aspects ?? {}
}

/**
 * A `ServiceAccount` as DataHub's `ServiceAccountUtils.mapToServiceAccount`: the username without
 * its `service_` prefix, the display name and description (stored as `corpUserInfo.title`), the
 * default view resolved to the view (null once it is gone).
 */
function serviceAccountOf(ctx: CatalogContext, urn: string, aspects: Record<string, AspectValue>) {
  const username = urn.slice(USER_PREFIX.length)
  const info = aspects.corpUserInfo
  const defaultView = obj(obj(aspects.corpUserSettings)?.views)?.defaultView
  return {
    urn,
    type: 'CORP_USER',
    name: username.startsWith(PREFIX) ? username.slice(PREFIX.length) : username,
    displayName: str(info?.displayName) ?? null,
    description: str(info?.title) ?? null,
    createdBy: null,
    createdAt: null,
    updatedAt: null,
    defaultView: () => storedView(ctx, defaultView),
  }
}

/**
 * DataHub's `CreateServiceAccountResolver` (MANAGE_SERVICE_ACCOUNTS): a user
 * `urn:li:corpuser:service_<uuid>` with `corpUserInfo` (active; the display name, else the
 * username; the description as `title`) and `subTypes` SERVICE_ACCOUNT, in one write. The answer
 * is DataHub's: the whole username as `name`, the creator and the time.
 */
async function createServiceAccount(
  _: unknown,
  { input }: { input: { displayName?: string | null; description?: string | null } },
  ctx: CatalogContext,
) {
  const username = `${PREFIX}${randomUUID()}`
  const ref = resolveInput(ctx, `${USER_PREFIX}${username}`)
  const info: AspectValue = { active: true, displayName: input.displayName ?? username }
  if (input.description != null) info.title = input.description
  await write(ctx, [
    // CREATE: a random name taken meanwhile is refused, never overwritten.
    { ...upsert(ref, 'corpUserInfo', info), changeType: 'CREATE' },
    upsert(ref, 'subTypes', { typeNames: [SERVICE_ACCOUNT_SUB_TYPE] }),
  ])
  return {
    urn: ref.urn,
    type: 'CORP_USER',
    name: username,
    displayName: input.displayName ?? null,
    description: input.description ?? null,
    createdBy: ctx.actor,
    createdAt: Date.now(),
    updatedAt: null,
    defaultView: null,
  }
}

/** A service account that must exist: its reference, else a 400 (`missing` for an absent user). */
async function existing(ctx: CatalogContext, urn: string, missing: string): Promise<EntityRef> {
  const ref = userRef(ctx, urn)
  const aspects = await userAspects(ctx, ref)
  if (!aspects) throw new InvalidInputError(missing)
  if (!marked(ref.urn, aspects))
    throw new InvalidInputError(`The specified URN is not a service account: ${urn}`)
  return ref
}

/**
 * DataHub's `DeleteServiceAccountResolver` (MANAGE_SERVICE_ACCOUNTS, checked by
 * `authorizeMutation`, as for the other mutations here): the account hard-deleted.
 * As DataHub's documentation promises (its resolver does not), every token of the account is
 * revoked in the same write; the references other entities hold to it go with it, as `removeUser`'s.
 */
async function deleteServiceAccount(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  const ref = await existing(ctx, urn, `Service account not found: ${urn}`)
  await hardDelete(ctx, ref.urn, 'corpuser')
  // A token minted while the account was being deleted: found now, revoked too (a mint also
  // checks the account again after writing its token; see `createAccessToken`).
  await revokeTokensOf(ctx, ref.urn)
  return true
}

/**
 * DataHub's `UpdateServiceAccountDefaultViewResolver` (MANAGE_SERVICE_ACCOUNTS): the account's
 * `corpUserSettings.views.defaultView` set to a global view, or removed without one.
 */
async function updateServiceAccountDefaultView(
  _: unknown,
  { input }: { input: { urn: string; defaultView?: string | null } },
  ctx: CatalogContext,
) {
  const notOne = `URN ${input.urn} is not a service account.`
  const ref = resolveInput(ctx, input.urn)
  const aspects = ref.entity.name === 'corpuser' ? await userAspects(ctx, ref) : undefined
  if (!aspects || !marked(ref.urn, aspects)) throw new InvalidInputError(notOne)
  const view = input.defaultView ?? undefined
  if (view !== undefined) {
    const info = await viewInfoOf(ctx, view).catch(() => undefined)
    if (!info) throw new InvalidInputError(`View ${view} does not exist.`)
    if (info.type !== 'GLOBAL') {
      throw new InvalidInputError(
        'Only public (global) views can be set as the default view for a service account. Personal views are not supported.',
      )
    }
  }
  await compareAndSet(ctx, ref, 'corpUserSettings', (current) => {
    const settings: AspectValue = current
      ? structuredClone(current)
      : { appearance: { showSimplifiedHomepage: false } }
    const views = { ...(obj(settings.views) ?? {}) }
    if (view === undefined) delete views.defaultView
    else views.defaultView = view
    settings.views = views
    return settings
  })
  return true
}

/**
 * DataHub's `ListServiceAccountsResolver` (MANAGE_SERVICE_ACCOUNTS): the users whose `subTypes`
 * name SERVICE_ACCOUNT, found by search (start 0 and 10 by default; every one without a query).
 */
async function listServiceAccounts(
  _: unknown,
  { input }: { input: { start?: number | null; count?: number | null; query?: string | null } },
  ctx: CatalogContext,
) {
  await requirePlatformPrivilege(ctx, MANAGE, refusal('list'))
  const page = await listEntities(ctx, 'corpuser', {
    start: input.start ?? 0,
    count: input.count ?? DEFAULT_COUNT,
    query: input.query ?? null,
    orFilters: [{ and: [{ field: 'typeNames', values: [SERVICE_ACCOUNT_SUB_TYPE] }] }],
  })
  const found = page.urns.length > 0 ? await ctx.client.getEntities(page.urns, ASPECTS) : new Map()
  const serviceAccounts = page.urns.flatMap((urn) => {
    const aspects = found.get(urn)?.aspects
    return aspects && marked(urn, aspects) ? [serviceAccountOf(ctx, urn, aspects)] : []
  })
  return { start: page.start, count: page.count, total: page.total, serviceAccounts }
}

/**
 * DataHub's `GetServiceAccountResolver` (MANAGE_SERVICE_ACCOUNTS): the account, null when no such
 * user exists, a 400 for a user that is not a service account.
 */
async function getServiceAccount(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  await requirePlatformPrivilege(ctx, MANAGE, refusal('view'))
  const ref = userRef(ctx, urn)
  const aspects = await userAspects(ctx, ref)
  if (!aspects) return null
  if (!marked(ref.urn, aspects))
    throw new InvalidInputError(`The specified URN is not a service account: ${urn}`)
  return serviceAccountOf(ctx, ref.urn, aspects)
}

/** Leaves service accounts out of a user search. */
const NOT_SERVICE_ACCOUNT: FacetFilter = {
  field: 'typeNames',
  values: [SERVICE_ACCOUNT_SUB_TYPE],
  negated: true,
}

/**
 * DataHub's `SearchUsersResolver` (MANAGE_USERS_AND_GROUPS, its message): `searchAcrossEntities`
 * over users only, service accounts left out. DataHub drops that exclusion when `orFilters` are
 * sent; here it is added to every filter group.
 */
async function searchUsers(
  _: unknown,
  { input }: { input: Record<string, unknown> & { filters?: FacetFilter[] | null; orFilters?: OrFilters } },
  ctx: CatalogContext,
  info: GraphQLResolveInfo,
) {
  await requirePlatformPrivilege(ctx, 'MANAGE_USERS_AND_GROUPS', 'Unauthorized to list users and groups.')
  const orFilters = withCriterion(input, NOT_SERVICE_ACCOUNT)
  return searchQueries.searchAcrossEntities(
    undefined,
    {
      input: {
        ...input,
        query: (input.query as string | null) ?? '*',
        types: ['CORP_USER'],
        filters: null,
        orFilters,
      },
    },
    ctx,
    info,
  )
}

/** Whether `actorUrn` names a service account (what its tokens are minted for). */
export async function isServiceAccount(ctx: CatalogContext, actorUrn: string): Promise<boolean> {
  const ref = resolveInput(ctx, actorUrn)
  if (ref.entity.name !== 'corpuser') return false
  const aspects = await userAspects(ctx, ref)
  return aspects !== undefined && marked(ref.urn, aspects)
}

export const serviceAccountMutations = {
  createServiceAccount,
  deleteServiceAccount,
  updateServiceAccountDefaultView,
}
export const serviceAccountQueries = { listServiceAccounts, getServiceAccount, searchUsers }
