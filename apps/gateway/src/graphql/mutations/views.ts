import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { entityName, type FacetFilter } from '../resolvers/search-input.js'
import { type Criterion, VIEW_ASPECT, type ViewInfo, viewInfoOf } from '../resolvers/view-apply.js'
import { GLOBAL_SETTINGS_ASPECT, GLOBAL_SETTINGS_URN, toView } from '../resolvers/views.js'
import { patch } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

interface DefinitionInput {
  readonly entityTypes: readonly string[]
  readonly filter: { readonly operator: 'AND' | 'OR'; readonly filters: readonly FacetFilter[] }
}
interface CreateViewInput {
  readonly viewType: 'PERSONAL' | 'GLOBAL'
  readonly name: string
  readonly description?: string | null
  readonly definition: DefinitionInput
}
interface UpdateViewInput {
  readonly name?: string | null
  readonly description?: string | null
  readonly definition?: DefinitionInput | null
}

/** DataHub's `ResolverUtils.criterionFromFilter`: EQUAL and not negated unless said. */
function criterionOf(f: FacetFilter): Criterion {
  return {
    field: f.field,
    values: [...(f.values ?? [])],
    condition: f.condition ?? 'EQUAL',
    negated: f.negated ?? false,
  }
}

/**
 * DataHub's `ViewUtils.mapDefinition`: entity types as registry names (a 400 for a type not
 * searched here); an AND filter is one conjunct, an OR filter one conjunct per criterion.
 */
function definitionOf(input: DefinitionInput): ViewInfo['definition'] {
  const criteria = input.filter.filters.map(criterionOf)
  return {
    entityTypes: input.entityTypes.map(entityName),
    filter: {
      or: input.filter.operator === 'AND' ? [{ and: criteria }] : criteria.map((c) => ({ and: [c] })),
    },
  }
}

/** The stored view `urn` (DataHub's `ViewUtils.canUpdateView` message when there is none). */
async function existingView(ctx: CatalogContext, urn: string): Promise<ViewInfo> {
  const info = await viewInfoOf(ctx, urn)
  if (!info) throw new InvalidInputError(`Failed to modify View. View with urn ${urn} does not exist.`)
  return info
}

/** DataHub's `CreateViewResolver`: a new `dataHubView` created by the caller. */
async function createView(_: unknown, { input }: { input: CreateViewInput }, ctx: CatalogContext) {
  const ref = resolveInput(ctx, `urn:li:dataHubView:${randomUUID()}`)
  const stamp = stampOf(ctx)
  const info: ViewInfo = {
    name: input.name,
    ...(input.description != null ? { description: input.description } : {}),
    type: input.viewType,
    definition: definitionOf(input.definition),
    created: stamp,
    lastModified: stamp,
  }
  await write(ctx, [upsert(ref, VIEW_ASPECT, info as unknown as AspectValue)])
  return toView(ctx, ref.urn, info)
}

/** DataHub's `UpdateViewResolver`: the given fields replaced, as one PATCH; the view as now stored. */
async function updateView(
  _: unknown,
  { urn, input }: { urn: string; input: UpdateViewInput },
  ctx: CatalogContext,
) {
  await existingView(ctx, urn)
  const ref = resolveInput(ctx, urn)
  const ops = [
    ...(input.name != null ? [{ op: 'add' as const, path: '/name', value: input.name }] : []),
    ...(input.description != null
      ? [{ op: 'add' as const, path: '/description', value: input.description }]
      : []),
    ...(input.definition
      ? [{ op: 'add' as const, path: '/definition', value: definitionOf(input.definition) }]
      : []),
    { op: 'add' as const, path: '/lastModified', value: stampOf(ctx) },
  ]
  await write(ctx, [patch(ref, VIEW_ASPECT, ops)])
  return toView(ctx, urn, await existingView(ctx, urn))
}

/** DataHub's `DeleteViewResolver`: a hard delete of the view. */
async function deleteView(_: unknown, { urn }: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  await existingView(ctx, urn)
  await write(ctx, [deleteEntity(resolveInput(ctx, urn))])
  return true
}

/** A default view URN of a settings input (null unsets); a 400 for one that is not a URN. */
function defaultViewOf(ctx: CatalogContext, urn: string | null | undefined): string | null {
  return urn == null ? null : resolveInput(ctx, urn).urn
}

/** DataHub's `UpdateGlobalViewsSettingsResolver`: `globalSettingsInfo.views` set, as one PATCH. */
async function updateGlobalViewsSettings(
  _: unknown,
  { input }: { input: { defaultView?: string | null } },
  ctx: CatalogContext,
): Promise<boolean> {
  const defaultView = defaultViewOf(ctx, input.defaultView)
  const ref = resolveInput(ctx, GLOBAL_SETTINGS_URN)
  const views = defaultView ? { defaultView } : {}
  await write(ctx, [patch(ref, GLOBAL_SETTINGS_ASPECT, [{ op: 'add', path: '/views', value: views }])])
  return true
}

/**
 * DataHub's `UpdateCorpUserViewsSettingsResolver`: the caller's `corpUserSettings.views`; a user
 * without settings gets DataHub's default appearance with them.
 */
async function updateCorpUserViewsSettings(
  _: unknown,
  { input }: { input: { defaultView?: string | null } },
  ctx: CatalogContext,
): Promise<boolean> {
  const defaultView = defaultViewOf(ctx, input.defaultView)
  const ref = resolveInput(ctx, ctx.actor)
  const views = defaultView ? { defaultView } : {}
  const current = await currentAspect(ctx, ref.urn, 'corpUserSettings')
  await write(ctx, [
    current
      ? patch(ref, 'corpUserSettings', [{ op: 'add', path: '/views', value: views }])
      : upsert(ref, 'corpUserSettings', { appearance: { showSimplifiedHomepage: false }, views }),
  ])
  return true
}

/** View mutations. */
export const viewMutations = {
  createView,
  updateView,
  deleteView,
  updateGlobalViewsSettings,
  updateCorpUserViewsSettings,
}
