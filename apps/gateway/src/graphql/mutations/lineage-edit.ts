import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { currentAspect, resolveInput, stampOf, write } from './support.js'

/**
 * Where the lineage editor of DataHub's UI writes an edge, as DataHub's UpdateLineageResolver and
 * LineageService do: the aspect of the entity holding the edge, the keyed list an added edge goes
 * to per type of the other end, and the deprecated plain lists an edge is also removed from.
 */
interface Holder {
  readonly aspect: string
  /** The lists of `aspect`, each with its key field (`[]`: a list of URNs; `string`: `{string: urn}`). */
  readonly lists: Readonly<Record<string, readonly string[]>>
  /** The list an edge to an entity of this type is added to; none: the type is refused. */
  readonly addTo: Readonly<Record<string, string>>
  /** DataHub's message refusing an other end of another type. */
  readonly refusal: string
  /** The aspect must exist already (DataHub fails on charts and dashboards without info). */
  readonly required?: string
  /** A new element of the `addTo` list. */
  readonly element: (list: string, other: string, holder: string, stamp: AspectValue) => AspectValue
}

const SOURCE_UI = { source: 'UI' }
const edge = (_: string, other: string, holder: string, stamp: AspectValue): AspectValue => ({
  destinationUrn: other,
  sourceUrn: holder,
  created: stamp,
  lastModified: stamp,
  properties: SOURCE_UI,
})
const DATASET_ONLY =
  'Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: '

/** The holder of the upstream edges of each downstream entity type (others are ignored, as in DataHub). */
const UPSTREAMS: Readonly<Record<string, Holder>> = {
  dataset: {
    aspect: 'upstreamLineage',
    lists: { upstreams: ['dataset'] },
    addTo: { dataset: 'upstreams' },
    refusal: DATASET_ONLY,
    element: (_, other, __, stamp) => ({
      dataset: other,
      type: 'TRANSFORMED',
      auditStamp: stamp,
      created: stamp,
      properties: SOURCE_UI,
    }),
  },
  chart: {
    aspect: 'chartInfo',
    lists: { inputEdges: ['destinationUrn'], inputs: ['string'] },
    addTo: { dataset: 'inputEdges', chart: 'inputEdges' },
    refusal: "Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ",
    required: 'chart',
    element: edge,
  },
  dashboard: {
    aspect: 'dashboardInfo',
    lists: { chartEdges: ['destinationUrn'], datasetEdges: ['destinationUrn'], charts: [], datasets: [] },
    addTo: { chart: 'chartEdges', dataset: 'datasetEdges' },
    refusal: "Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ",
    required: 'dashboard',
    element: edge,
  },
  dataJob: {
    aspect: 'dataJobInputOutput',
    lists: {
      inputDatasetEdges: ['destinationUrn'],
      inputDatajobEdges: ['destinationUrn'],
      inputDatasets: [],
      inputDatajobs: [],
    },
    addTo: { dataset: 'inputDatasetEdges', dataJob: 'inputDatajobEdges' },
    refusal: "Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ",
    element: edge,
  },
}

/** The holder of a data job's downstream datasets (`outputDatasetEdges`). */
const JOB_OUTPUTS: Holder = {
  aspect: 'dataJobInputOutput',
  lists: { outputDatasetEdges: ['destinationUrn'], outputDatasets: [] },
  addTo: { dataset: 'outputDatasetEdges' },
  refusal: DATASET_ONLY,
  element: edge,
}

interface LineageEdgeInput {
  readonly upstreamUrn: string
  readonly downstreamUrn: string
}

interface Change {
  readonly add: EntityRef[]
  readonly remove: EntityRef[]
}

/** The other ends to add and remove per entity, grouped by one end of each edge. */
function grouped(
  ctx: CatalogContext,
  toAdd: readonly LineageEdgeInput[],
  toRemove: readonly LineageEdgeInput[],
  by: 'downstreamUrn' | 'upstreamUrn',
): Map<string, { ref: EntityRef; change: Change }> {
  const other = by === 'downstreamUrn' ? 'upstreamUrn' : 'downstreamUrn'
  const out = new Map<string, { ref: EntityRef; change: Change }>()
  const put = (e: LineageEdgeInput, kind: keyof Change) => {
    const ref = resolveInput(ctx, e[by])
    const entry = out.get(ref.urn) ?? { ref, change: { add: [], remove: [] } }
    entry.change[kind].push(resolveInput(ctx, e[other]))
    out.set(ref.urn, entry)
  }
  for (const e of toAdd) put(e, 'add')
  for (const e of toRemove) put(e, 'remove')
  return out
}

