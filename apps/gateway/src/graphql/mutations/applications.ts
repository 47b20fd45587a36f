import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { GraphQLResolveInfo } from 'graphql'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { APPLICATION_PROPERTIES } from '../mappers/application.js'
import { type EntitySource, obj } from '../mappers/common.js'
import { globalSettingsOf } from '../resolvers/global-settings.js'
import { searchQueries } from '../resolvers/search.js'
import { GLOBAL_SETTINGS_ASPECT, GLOBAL_SETTINGS_URN } from '../resolvers/views.js'
import { compareAndSet } from './compare-and-set.js'
import { type AssetsSearchInput, withCriterion } from './data-product-assets.js'
import { deleteWithReferences } from './entity-references.js'
import { patch, pointer } from './patch.js'
import { creatorOwnership, nameOf, resolveInput, typedRef, upsert, write } from './support.js'

const APPLICATIONS = 'applications'

interface CreateApplicationInput {
  readonly properties: { readonly name: string; readonly description?: string | null }
  readonly domainUrn?: string | null
  readonly id?: string | null
  readonly shouldAddCreatorAsOwner?: boolean | null
}

/** An application that must exist: its reference, else a 400 with `message`. */
async function existing(ctx: CatalogContext, urn: string, message: string): Promise<EntityRef> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'application' || !(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(message)
  }
  return ref
}

/**
 * DataHub's CreateApplicationResolver (EDIT_ENTITY, checked by `authorizeMutation`):
 * `urn:li:application:<id>` (a UUID without one), refused when taken; its name and description,
 * its domain (which must exist) and, unless `shouldAddCreatorAsOwner` is false, the creator as
 * technical owner, in one write.
 */
async function createApplication(_: unknown, args: { input: CreateApplicationInput }, ctx: CatalogContext) {
  const { input } = args
  nameOf(input.properties.name, 'An application')
  const id = input.id?.trim() ? input.id : randomUUID()
  const application = typedRef(ctx, `urn:li:application:${id}`, 'application')
  let domain: EntityRef | undefined
  if (input.domainUrn != null) {
    domain = resolveInput(ctx, input.domainUrn)
    if (domain.entity.name !== 'domain' || !(await ctx.client.exists(domain.urn))) {
      throw new InvalidInputError('The Domain provided dos not exist')
    }
  }
  if (await ctx.client.exists(application.urn))
    throw new InvalidInputError('This Application already exists!')
  const properties: AspectValue = { name: input.properties.name }
  if (input.properties.description != null) properties.description = input.properties.description
  await write(ctx, [
    // CREATE: an application made meanwhile by another call is not overwritten.
    { ...upsert(application, APPLICATION_PROPERTIES, properties), changeType: 'CREATE' },
    ...(domain ? [upsert(application, 'domains', { domains: [domain.urn] })] : []),
    ...(input.shouldAddCreatorAsOwner === false
      ? []
      : [upsert(application, 'ownership', creatorOwnership(ctx))]),
  ])
  return { urn: application.urn } satisfies EntitySource
}

/** DataHub's UpdateApplicationResolver (EDIT_ENTITY on it): a given name or description replaces the stored one. */
async function updateApplication(
  _: unknown,
  args: { urn: string; input: { name?: string | null; description?: string | null } },
  ctx: CatalogContext,
) {
  const application = await existing(ctx, args.urn, 'The Application provided dos not exist')
  const { name, description } = args.input
  if (name != null) nameOf(name, 'An application')
  let found = false
  await compareAndSet(ctx, application, APPLICATION_PROPERTIES, (current) => {
    // Deleted meanwhile: not brought back.
    found = current !== undefined
    if (!current) return undefined
    const next: AspectValue = { ...current }
    if (name != null) next.name = name
    if (description != null) next.description = description
    return next
  })
  if (!found) throw new InvalidInputError('The Application provided dos not exist')
  return { urn: application.urn } satisfies EntitySource
}

/**
 * DataHub's DeleteApplicationResolver (EDIT_ENTITY on it): a hard delete, its assets' lists of
 * applications without it in the same write.
 */
async function deleteApplication(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const application = await existing(ctx, args.urn, 'The Application provided does not exist')
  await deleteWithReferences(ctx, application)
  return true
}

