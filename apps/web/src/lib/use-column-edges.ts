import type { Edge } from '@xyflow/react'
import { useEffect, useRef, useState } from 'react'
import { columnEdgesInto } from '../api/column-lineage.js'
import type { ColumnEdge } from './column-lineage.js'
import type { LineageGraph } from './lineage-graph.js'

/**
 * While `enabled`, the column-level edges between the graph's datasets, as dashed React Flow
 * edges labelled `field → field`; each dataset's column lineage is read once.
 */
export function useColumnEdges(graph: LineageGraph, enabled: boolean): { edges: Edge[]; loading: boolean } {
  const cache = useRef(new Map<string, ColumnEdge[]>())
  const [edges, setEdges] = useState<Edge[]>([])
  const [loading, setLoading] = useState(false)
  useEffect(() => {
    if (!enabled) {
      setEdges([])
      return
    }
    let live = true
    const missing = [...graph.nodes.keys()].filter((u) => !cache.current.has(u))
    setLoading(true)
    columnEdgesInto(missing)
      .then((found) => {
        for (const u of missing) cache.current.set(u, found.get(u) ?? [])
        if (!live) return
        const all = [...graph.nodes.keys()].flatMap((u) => cache.current.get(u) ?? [])
        setEdges(
          all
            .filter((e) => graph.nodes.has(e.from) && graph.nodes.has(e.to))
            .map((e) => ({
              id: `column:${e.from}:${e.fromField}->${e.to}:${e.toField}`,
              source: e.from,
              target: e.to,
              label: `${e.fromField} → ${e.toField}`,
              className: 'column-edge',
              style: { strokeDasharray: '4 3' },
            })),
        )
      })
      .catch(() => live && setEdges([]))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
  }, [graph, enabled])
  return { edges, loading }
}
