import type { LineageEdgeSpec } from '@catalog/store'

/** Allowed entity types at the near end (where the traversal stands) and the far end of an edge. */
interface EndTypes {
  readonly near: ReadonlySet<string> | undefined
  readonly far: ReadonlySet<string> | undefined
}

/** The edge types to follow from entities of one type, each way, and the far ends they accept. */
export interface NearPlan {
  /** Edge types to read OUTGOING, as a JSON array (`'[]'`: none). */
  readonly out: string
  /** Edge types to read INCOMING, as a JSON array (`'[]'`: none). */
  readonly in: string
  /** Whether an edge of `type` read OUTGOING may lead to an entity of `farType`. */
  readonly acceptsOut: (type: string, farType: string) => boolean
  /** Whether an edge of `type` read INCOMING may lead to an entity of `farType`. */
  readonly acceptsIn: (type: string, farType: string) => boolean
  /**
   * `out` and `in` without the edge types whose far end can only be of an entity type `has`
   * says the store holds none of.
   */
  readonly reachable: (has: (entityType: string) => boolean) => { readonly out: string; readonly in: string }
}

/** How one traversal direction follows the lineage specs: a {@link NearPlan} per near entity type. */
export interface LineagePlan {
  readonly from: (nearType: string) => NearPlan
}

const plans = new WeakMap<readonly LineageEdgeSpec[], { up: LineagePlan; down: LineagePlan }>()

/**
 * The plan of `specs` for one direction. An UPSTREAM walk follows an `isUpstream` edge OUTGOING
 * and the others INCOMING; DOWNSTREAM the reverse. Plans are kept per specs array (the service
 * passes the same one every time), and the per-type parts are built at first use.
 */
export function lineagePlan(specs: readonly LineageEdgeSpec[], upstream: boolean): LineagePlan {
  let both = plans.get(specs)
  if (!both) {
    both = { up: build(specs, true), down: build(specs, false) }
    plans.set(specs, both)
  }
  return upstream ? both.up : both.down
}

function build(specs: readonly LineageEdgeSpec[], upstream: boolean): LineagePlan {
  const out = new Map<string, EndTypes[]>()
  const inc = new Map<string, EndTypes[]>()
  const set = (types: readonly string[]) => (types.length === 0 ? undefined : new Set(types))
  for (const spec of specs) {
    const outgoing = spec.isUpstream === upstream
    const ends: EndTypes = outgoing
      ? { near: set(spec.sourceTypes), far: set(spec.destinationTypes) }
      : { near: set(spec.destinationTypes), far: set(spec.sourceTypes) }
    const target = outgoing ? out : inc
    const list = target.get(spec.type)
    if (list) list.push(ends)
    else target.set(spec.type, [ends])
  }
  const cache = new Map<string, NearPlan>()
  return {
    from: (nearType) => {
      let p = cache.get(nearType)
      if (!p) {
        const o = forNear(out, nearType)
        const i = forNear(inc, nearType)
        p = {
          out: o.json,
          in: i.json,
          acceptsOut: o.accepts,
          acceptsIn: i.accepts,
          reachable: (has) => ({ out: o.reachable(has), in: i.reachable(has) }),
        }
        cache.set(nearType, p)
      }
      return p
    },
  }
}

/** The edge types usable from an entity of `nearType`, and the far entity types each accepts. */
function forNear(ends: ReadonlyMap<string, readonly EndTypes[]>, nearType: string) {
  const far = new Map<string, Array<ReadonlySet<string> | undefined>>()
  for (const [type, list] of ends) {
    const usable = list.filter((e) => !e.near || e.near.has(nearType)).map((e) => e.far)
    if (usable.length > 0) far.set(type, usable)
  }
  return {
    json: JSON.stringify([...far.keys()]),
    accepts: (type: string, farType: string) =>
      far.get(type)?.some((allowed) => !allowed || allowed.has(farType)) ?? false,
    reachable: (has: (entityType: string) => boolean) =>
      JSON.stringify(
        [...far]
          .filter(([, usable]) => usable.some((allowed) => !allowed || [...allowed].some(has)))
          .map(([type]) => type),
      ),
  }
}
