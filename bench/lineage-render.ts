/**
 * `node --import tsx bench/lineage-render.ts [nodes]`: the time the web UI's lineage explorer
 * takes to draw a lineage graph of `nodes` entities (default 1,000) in headless chromium.
 * It starts the one-process catalog in a temp dir, ingests a lineage tree through the API
 * (a root dataset, 9 downstreams, 81 below them, the rest one hop further: 3 hops), opens
 * `/entity/lineage?urn=<root>&hops=3` and reports the page's own timings: fetching the walk
 * (`searchAcrossLineage` both ways), the ELK layout, and data-to-drawn, beside the wall time
 * from navigation to every node in the DOM.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { startApp } from '../test/helpers/spawn.js'

const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,render.${name},PROD)`

/** The tree's URNs and upstream of each, breadth first: 1 root, 9, 81, then the rest (3 hops). */
export function lineageTree(nodes: number): { root: string; upstreamOf: Map<string, string> } {
  const root = datasetUrn('root')
  const upstreamOf = new Map<string, string>()
  const levels: string[][] = [[root]]
  let made = 1
  for (const size of [9, 81, Number.POSITIVE_INFINITY]) {
    const parents = levels.at(-1) ?? []
    const level: string[] = []
    for (let i = 0; i < size && made < nodes; i++, made++) {
      const urn = datasetUrn(`l${levels.length}_${i}`)
      upstreamOf.set(urn, parents[i % parents.length] ?? root)
      level.push(urn)
    }
    levels.push(level)
  }
  return { root, upstreamOf }
}

/** Ingests the tree's `upstreamLineage` aspects through `ingestProposalBatch`, 100 at a time. */
export async function ingestLineageTree(url: string, token: string, nodes: number): Promise<string> {
  const { root, upstreamOf } = lineageTree(nodes)
  const proposals = [
    {
      entityType: 'dataset',
      entityUrn: root,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { contentType: 'application/json', value: JSON.stringify({ removed: false }) },
    },
    ...[...upstreamOf].map(([urn, up]) => ({
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'upstreamLineage',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({
          upstreams: [
            { dataset: up, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:bench' } },
          ],
        }),
      },
    })),
  ]
  for (let i = 0; i < proposals.length; i += 100) {
    const res = await fetch(`${url}/aspects?action=ingestProposalBatch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ proposals: proposals.slice(i, i + 100) }),
    })
    if (!res.ok) throw new Error(`ingestProposalBatch: ${res.status} ${await res.text()}`)
  }
  return root
}

export interface RenderTimings {
  readonly nodes: number
  readonly edges: number
  /** Navigation to every node in the DOM, as the test's clock sees it. */
  readonly wallMs: number
  /** The page's own measures: the walk's GraphQL calls, the ELK layout, data to drawn. */
  readonly fetchMs: number
  readonly layoutMs: number
  readonly renderMs: number
}

/** Opens the lineage view of `root` at `hops` and waits until `nodes` nodes are drawn. */
export async function measureLineageRender(
  page: Page,
  url: string,
  root: string,
  nodes: number,
): Promise<RenderTimings> {
  const started = Date.now()
  await page.goto(`${url}/entity/lineage?urn=${encodeURIComponent(root)}&hops=3`)
  await page.waitForFunction(`document.querySelectorAll('.react-flow__node').length >= ${nodes}`, undefined, {
    timeout: 120_000,
    polling: 50,
  })
  const wallMs = Date.now() - started
  await page.waitForFunction(() => performance.getEntriesByName('lineage:render').length > 0)
  const measures = await page.evaluate(() =>
    Object.fromEntries(performance.getEntriesByType('measure').map((m) => [m.name, Math.round(m.duration)])),
  )
  return {
    nodes: await page.locator('.react-flow__node').count(),
    edges: await page.locator('.react-flow__edge').count(),
    wallMs,
    fetchMs: measures['lineage:fetch'] ?? -1,
    layoutMs: measures['lineage:layout'] ?? -1,
    renderMs: measures['lineage:render'] ?? -1,
  }
}

async function main(): Promise<void> {
  const nodes = Number(process.argv[2] ?? 1000)
  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
  if (!executablePath) throw new Error('chromium is not installed (apt-get install -y chromium)')
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lineage-render-'))
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'on',
  })
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  })
  try {
    const token = readFileSync(join(dir, 'admin.token'), 'utf8').trim()
    const root = await ingestLineageTree(app.url, token, nodes)
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.addInitScript({ content: `sessionStorage.setItem('catalog.token', ${JSON.stringify(token)})` })
    for (const run of [1, 2, 3]) {
      const t = await measureLineageRender(page, app.url, root, nodes)
      process.stdout.write(
        `run ${run}: ${t.nodes} nodes, ${t.edges} edges: navigation to drawn ${t.wallMs} ms ` +
          `(walk fetched in ${t.fetchMs} ms, ELK layout ${t.layoutMs} ms, data to drawn ${t.renderMs} ms)\n`,
      )
    }
  } finally {
    await browser.close()
    await app.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
