import { Background, Controls, type Edge, type Node, Position, ReactFlow } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useEffect, useState } from 'react'
import { graphql } from '../api/client.js'
import { ENTITY, LINEAGE } from '../api/queries.js'
import type { EntityDetail, EntitySummary, LineageAnswer } from '../api/types.js'
import { Link } from '../components/link.js'
import { displayName, platformName, typeLabel } from '../lib/display.js'
import { layout, NODE_WIDTH } from '../lib/elk-layout.js'
import { edgeKey, emptyGraph, type LineageGraph, withNeighbours } from '../lib/lineage-graph.js'
import { navigate, routes } from '../lib/router.js'
import { useApi } from '../lib/use-api.js'

async function neighbours(urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM'): Promise<EntitySummary[]> {
  const answer = await graphql<LineageAnswer>(LINEAGE, { urn, direction })
  return (answer.entity?.lineage?.relationships ?? []).flatMap((r) => (r.entity ? [r.entity] : []))
}

async function expand(graph: LineageGraph, center: EntitySummary): Promise<LineageGraph> {
  const [up, down] = await Promise.all([
    neighbours(center.urn, 'UPSTREAM'),
    neighbours(center.urn, 'DOWNSTREAM'),
  ])
  return withNeighbours(graph, center, up, down)
}

/**
 * Upstream and downstream of one entity as a graph laid out by ELK; clicking a node fetches
 * its own neighbours, double-clicking opens it. Loaded on demand (its own chunk).
 */
export default function LineagePage({ urn }: { urn: string }) {
  const [graph, setGraph] = useState<LineageGraph>(emptyGraph)
  const [drawn, setDrawn] = useState<{ nodes: Node[]; edges: Edge[] }>({ nodes: [], edges: [] })
  const start = useApi(`lineage:${urn}`, async () => {
    const root = await graphql<{ entity: EntityDetail | null }>(ENTITY, { urn })
    if (!root.entity) throw new Error(`No entity ${urn}.`)
    return expand(emptyGraph, root.entity)
  })
  useEffect(() => {
    if (start.data) setGraph(start.data)
  }, [start.data])
  useEffect(() => {
    let live = true
    const edges = [...graph.edges].map((k) => {
      const [from = '', to = ''] = k.split('\n')
      return { from, to }
    })
    layout([...graph.nodes.keys()], edges).then((positions) => {
      if (!live) return
      setDrawn({
        nodes: [...graph.nodes.values()].map((e) => ({
          id: e.urn,
          position: positions.get(e.urn) ?? { x: 0, y: 0 },
          sourcePosition: Position.Right,
          targetPosition: Position.Left,
          data: { label: <NodeLabel entity={e} open={graph.expanded.has(e.urn)} /> },
          className: e.urn === urn ? 'lineage-node center' : 'lineage-node',
          style: { width: NODE_WIDTH },
        })),
        edges: edges.map((e) => ({
          id: edgeKey(e.from, e.to),
          source: e.from,
          target: e.to,
          animated: false,
        })),
      })
    })
    return () => {
      live = false
    }
  }, [graph, urn])
  const root = graph.nodes.get(urn)
  return (
    <section className="lineage">
      <p>
        <Link href={routes.entity(urn)}>← {root ? displayName(root) : urn}</Link>{' '}
        <span className="muted">
          {graph.nodes.size} entities, {graph.edges.size} edges · click a node to expand it, double-click to
          open it
        </span>
      </p>
      {start.error && (
        <p role="alert" className="error">
          {start.error.message}
        </p>
      )}
      <div className="lineage-canvas" data-testid="lineage-graph">
        <ReactFlow
          // Remounted as the graph grows, so that the view fits it again.
          key={drawn.nodes.length}
          nodes={drawn.nodes}
          edges={drawn.edges}
          fitView
          fitViewOptions={{ maxZoom: 1 }}
          nodesConnectable={false}
          onNodeClick={(_: unknown, node: Node) => {
            const entity = graph.nodes.get(node.id)
            if (entity && !graph.expanded.has(node.id)) expand(graph, entity).then(setGraph, () => {})
          }}
          onNodeDoubleClick={(_: unknown, node: Node) => navigate(routes.entity(node.id))}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </section>
  )
}

function NodeLabel({ entity, open }: { entity: EntitySummary; open: boolean }) {
  return (
    <div title={entity.urn}>
      <strong>{displayName(entity)}</strong>
      <div className="muted">
        {typeLabel(entity.type)}
        {platformName(entity) ? ` · ${platformName(entity)}` : ''}
        {open ? '' : ' · +'}
      </div>
    </div>
  )
}
