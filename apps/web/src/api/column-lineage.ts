import { type ColumnEdge, columnEdges } from '../lib/column-lineage.js'
import { entityTypeOf } from './entity-rest.js'
import { aspectVersion } from './versions.js'

/** Datasets whose column lineage is read at most for one graph, and at once. */
export const MAX_COLUMN_DATASETS = 300
const AT_ONCE = 8

/**
 * The column-level edges into each of the given datasets: the `fineGrainedLineages` of their
 * latest `upstreamLineage` (other entity types are skipped), by dataset URN.
 */
export async function columnEdgesInto(urns: readonly string[]): Promise<Map<string, ColumnEdge[]>> {
  const datasets = urns.filter((u) => entityTypeOf(u) === 'dataset').slice(0, MAX_COLUMN_DATASETS)
  const out = new Map<string, ColumnEdge[]>()
  for (let i = 0; i < datasets.length; i += AT_ONCE) {
    const slice = datasets.slice(i, i + AT_ONCE)
    const values = await Promise.all(slice.map((u) => aspectVersion(u, 'upstreamLineage', 0)))
    slice.forEach((u, j) => {
      out.set(u, columnEdges(values[j]))
    })
  }
  return out
}
