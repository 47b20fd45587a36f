import ELK from 'elkjs/lib/elk-api.js'
import workerUrl from 'elkjs/lib/elk-worker.min.js?url'

// The layout runs in a Web Worker (an asset of its own): a large graph never blocks the page.
const elk = new ELK({ workerFactory: () => new Worker(workerUrl) })

export const NODE_WIDTH = 220
export const NODE_HEIGHT = 56
/** Past this many nodes the layered layout trades some crossing reduction for speed. */
const LARGE = 200

/** Left-to-right layered positions (upstream on the left) for the given nodes and edges. */
export async function layout(
  ids: readonly string[],
  edges: readonly { from: string; to: string }[],
): Promise<Map<string, { x: number; y: number }>> {
  const graph = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '24',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
      ...(ids.length > LARGE ? { 'elk.layered.thoroughness': '1' } : {}),
    },
    children: ids.map((id) => ({ id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: edges.map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
  })
  return new Map((graph.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]))
}