/** The assets of a batch call: each must exist and be of a type that has applications. */
async function assetsOf(
  ctx: CatalogContext,
  urns: readonly string[],
  operation: string,
): Promise<EntityRef[]> {
  const refs = urns.map((u) => resolveInput(ctx, u))
  for (const ref of refs) {
    if (!ctx.registry.hasAspect(ref.entity, APPLICATIONS) || !(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to ${operation}, ${ref.urn} in resources does not exist`)
    }
  }
  return refs
}

/**
 * DataHub's BatchSetApplicationResolver (EDIT_ENTITY_APPLICATIONS or EDIT_ENTITY on each asset):
 * the application added to each asset's applications (one PATCH each, all in one write); with no
 * application, each asset's applications cleared.
 */
async function batchSetApplication(
  _: unknown,
  args: { input: { applicationUrn?: string | null; resourceUrns: readonly string[] } },
  ctx: CatalogContext,
) {
  const { applicationUrn } = args.input
  const application =
    applicationUrn != null
      ? await existing(
          ctx,
          applicationUrn,
          `Failed to batch set Application, Application urn ${applicationUrn} does not exist`,
        )
      : undefined
  const assets = await assetsOf(ctx, args.input.resourceUrns, 'set_application')
  await write(
    ctx,
    assets.map((asset) =>
      application
        ? patch(asset, APPLICATIONS, [
            { op: 'add', path: pointer(APPLICATIONS, application.urn), value: application.urn },
          ])
        : upsert(asset, APPLICATIONS, { applications: [] }),
    ),
  )
  return true
}

/** DataHub's BatchUnsetApplicationResolver (as set): the application removed from each asset's applications. */
async function batchUnsetApplication(
  _: unknown,
  args: { input: { applicationUrn: string; resourceUrns: readonly string[] } },
  ctx: CatalogContext,
) {
  const { applicationUrn } = args.input
  const application = await existing(
    ctx,
    applicationUrn,
    `Failed to batch unset Application, Application urn ${applicationUrn} does not exist`,
  )
  const assets = await assetsOf(ctx, args.input.resourceUrns, 'unset_application')
  await write(
    ctx,
    assets.map((asset) =>
      patch(asset, APPLICATIONS, [{ op: 'remove', path: pointer(APPLICATIONS, application.urn) }]),
    ),
  )
  return true
}

/**
 * DataHub's UpdateApplicationsSettingsResolver (MANAGE_FEATURES): whether applications show in
 * the UI, kept in the global settings (the section made when absent).
 */
async function updateApplicationsSettings(
  _: unknown,
  args: { input: { enabled?: boolean | null } },
  ctx: CatalogContext,
) {
  const { enabled } = args.input
  if (enabled == null) throw new InvalidInputError('enabled is required')
  const ref = resolveInput(ctx, GLOBAL_SETTINGS_URN)
  const section = obj((await globalSettingsOf(ctx))?.applications)
  const op = section
    ? { op: 'add' as const, path: '/applications/enabled', value: enabled }
    : { op: 'add' as const, path: '/applications', value: { enabled } }
  await write(ctx, [patch(ref, GLOBAL_SETTINGS_ASPECT, [op])])
  return true
}

/**
 * `listApplicationAssets(urn, input)`: a search over the assets of the application (those whose
 * `applications` name it), narrowed by the caller's types, query and filters.
 */
function listApplicationAssets(
  _: unknown,
  args: { urn: string; input: AssetsSearchInput },
  ctx: CatalogContext,
  info?: GraphQLResolveInfo,
) {
  const application = typedRef(ctx, args.urn, 'application')
  const { input } = args
  return searchQueries.searchAcrossEntities(
    undefined,
    {
      input: {
        types: input.types,
        query: input.query ?? '*',
        start: input.start ?? 0,
        count: input.count ?? 10,
        orFilters: withCriterion(input, { field: APPLICATIONS, values: [application.urn] }),
        searchFlags: input.searchFlags,
      },
    },
    ctx,
    info,
  )
}

export const applicationMutations = {
  createApplication,
  updateApplication,
  deleteApplication,
  batchSetApplication,
  batchUnsetApplication,
  updateApplicationsSettings,
}
export const applicationQueries = { listApplicationAssets }
