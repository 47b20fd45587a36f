import { randomUUID } from 'node:crypto'
import { type EntityRef, ForbiddenError, InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { obj } from '../mappers/common.js'
import {
  assetSettings,
  DEFAULT_HOME_TEMPLATE,
  DEFAULT_MODULES,
  DEFAULT_TEMPLATES,
  MODULE_PREFIX,
  MODULE_PROPERTIES,
  propertiesOf,
  TEMPLATE_PREFIX,
  TEMPLATE_PROPERTIES,
} from '../mappers/page-template.js'
import { holds } from '../resolvers/users-groups.js'
import { compareAndSet } from './compare-and-set.js'
import { deleteWithReferences } from './entity-references.js'
import { nameOf, resolveInput, stampOf, typedRef } from './support.js'

const MANAGE = 'MANAGE_HOME_PAGE_TEMPLATES'

/** What a template or module is, for the checks and messages they share. */
interface Kind {
  readonly entityType: 'dataHubPageTemplate' | 'dataHubPageModule'
  readonly prefix: string
  readonly aspect: string
  /** `template` or `module`, as DataHub's messages name it. */
  readonly noun: string
  readonly defaults: ReadonlyMap<string, AspectValue>
}
const TEMPLATE: Kind = {
  entityType: 'dataHubPageTemplate',
  prefix: TEMPLATE_PREFIX,
  aspect: TEMPLATE_PROPERTIES,
  noun: 'template',
  defaults: DEFAULT_TEMPLATES,
}
const MODULE: Kind = {
  entityType: 'dataHubPageModule',
  prefix: MODULE_PREFIX,
  aspect: MODULE_PROPERTIES,
  noun: 'module',
  defaults: DEFAULT_MODULES,
}

/** The stored properties of a template or module, else its bootstrapped default; undefined when neither. */
async function current(ctx: CatalogContext, kind: Kind, urn: string): Promise<AspectValue | undefined> {
  const stored = (await ctx.client.getEntities([urn], [kind.aspect])).get(urn)?.aspects[kind.aspect]
  return propertiesOf(urn, stored)
}

const scopeOf = (props: AspectValue | undefined) => obj(props?.visibility)?.scope
const creatorOf = (props: AspectValue | undefined) => obj(props?.created)?.actor

/**
 * Who may overwrite an existing template or module: for a global one, those who manage home page
 * templates; for a personal one, its creator too. DataHub checks only the scope being written,
 * so anyone could take over another user's personal template by its URN; here they may not.
 */
function mayOverwrite(
  ctx: CatalogContext,
  kind: Kind,
  props: AspectValue | undefined,
  manager: boolean,
): void {
  if (!props || manager) return
  if (scopeOf(props) === 'PERSONAL' && creatorOf(props) === ctx.actor) return
  throw new ForbiddenError(`User does not have permission to update global ${kind.noun}s.`)
}

/** The URN to write: the input's (of the kind's type), or a new random one. */
function urnOf(ctx: CatalogContext, kind: Kind, urn: string | null | undefined): EntityRef {
  return typedRef(ctx, urn?.trim() ? urn : `${kind.prefix}${randomUUID()}`, kind.entityType)
}

/**
 * Writes `next` (built from what is stored, or the default) as the properties, stamped: `created`
 * kept from before (the caller and now for a new one), `lastModified` the caller and now. Guarded,
 * so a concurrent change of the same URN is read again, never overwritten unseen.
 */
async function upsertProperties(
  ctx: CatalogContext,
  kind: Kind,
  ref: EntityRef,
  next: (before: AspectValue | undefined) => AspectValue,
): Promise<EntitySource> {
  const stamp = stampOf(ctx)
  const manager = await holds(ctx, [MANAGE])
  await compareAndSet(ctx, ref, kind.aspect, (stored) => {
    const before = propertiesOf(ref.urn, stored)
    // Checked on what the guarded write read: one made meanwhile is checked too.
    mayOverwrite(ctx, kind, before, manager)
    return { ...next(before), created: before?.created ?? stamp, lastModified: stamp }
  })
  return { urn: ref.urn }
}

interface UpsertTemplateInput {
  readonly urn?: string | null
  readonly rows: readonly { readonly modules: readonly string[] }[]
  readonly assetSummary?: {
    readonly summaryElements: readonly { elementType: string; structuredPropertyUrn?: string | null }[]
  } | null
  readonly scope: 'PERSONAL' | 'GLOBAL'
  readonly surfaceType: string
}

/**
 * DataHub's UpsertPageTemplateResolver: a template of rows of modules (each must exist), its
 * surface, scope and asset summary (a stored summary is kept when none is given). A global scope
 * needs MANAGE_HOME_PAGE_TEMPLATES (checked by `authorizeMutation`); an existing template also
 * needs the right to overwrite it (see `mayOverwrite`).
 */
async function upsertPageTemplate(
  _: unknown,
  { input }: { input: UpsertTemplateInput },
  ctx: CatalogContext,
) {
  const ref = urnOf(ctx, TEMPLATE, input.urn)
  const rows = input.rows.map((row) => ({
    modules: row.modules.map((m) => typedRef(ctx, m, 'dataHubPageModule').urn),
  }))
  const modules = [...new Set(rows.flatMap((r) => r.modules))]
  const stored = await ctx.client.getEntities(
    modules.filter((m) => !DEFAULT_MODULES.has(m)),
    [MODULE_PROPERTIES],
  )
  for (const m of modules) {
    if (!DEFAULT_MODULES.has(m) && !stored.get(m)?.aspects[MODULE_PROPERTIES]) {
      throw new InvalidInputError(`Failed to add page template rows as module with urn ${m} does not exist`)
    }
  }
  const summary = input.assetSummary
    ? {
        summaryElements: input.assetSummary.summaryElements.map((e) => ({
          elementType: e.elementType,
          ...(e.structuredPropertyUrn != null
            ? { structuredPropertyUrn: typedRef(ctx, e.structuredPropertyUrn, 'structuredProperty').urn }
            : {}),
        })),
      }
    : undefined
  return upsertProperties(ctx, TEMPLATE, ref, (before) => {
    const next: AspectValue = {
      rows,
      surface: { surfaceType: input.surfaceType },
      visibility: { scope: input.scope },
    }
    const assetSummary = summary ?? before?.assetSummary
    if (assetSummary) next.assetSummary = assetSummary
    return next
  })
}

interface UpsertModuleInput {
  readonly urn?: string | null
  readonly name: string
  readonly type: string
  readonly scope: 'PERSONAL' | 'GLOBAL'
  readonly params: {
    readonly linkParams?: { linkUrl: string; imageUrl?: string | null; description?: string | null } | null
    readonly richTextParams?: { content: string } | null
    readonly assetCollectionParams?: {
      assetUrns: readonly string[]
      dynamicFilterJson?: string | null
    } | null
    readonly hierarchyViewParams?: {
      assetUrns: readonly string[]
      showRelatedEntities: boolean
      relatedEntitiesFilterJson?: string | null
    } | null
  }
}

/** The module types a user may make, with DataHub's message when their params are missing. */
const CREATABLE: Readonly<Record<string, readonly [keyof UpsertModuleInput['params'], string]>> = {
  LINK: ['linkParams', 'Did not provide link params for link module'],
  RICH_TEXT: ['richTextParams', 'Did not provide rich text params for rich text module'],
  ASSET_COLLECTION: [
    'assetCollectionParams',
    'Did not provide asset collection params for asset collection module',
  ],
  HIERARCHY: ['hierarchyViewParams', 'Did not provide hierarchy view params for hierarchy view module'],
}

/** Drops the null members of a params block (absent is how the model stores them). */
function present(block: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([, v]) => v != null))
}

