import { Background, Controls, type Edge, type Node, Position, ReactFlow } from '@xyflow/react'
import '@xyflow/react/dist/style.css'
import { useEffect, useMemo, useState } from 'react'
import { graphql } from '../api/client.js'
import { HOP_CHOICES, reachedWithin } from '../api/lineage.js'
import { ENTITY, LINEAGE } from '../api/queries.js'
import type { EntityDetail, EntitySummary, LineageAnswer } from '../api/types.js'
import { LineageFilters } from '../components/lineage-filters.js'
import { Link } from '../components/link.js'
import { displayName, platformName, typeLabel } from '../lib/display.js'
import { layout, NODE_WIDTH } from '../lib/elk-layout.js'
import { type Hidden, lineageFacets, nothingHidden, visibleGraph } from '../lib/lineage-filter.js'
import { edgeKey, emptyGraph, type LineageGraph, withNeighbours, withReached } from '../lib/lineage-graph.js'
import { navigate, routes } from '../lib/router.js'
import { useApi } from '../lib/use-api.js'
import { useColumnEdges } from '../lib/use-column-edges.js'

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

/** The root and everything within `hops` both ways (one hop: the root's own neighbours). */
async function explore(root: EntitySummary, hops: number): Promise<LineageGraph> {
  if (hops <= 1) return expand(emptyGraph, root)
  const [up, down] = await Promise.all([
    reachedWithin(root.urn, 'UPSTREAM', hops),
    reachedWithin(root.urn, 'DOWNSTREAM', hops),
  ])
  const upstream = withReached(emptyGraph, root, 'UPSTREAM', up.reached, up.partial)
  return withReached(upstream, root, 'DOWNSTREAM', down.reached, down.partial)
}

const hopLabel = (h: number) => (h >= 3 ? '3+ (all)' : String(h))

/**
 * Upstream and downstream of one entity as a graph laid out by ELK; clicking a node fetches
 * its own neighbours, double-clicking opens it. Loaded on demand (its own chunk).
 */
export default function LineagePage({ urn, hops }: { urn: string; hops: number }) {
  const [graph, setGraph] = useState<LineageGraph>(emptyGraph)
  const [drawn, setDrawn] = useState<{ nodes: Node[]; edges: Edge[] }>({ nodes: [], edges: [] })
  const [hidden, setHidden] = useState<Hidden>(nothingHidden)
  const shown = useMemo(() => visibleGraph(graph, urn, hidden), [graph, urn, hidden])
  const facets = useMemo(() => lineageFacets(graph), [graph])
  const [columns, setColumns] = useState(false)
  const columnEdges = useColumnEdges(shown, columns)
  const flowEdges = useMemo(() => {
    const drawnIds = new Set(drawn.nodes.map((n) => n.id))
    const extra = columnEdges.edges.filter((e) => drawnIds.has(e.source) && drawnIds.has(e.target))
    return [...drawn.edges, ...extra]
  }, [drawn, columnEdges.edges])
  const start = useApi(`lineage:${urn}:${hops}`, async () => {
    performance.clearMarks()
    performance.clearMeasures()
    performance.mark('lineage:start')
    const root = await graphql<{ entity: EntityDetail | null }>(ENTITY, { urn })
    if (!root.entity) throw new Error(`No entity ${urn}.`)
    return explore(root.entity, hops)
  })
  useEffect(() => {
    if (!start.data) return
    performance.mark('lineage:data')
    setGraph(start.data)
  }, [start.data])
  // Timings of the first drawing of a loaded graph, for the 1,000-node measurement.
  useEffect(() => {
    if (drawn.nodes.length === 0 || performance.getEntriesByName('lineage:drawn').length > 0) return
    if (performance.getEntriesByName('lineage:data').length === 0) return
    requestAnimationFrame(() => {
      performance.mark('lineage:drawn')
      performance.measure('lineage:fetch', 'lineage:start', 'lineage:data')
      performance.measure('lineage:layout', 'lineage:layout-start', 'lineage:layout-end')
      performance.measure('lineage:render', 'lineage:data', 'lineage:drawn')
    })
  }, [drawn])
  useEffect(() => {
    let live = true
    const edges = [...shown.edges].map((k) => {
      const [from = '', to = ''] = k.split('\n')
      return { from, to }
    })
    if (shown.nodes.size === 0) return
    performance.mark('lineage:layout-start')
    layout([...shown.nodes.keys()], edges).then((positions) => {
      if (!live) return
      performance.mark('lineage:layout-end')
      setDrawn({
        nodes: [...shown.nodes.values()].map((e) => ({
          id: e.urn,
          position: positions.get(e.urn) ?? { x: 0, y: 0 },
          sourcePosition: Position.Right,
          targetPosition: Position.Left,
          data: { label: <NodeLabel entity={e} open={shown.expanded.has(e.urn)} /> },
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
  }, [shown, urn])
  const root = graph.nodes.get(urn)
  return (
    <section className="lineage">
      <div className="lineage-toolbar">
        <Link href={routes.entity(urn)}>← {root ? displayName(root) : urn}</Link>
        <label>
          Hops{' '}
          <select value={hops} onChange={(e) => navigate(routes.lineage(urn, Number(e.target.value)))}>
            {HOP_CHOICES.map((h) => (
              <option key={h} value={h}>
                {hopLabel(h)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={columns} onChange={(e) => setColumns(e.target.checked)} /> Column
          lineage
        </label>
        {columns && (
          <span className="muted" data-testid="column-edges">
            {columnEdges.loading ? 'reading column lineage…' : `${columnEdges.edges.length} column edges`}
          </span>
        )}
        <span className="muted" data-testid="lineage-size">
          {graph.nodes.size} entities, {graph.edges.size} edges
        </span>
        {shown.nodes.size < graph.nodes.size && (
          <span className="muted" data-testid="lineage-hidden">
            {graph.nodes.size - shown.nodes.size} hidden by the filters
          </span>
        )}
        {graph.partial && (
          <span className="error" data-testid="lineage-partial">
            Partial: a bound of the lineage walk cut it short.
          </span>
        )}
        <span className="muted">click a node to expand it, double-click to open it</span>
      </div>
      <LineageFilters
        types={facets.types}
        platforms={facets.platforms}
        hidden={hidden}
        onChange={setHidden}
      />
      {start.loading && <p className="muted">Loading…</p>}
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
          edges={flowEdges}
          fitView
          fitViewOptions={{ maxZoom: 1 }}
          minZoom={0.02}
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