/** The key of each element of one list of a stored aspect. */
function keysOf(value: AspectValue | undefined, list: string, keys: readonly string[]): Set<string> {
  const items = value?.[list]
  const key = keys[0]
  return new Set(
    (Array.isArray(items) ? items : []).map((i) =>
      key === undefined ? String(i) : String((i as Record<string, unknown>)[key]),
    ),
  )
}

/** The patch operations of one change on one holder, given the aspect's current value. */
async function opsOf(
  ctx: CatalogContext,
  holder: Holder,
  ref: EntityRef,
  change: Change,
  current: AspectValue | undefined,
): Promise<PatchOp[]> {
  const ops: PatchOp[] = []
  const stamp = stampOf(ctx)
  for (const other of change.add) {
    const list = holder.addTo[other.entity.name]
    if (!list) throw new InvalidInputError(`${holder.refusal}${other.urn}`)
    if (!(await ctx.client.exists(other.urn)))
      throw new InvalidInputError(`Error: urn does not exist: ${other.urn}`)
    const present = Object.entries(holder.lists).some(([l, k]) => keysOf(current, l, k).has(other.urn))
    if (present) continue
    ops.push({
      op: 'add',
      path: pointer(list, other.urn),
      value: holder.element(list, other.urn, ref.urn, stamp),
    })
  }
  for (const other of change.remove) {
    for (const [list, keys] of Object.entries(holder.lists)) {
      if (!keysOf(current, list, keys).has(other.urn)) continue
      // Add then remove: the key is gone afterwards even if a concurrent call removed it first.
      const path = pointer(list, other.urn)
      const key = keys[0]
      ops.push({ op: 'add', path, value: key === undefined ? other.urn : { [key]: other.urn } })
      ops.push({ op: 'remove', path })
    }
  }
  return ops
}

/**
 * DataHub's UpdateLineageResolver: each downstream (then each upstream) must exist; a dataset,
 * chart, dashboard or data job downstream gets its upstream edges added and removed, and a data
 * job upstream its output datasets. Every edit is validated first, then all are one atomic write
 * of PATCH proposals (keyed lists, so concurrent edits of one entity's lineage lose nothing).
 */
async function updateLineage(
  _: unknown,
  {
    input,
  }: {
    input: {
      edgesToAdd: readonly (LineageEdgeInput | null)[]
      edgesToRemove: readonly (LineageEdgeInput | null)[]
    }
  },
  ctx: CatalogContext,
): Promise<boolean> {
  const toAdd = input.edgesToAdd.filter((e): e is LineageEdgeInput => e != null)
  const toRemove = input.edgesToRemove.filter((e): e is LineageEdgeInput => e != null)
  const ops = new Map<
    string,
    { ref: EntityRef; aspect: string; keys: Record<string, readonly string[]>; ops: PatchOp[] }
  >()
  const edit = async (holder: Holder, ref: EntityRef, change: Change) => {
    const current = await currentAspect(ctx, ref.urn, holder.aspect)
    if (holder.required && !current) {
      throw new InvalidInputError(
        `Failed to update ${holder.required} lineage for urn ${ref.urn} as ${holder.required} info doesn't exist`,
      )
    }
    const entry = ops.get(`${ref.urn} ${holder.aspect}`) ?? { ref, aspect: holder.aspect, keys: {}, ops: [] }
    entry.ops.push(...(await opsOf(ctx, holder, ref, change, current)))
    Object.assign(entry.keys, holder.lists)
    ops.set(`${ref.urn} ${holder.aspect}`, entry)
  }
  for (const { ref, change } of grouped(ctx, toAdd, toRemove, 'downstreamUrn').values()) {
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Cannot upsert lineage as downstream urn ${ref.urn} doesn't exist`)
    }
    const holder = UPSTREAMS[ref.entity.name]
    // A data job upstream of a dataset is written on the job (its outputs), below.
    const notJob = (r: EntityRef) => ref.entity.name !== 'dataset' || r.entity.name !== 'dataJob'
    if (holder)
      await edit(holder, ref, { add: change.add.filter(notJob), remove: change.remove.filter(notJob) })
  }
  for (const { ref, change } of grouped(ctx, toAdd, toRemove, 'upstreamUrn').values()) {
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Cannot upsert lineage as downstream urn ${ref.urn} doesn't exist`)
    }
    if (ref.entity.name !== 'dataJob') continue
    const notJob = (r: EntityRef) => r.entity.name !== 'dataJob'
    await edit(JOB_OUTPUTS, ref, { add: change.add.filter(notJob), remove: change.remove.filter(notJob) })
  }
  const proposals: MetadataProposal[] = [...ops.values()]
    .filter((e) => e.ops.length > 0)
    .map((e) => patch(e.ref, e.aspect, e.ops, e.keys))
  await write(ctx, proposals)
  return true
}

/** `updateLineage` (DataHub's lineage editor). */
export const lineageEditMutations = { updateLineage }
