import { ValidationError } from '../errors.js'
import { childObject, isObj, keyText, type Tree, type TreeObject } from './tree.js'

/**
 * Column-level lineage as DataHub patches it (`upstreamLineage` and `dataJobInputOutput`): the
 * `fineGrainedLineages` array becomes
 * `{<transformOperation | NONE>: {<downstream>: {<query urn | NONE>: {<upstream>: {confidenceScore, upstreamType, downstreamType}}}}}`,
 * so `add /fineGrainedLineages/NONE/<downstream>/NONE/<upstream>` adds one upstream column.
 * Each entry must have exactly one downstream, as DataHub requires.
 */
export function fineGrainedToMap(root: TreeObject): void {
  const list = root.get('fineGrainedLineages')
  const map: TreeObject = new Map()
  if (Array.isArray(list)) {
    for (const entry of list) {
      if (!isObj(entry)) continue
      const downstreams = entry.get('downstreams')
      if (!Array.isArray(downstreams) || downstreams.length !== 1) {
        throw new ValidationError(
          'Patching not supported on fine grained lineages with not exactly one downstream. Current fine grained lineage implementation is downstream derived and patches are keyed on the root of this derivation.',
        )
      }
      const upstreams = entry.get('upstreams')
      const firstUpstream = Array.isArray(upstreams) ? keyText(upstreams[0]) : ''
      const leaf = {
        confidenceScore: entry.get('confidenceScore') ?? 1.0,
        upstreamType:
          entry.get('upstreamType') ??
          (firstUpstream.startsWith('urn:li:dataset:') ? 'DATASET' : 'FIELD_SET'),
        downstreamType: entry.get('downstreamType') ?? 'FIELD',
      }
      const operation = childObject(map, textOr(entry.get('transformOperation'), 'NONE'))
      const downstream = childObject(operation, keyText(downstreams[0]))
      const query = childObject(downstream, textOr(entry.get('query'), 'NONE'))
      if (!Array.isArray(upstreams)) continue
      for (const upstream of upstreams)
        query.set(keyText(upstream), new Map(Object.entries(leaf)) as TreeObject)
    }
  }
  root.set('fineGrainedLineages', map)
}

/** The reverse: one entry per (operation, downstream, query) that still has upstreams. */
export function fineGrainedToArray(root: TreeObject): void {
  const map = root.get('fineGrainedLineages')
  if (Array.isArray(map)) return
  const out: Tree[] = []
  if (isObj(map)) {
    for (const [operation, downstreams] of map) {
      if (!isObj(downstreams)) continue
      for (const [downstream, queries] of downstreams) {
        if (!isObj(queries)) continue
        for (const [query, upstreams] of queries) {
          if (!isObj(upstreams) || upstreams.size === 0) continue
          out.push(entryOf(operation, downstream, query, upstreams))
        }
      }
    }
  }
  root.set('fineGrainedLineages', out)
}

function entryOf(operation: string, downstream: string, query: string, upstreams: TreeObject): TreeObject {
  let score = 1.0
  let upstreamType: Tree = 'FIELD_SET'
  let downstreamType: Tree = 'FIELD'
  for (const leaf of upstreams.values()) {
    if (!isObj(leaf)) continue
    const s = leaf.get('confidenceScore')
    if (typeof s === 'number') score = Math.min(score, s)
    upstreamType = leaf.get('upstreamType') ?? upstreamType
    downstreamType = leaf.get('downstreamType') ?? downstreamType
  }
  const entry: TreeObject = new Map()
  entry.set('downstreams', [downstream])
  entry.set('upstreams', [...upstreams.keys()])
  if (query.trim() !== '' && query !== 'NONE') entry.set('query', query)
  entry.set('upstreamType', upstreamType)
  entry.set('downstreamType', downstreamType)
  entry.set('confidenceScore', score)
  entry.set('transformOperation', operation)
  return entry
}

function textOr(value: Tree | undefined, fallback: string): string {
  return value === undefined || value === null ? fallback : keyText(value)
}
