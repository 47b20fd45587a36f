import t from 'tap'
import { ingestLineageTree, measureLineageRender } from '../../bench/lineage-render.js'
import { CHROMIUM, openBrowser, post, startLoadedCatalog } from '../e2e/web-ui-browser.js'

/**
 * The lineage explorer in a real browser: N hops at once (the hop selector, over
 * `searchAcrossLineage` with the degree filter), the partial flag, filters by type and
 * platform, column-level edges, and a 1,000-node graph drawn in full.
 * Set WEB_UI_LINEAGE_SCREENSHOT=<file> to keep a screenshot of the 3-hop graph.
 */

const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'

async function reachedCount(url: string, token: string, urn: string, direction: string): Promise<number> {
  const body = (await post(url, token, '/api/graphql', {
    query: `query($urn: String!) { searchAcrossLineage(input: {urn: $urn, direction: ${direction}, query: "*", count: 1000,
      orFilters: [{and: [{field: "degree", values: ["1", "2", "3+"]}]}]}) { total } }`,
    variables: { urn },
  })) as { data: { searchAcrossLineage: { total: number } } }
  return body.data.searchAcrossLineage.total
}

t.test(
  'lineage explorer: N hops, and 1,000 nodes',
  { skip: CHROMIUM ? false : 'chromium is not installed (apt-get install -y chromium)' },
  async (t) => {
    // Walks stop at 4 hops: the ML features 5 hops below Kafka are cut off, and the UI says so.
    const { app, token } = await startLoadedCatalog(t, ['bootstrap'], { CATALOG_LINEAGE_MAX_HOPS: '4' })
    const { page, external } = await openBrowser(t, app.url, token)

    await t.test('the hop selector walks every hop at once', async (t) => {
      await page.goto(`${app.url}/entity/lineage?urn=${encodeURIComponent(KAFKA)}`)
      const graph = page.getByTestId('lineage-graph')
      await graph.locator('.react-flow__node', { hasText: 'SampleHdfsDataset' }).waitFor({ timeout: 15_000 })
      t.equal(
        await graph.locator('.react-flow__node', { hasText: 'fct_users_deleted' }).count(),
        0,
        'one hop at first',
      )
      await page.getByLabel('Hops').selectOption('3')
      await page.waitForURL(/hops=3/)
      // Four hops down: Kafka → HDFS → Hive → logging_events → fct_users_deleted (and fct_users_created).
      await graph.locator('.react-flow__node', { hasText: 'fct_users_deleted' }).waitFor({ timeout: 15_000 })
      const expected =
        1 +
        (await reachedCount(app.url, token, KAFKA, 'UPSTREAM')) +
        (await reachedCount(app.url, token, KAFKA, 'DOWNSTREAM'))
      t.equal(
        await graph.locator('.react-flow__node').count(),
        expected,
        `every entity the walk reaches (${expected})`,
      )
      t.match(
        await page.getByTestId('lineage-size').textContent(),
        new RegExp(`^${expected} entities, \\d+ edges`),
      )
      t.ok(
        (await graph.locator('.react-flow__edge').count()) >= expected - 1,
        'each reached entity hangs on an edge',
      )
      t.match(
        await page.getByTestId('lineage-partial').textContent(),
        /^Partial: a bound of the lineage walk cut it short/,
        'the partial flag is shown',
      )
      t.equal(
        await graph.locator('.react-flow__node', { hasText: 'number_of_visits' }).count(),
        0,
        'hop 5 is cut',
      )
      if (process.env.WEB_UI_LINEAGE_SCREENSHOT)
        await page.screenshot({ path: process.env.WEB_UI_LINEAGE_SCREENSHOT })
      // The walk gives one path per entity: expanding one draws its other edges.
      const edges = await graph.locator('.react-flow__edge').count()
      await graph.locator('.react-flow__node', { hasText: 'fct_users_deleted' }).click()
      // Expanding adds the node's other edges (how many depends on what else the walk reached).
      await page.waitForFunction(
        ([before, count]) => {
          // Runs in the page: its document, typed here without the DOM library.
          const page = globalThis as unknown as {
            document: { querySelector(selector: string): { textContent: string | null } | null }
          }
          const text = page.document.querySelector('[data-testid="lineage-size"]')?.textContent ?? ''
          const m = /^(\d+) entities, (\d+) edges/.exec(text)
          return m !== null && Number(m[1]) === count && Number(m[2]) > before
        },
        [edges, expected] as const,
      )
      t.pass('edges off the shortest path (fct_users_created → fct_users_deleted) are drawn too')
      // Filters by entity type and platform hide entities and their edges, never the root.
      const charts = await graph.locator('.react-flow__node', { hasText: /Chart · / }).count()
      t.ok(charts > 0, `charts in the graph: ${charts}`)
      const filters = page.getByTestId('lineage-filters')
      await filters.getByRole('checkbox', { name: new RegExp(`^\\s*Chart ${charts}$`) }).uncheck()
      await graph
        .locator('.react-flow__node', { hasText: /Chart · / })
        .first()
        .waitFor({ state: 'detached' })
      t.equal(await graph.locator('.react-flow__node').count(), expected - charts, 'the charts are hidden')
      t.equal(await page.getByTestId('lineage-hidden').textContent(), `${charts} hidden by the filters`)
      await filters.getByRole('checkbox', { name: /^\s*Kafka 1$/ }).uncheck()
      t.equal(
        await graph.locator('.react-flow__node', { hasText: 'SampleKafkaDataset' }).count(),
        1,
        'the root stays',
      )
      await filters.getByRole('checkbox', { name: /^\s*Hive \d+$/ }).uncheck()
      await graph
        .locator('.react-flow__node', { hasText: 'fct_users_deleted' })
        .waitFor({ state: 'detached' })
      t.equal(
        await graph.locator('.react-flow__node', { hasText: /· Hive/ }).count(),
        0,
        'no Hive dataset left',
      )
      await filters.getByRole('checkbox', { name: /^\s*Chart \d+$/ }).check()
      await filters.getByRole('checkbox', { name: /^\s*Hive \d+$/ }).check()
      await graph.locator('.react-flow__node', { hasText: 'fct_users_deleted' }).waitFor()
      // Back to one hop: the URL is the state.
      await page.getByLabel('Hops').selectOption('1')
      await graph
        .locator('.react-flow__node', { hasText: 'fct_users_deleted' })
        .waitFor({ state: 'detached' })
      t.notMatch(page.url(), /hops=/)
    })

    await t.test('column-level edges from fineGrainedLineages', async (t) => {
      const logs = 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)'
      await page.goto(`${app.url}/entity/lineage?urn=${encodeURIComponent(logs)}`)
      const graph = page.getByTestId('lineage-graph')
      await graph.locator('.react-flow__node', { hasText: 'fct_users_created' }).waitFor({ timeout: 15_000 })
      const tableEdges = await graph.locator('.react-flow__edge').count()
      await page.getByLabel('Column lineage').check()
      await page
        .getByTestId('column-edges')
        .filter({ hasText: /^1 column edges$/ })
        .waitFor()
      t.equal(await graph.locator('.react-flow__edge').count(), tableEdges + 1, 'one dashed edge more')
      t.equal(
        await graph.locator('.react-flow__edge.column-edge .react-flow__edge-text').textContent(),
        'event_data → user_name',
        'logging_events.event_data feeds fct_users_created.user_name',
      )
      await page.getByLabel('Column lineage').uncheck()
      await graph.locator('.react-flow__edge.column-edge').waitFor({ state: 'detached' })
    })

    await t.test('a 1,000-node lineage graph is drawn in full', async (t) => {
      const root = await ingestLineageTree(app.url, token, 1000)
      const timings = await measureLineageRender(page, app.url, root, 1000)
      t.equal(timings.nodes, 1000)
      t.equal(timings.edges, 999)
      t.ok(
        timings.layoutMs >= 0 && timings.renderMs >= timings.layoutMs,
        'the page measured its layout and drawing',
      )
      t.comment(
        `1,000 nodes: navigation to drawn ${timings.wallMs} ms (walk ${timings.fetchMs} ms, ELK layout ${timings.layoutMs} ms, data to drawn ${timings.renderMs} ms)`,
      )
    })

    t.same(external, [], 'nothing is fetched from outside the catalog')
  },
)