/**
 * DataHub's UpsertPageModuleResolver: a link, rich text, asset collection or hierarchy module (the
 * built-in types are the bootstrap's only), with the params its type needs; the params given
 * replace the stored ones. Scope as for templates.
 */
async function upsertPageModule(_: unknown, { input }: { input: UpsertModuleInput }, ctx: CatalogContext) {
  const creatable = CREATABLE[input.type]
  if (!creatable) throw new InvalidInputError('Attempted to create an unsupported module type.')
  const [needed, message] = creatable
  if (!input.params[needed]) throw new InvalidInputError(message)
  nameOf(input.name, 'A module')
  const ref = urnOf(ctx, MODULE, input.urn)
  const params: AspectValue = {}
  for (const [key, block] of Object.entries(input.params)) {
    if (!block) continue
    const value = present(block as Record<string, unknown>)
    if (Array.isArray(value.assetUrns)) {
      value.assetUrns = (value.assetUrns as string[]).map((u) => resolveInput(ctx, u).urn)
    }
    params[key] = value
  }
  return upsertProperties(ctx, MODULE, ref, () => ({
    name: input.name,
    type: input.type,
    visibility: { scope: input.scope },
    params,
  }))
}

/**
 * DataHub's delete of a template or module, its checks in its order: a bootstrapped one is never
 * deleted; it must exist; a global one needs MANAGE_HOME_PAGE_TEMPLATES; a personal one is its
 * creator's. A hard delete, with every reference to it (a user's home page, an asset's summary, a
 * template's rows) in the same write.
 */
