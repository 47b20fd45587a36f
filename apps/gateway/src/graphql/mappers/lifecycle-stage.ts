import { SYSTEM_ACTOR } from '@catalog/core'
import type { AspectValue, MetadataClient } from '../clients/metadata-client.js'

/** Lifecycle stages: `lifecycleStageType` entities, and the stage an asset's `status` names. */

export const STAGE_INFO = 'lifecycleStageTypeInfo'
export const STAGE_PREFIX = 'urn:li:lifecycleStageType:'
/** The "no stage" sentinel of a stage's allowed previous stages. */
export const NO_STAGE = `${STAGE_PREFIX}__NONE__`

const DOCUMENTS_AND_TERMS = ['document', 'glossaryTerm']
const BOOTSTRAP_STAMP = { time: 0, actor: SYSTEM_ACTOR }

/** A stage as DataHub's bootstrap (`lifecycle-stages.yaml`) writes it. */
function defaultStage(
  name: string,
  entityTypes: readonly string[],
  hideInSearch: boolean,
  allowedPrevious?: readonly string[],
): AspectValue {
  return {
    name,
    entityTypes: [...entityTypes],
    settings: { hideInSearch },
    ...(allowedPrevious
      ? { transitionPolicy: { allowedPreviousStages: allowedPrevious.map((s) => `${STAGE_PREFIX}${s}`) } }
      : {}),
    created: BOOTSTRAP_STAMP,
    lastModified: BOOTSTRAP_STAMP,
  }
}

/** DataHub's bootstrapped stages, read as stored until a stage of the same URN is written. */
export const DEFAULT_STAGES: ReadonlyMap<string, AspectValue> = new Map(
  (
    [
      ['UNPUBLISHED', defaultStage('Unpublished', ['document'], false)],
      ['PUBLISHED', defaultStage('Published', DOCUMENTS_AND_TERMS, false)],
      ['DRAFT', defaultStage('Draft', DOCUMENTS_AND_TERMS, true)],
      ['IN_REVIEW', defaultStage('In Review', DOCUMENTS_AND_TERMS, true, ['DRAFT', 'REJECTED'])],
      ['REJECTED', defaultStage('Rejected', DOCUMENTS_AND_TERMS, true, ['IN_REVIEW'])],
      ['DEPRECATED', defaultStage('Deprecated', DOCUMENTS_AND_TERMS, false, ['__NONE__'])],
      ['ARCHIVED', defaultStage('Archived', DOCUMENTS_AND_TERMS, true, ['__NONE__', 'DEPRECATED'])],
    ] as const
  ).map(([id, info]) => [`${STAGE_PREFIX}${id}`, info]),
)

/** The info of stages by URN: stored, else bootstrapped; a stage with neither is left out. */
export async function stageInfos(
  client: MetadataClient,
  urns: readonly string[],
): Promise<Map<string, AspectValue>> {
  const wanted = [...new Set(urns)].filter((u) => u.startsWith(STAGE_PREFIX))
  const stored = wanted.length > 0 ? await client.getEntities(wanted, [STAGE_INFO]) : new Map()
  const out = new Map<string, AspectValue>()
  for (const urn of wanted) {
    const info = stored.get(urn)?.aspects[STAGE_INFO] ?? DEFAULT_STAGES.get(urn)
    if (info) out.set(urn, info)
  }
  return out
}

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : null
const record = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined

/** `LifecycleStageType` as DataHub's LifecycleStageTypeMapper. */
export function lifecycleStageType(urn: string, info: AspectValue) {
  return {
    urn,
    name: typeof info.name === 'string' ? info.name : '',
    description: typeof info.description === 'string' ? info.description : null,
    entityTypes: strings(info.entityTypes),
    hideInSearch: record(info.settings)?.hideInSearch === true,
    allowedPreviousStages: strings(record(info.transitionPolicy)?.allowedPreviousStages),
  }
}

/** `Status.lifecycleStage`, as DataHub's StatusLifecycleStageResolver: the stage, null when it is gone. */
export async function statusLifecycleStage(client: MetadataClient, urn: unknown) {
  if (typeof urn !== 'string') return null
  const info = (await stageInfos(client, [urn])).get(urn)
  return info ? lifecycleStageType(urn, info) : null
}
