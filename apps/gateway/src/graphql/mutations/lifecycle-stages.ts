import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { DEFAULT_STAGES, lifecycleStageType, NO_STAGE, stageInfos } from '../mappers/lifecycle-stage.js'
import { searchOf } from '../resolvers/search.js'
import { compareAndSet } from './compare-and-set.js'
import { resolveInput, stampOf } from './support.js'

/** Most stages listed, as DataHub's resolver reads them (one search page). */
const MAX_STAGES = 1_000

/**
 * DataHub's ListLifecycleStagesResolver: every stage, the bootstrapped ones (as stored when
 * written since) and those stored besides, in URN order.
 */
async function listLifecycleStages(_: unknown, __: unknown, ctx: CatalogContext) {
  return [...(await allStages(ctx))].map(([urn, info]) => lifecycleStageType(urn, info))
}

/** Every stage with its info, in URN order: the bootstrapped ones and those stored besides. */
async function allStages(ctx: CatalogContext): Promise<Map<string, AspectValue>> {
  const found = await searchOf(ctx).searchAcrossEntities({
    input: '*',
    entities: ['lifecycleStageType'],
    start: 0,
    count: MAX_STAGES,
    searchFlags: { skipAggregates: true, skipHighlighting: true },
  })
  const urns = [...new Set([...DEFAULT_STAGES.keys(), ...found.metadata.urns])].sort()
  return stageInfos(ctx.client, urns)
}

/** How long the stages hidden from search are remembered (DataHub caches them for 5 minutes). */
const HIDDEN_TTL_MS = 5_000
/** The hidden stages read through each metadata client (one per app in one-process mode). */
const hidden = new WeakMap<object, { readonly until: number; readonly stages: Promise<string[]> }>()

/**
 * The stages whose entities searches leave out (`hideInSearch`), as DataHub's default search
 * filters do; read at most every few seconds.
 */
export function hiddenLifecycleStages(ctx: CatalogContext): Promise<string[]> {
  const now = Date.now()
  const known = hidden.get(ctx.client)
  if (known && known.until > now) return known.stages
  const stages = allStages(ctx).then((all) =>
    [...all].filter(([, info]) => lifecycleStageType('', info).hideInSearch).map(([urn]) => urn),
  )
  hidden.set(ctx.client, { until: now + HIDDEN_TTL_MS, stages })
  stages.catch(() => hidden.delete(ctx.client))
  return stages
}

/**
 * DataHub's SetLifecycleStageResolver with its write-layer checks: the asset's `status` names
 * the stage (which must exist and apply to the asset's type), or none when no stage is given, and
 * records who changed it when. A stage whose transition policy does not allow the asset's current
 * stage is not entered: as DataHub's transition hook does, the asset keeps its stage (the change
 * is still stamped) and the call answers true.
 */
async function setLifecycleStage(
  _: unknown,
  args: { urn: string; lifecycleStageUrn?: string | null },
  ctx: CatalogContext,
) {
  const asset = resolveInput(ctx, args.urn)
  if (!ctx.registry.hasAspect(asset.entity, 'status')) {
    throw new InvalidInputError(`Entity type ${asset.entity.name} of ${asset.urn} has no lifecycle stage`)
  }
  if (!(await ctx.client.exists(asset.urn))) throw new InvalidInputError(`Entity ${asset.urn} does not exist`)
  const wanted = args.lifecycleStageUrn?.trim() ? args.lifecycleStageUrn.trim() : undefined
  let allowed: string[] | null = null
  if (wanted) {
    const info = (await stageInfos(ctx.client, [resolveInput(ctx, wanted).urn])).get(wanted)
    if (!info) {
      throw new InvalidInputError(
        `Lifecycle stage '${wanted}' does not exist. Use listLifecycleStages to discover available stages.`,
      )
    }
    const stage = lifecycleStageType(wanted, info)
    const types = stage.entityTypes
    if (types && types.length > 0 && !types.includes(asset.entity.name)) {
      throw new InvalidInputError(
        `Lifecycle stage '${wanted}' does not apply to entity type '${asset.entity.name}'. Allowed entity types: [${types.join(', ')}]`,
      )
    }
    allowed = stage.allowedPreviousStages
  }
  await compareAndSet(ctx, asset, 'status', (current) => {
    const next: AspectValue = current ? { ...current } : { removed: false }
    const previous = typeof next.lifecycleStage === 'string' ? next.lifecycleStage : undefined
    const enters = !wanted || wanted === previous || !allowed || allowed.includes(previous ?? NO_STAGE)
    if (enters) {
      if (wanted) next.lifecycleStage = wanted
      else delete next.lifecycleStage
    }
    next.lifecycleLastUpdated = stampOf(ctx)
    return next
  })
  return true
}

export const lifecycleStageQueries = { listLifecycleStages }
export const lifecycleStageMutations = { setLifecycleStage }