async function deleteOne(ctx: CatalogContext, kind: Kind, urn: string, builtIn: string): Promise<boolean> {
  const ref = typedRef(ctx, urn, kind.entityType)
  if (kind.defaults.has(ref.urn)) throw new InvalidInputError(builtIn)
  const props = (await ctx.client.getEntities([ref.urn], [kind.aspect])).get(ref.urn)?.aspects[kind.aspect]
  if (!props) {
    throw new InvalidInputError(
      `Attempted to delete a page ${kind.noun} that does not exist with urn ${ref.urn}`,
    )
  }
  if (scopeOf(props) === 'PERSONAL') {
    if (creatorOf(props) !== ctx.actor) {
      throw new ForbiddenError(
        `Attempted to delete personal a page ${kind.noun} that was not created by the actor`,
      )
    }
  } else if (!(await holds(ctx, [MANAGE]))) {
    throw new ForbiddenError(`User is unauthorized to delete global ${kind.noun}s.`)
  }
  await deleteWithReferences(ctx, ref)
  return true
}

async function deletePageTemplate(_: unknown, { input }: { input: { urn: string } }, ctx: CatalogContext) {
  const message =
    input.urn === DEFAULT_HOME_TEMPLATE
      ? 'Attempted to delete the default page template'
      : `Cannot delete default page template with urn ${input.urn}`
  return deleteOne(ctx, TEMPLATE, input.urn, message)
}

function deletePageModule(_: unknown, { input }: { input: { urn: string } }, ctx: CatalogContext) {
  return deleteOne(ctx, MODULE, input.urn, `Cannot delete default page module with urn ${input.urn}`)
}

/**
 * DataHub's UpdateAssetSettingsResolver (EDIT_ENTITY or MANAGE_ASSET_SUMMARY on the asset): the
 * asset's summary template, as the only one in `assetSettings` (an asset whose type has no
 * summary, or a template that does not exist, is refused). Answers the settings written.
 */
async function updateAssetSettings(
  _: unknown,
  { input }: { input: { urn: string; summary?: { template: string } | null } },
  ctx: CatalogContext,
) {
  const asset = resolveInput(ctx, input.urn)
  if (!ctx.registry.hasAspect(asset.entity, 'assetSettings')) {
    throw new InvalidInputError(`Entity type ${asset.entity.name} of ${asset.urn} has no asset settings`)
  }
  if (!(await ctx.client.exists(asset.urn))) throw new InvalidInputError(`Entity ${asset.urn} does not exist`)
  const template = input.summary
    ? typedRef(ctx, input.summary.template, 'dataHubPageTemplate').urn
    : undefined
  if (template && !(await current(ctx, TEMPLATE, template))) {
    throw new InvalidInputError(`Page template ${template} does not exist`)
  }
  let written: AspectValue = {}
  await compareAndSet(ctx, asset, 'assetSettings', (stored) => {
    written = { ...(stored ?? {}) }
    if (template) written.assetSummary = { templates: [{ template }] }
    return written
  })
  return assetSettings(written)
}

export const pageTemplateMutations = {
  upsertPageTemplate,
  deletePageTemplate,
  upsertPageModule,
  deletePageModule,
  updateAssetSettings,
}
