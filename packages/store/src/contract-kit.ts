import type { EdgeTarget, Mutation } from './port.js'

/** The audit stamp the graph contract suites write with. */
export const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

/** An upsert of `value` as `aspect` of `urn`, producing `edges`. */
export const upsert = (
  urn: string,
  aspect: string,
  value: Record<string, unknown>,
  edges: EdgeTarget[] = [],
) =>
  ({
    kind: 'upsert',
    urn,
    entityType: urn.split(':')[2] as string,
    aspect,
    value,
    created,
    edges,
  }) as Mutation
