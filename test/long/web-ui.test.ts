import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSchema, parse, validate } from 'graphql'
import { chromium } from 'playwright-core'
import t, { type Test } from 'tap'
import * as operations from '../../apps/web/src/api/queries.js'
import { CHROMIUM, post } from '../e2e/web-ui-browser.js'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { ROOT, startApp, startMetadataBehindGateway } from '../helpers/spawn.js'

/**
 * The web UI in a real browser (Debian's chromium) against the one-process catalog: login,
 * search, a dataset's schema and version diff, its lineage graph, and a refused token.
 * Set WEB_UI_SCREENSHOT=<file> to keep a screenshot of the dataset page.
 */

const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'

t.test(
  'web UI in a browser',
  { skip: CHROMIUM ? false : 'chromium is not installed (apt-get install -y chromium)' },
  async (t) => {
    t.ok(existsSync(join(ROOT, 'apps/web/dist/index.html')), 'the web UI is built (npm run build:web)')
    const dir = mkdtempSync(join(tmpdir(), 'catalog-web-ui-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const app = await startApp('apps/gateway/src/all-in-one.ts', {
      PORT: '0',
      CATALOG_DATA_DIR: dir,
      CATALOG_AUTH: 'on',
    })
    t.teardown(() => app.stop())
    const token = readFileSync(join(dir, 'admin.token'), 'utf8').trim()
    for (const record of loadExample('bootstrap')) {
      const call = toIngestCall(record)
      await post(app.url, token, call.url, call.body)
    }
    // A second version of one aspect, for the version diff.
    await post(app.url, token, '/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'dataset',
        entityUrn: KAFKA,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: {
          contentType: 'application/json',
          value: JSON.stringify({
            name: 'SampleKafkaDataset',
            description: 'Second version of the properties',
          }),
        },
      },
    })

    const page0 = await fetch(`${app.url}/`)
    t.equal(page0.status, 200, 'the page is public')
    t.match(page0.headers.get('content-type'), /text\/html/)
    t.equal(
      (await fetch(`${app.url}/api/graphql`, { method: 'POST' })).status,
      401,
      'the API still needs a token',
    )

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    })
    t.teardown(() => browser.close())
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
    const external: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(app.url)) external.push(r.url())
    })

    await t.test('a bad token is refused with a clear message', async (t) => {
      await page.goto(`${app.url}/search?q=sample`)
      await page.waitForURL(/\/login\?next=/)
      await page.fill('#token', 'not-a-token')
      await page.click('button[type=submit]')
      const alert = page.getByRole('alert')
      await alert.waitFor()
      t.match(await alert.textContent(), /refused this token: it is invalid, expired or revoked/)
      t.match(page.url(), /\/login/, 'still on the login page')
    })

    await t.test('log in, search, facets and autocomplete', async (t) => {
      await page.fill('#token', token)
      await page.click('button[type=submit]')
      await page.waitForURL(/\/search\?q=sample/, { timeout: 10_000 })
      await page.getByTestId('result-count').waitFor()
      t.match(await page.getByTestId('result-count').textContent(), /^\d+ results? for “sample”/)
      const names = await page.locator('.result-name').allTextContents()
      t.ok(names.includes('SampleKafkaDataset'), `results list the datasets: ${names.join(', ')}`)
      t.ok(await page.getByText('Platform', { exact: true }).isVisible(), 'a platform facet')
      // Narrow by the Kafka platform: the URL keeps the filter.
      const facet = page.locator('.facets label', { hasText: 'Kafka' })
      const count = await facet.locator('.count').textContent()
      await facet.locator('input').check()
      await page.waitForURL(/f=platform%3Aurn%3Ali%3AdataPlatform%3Akafka/)
      await page
        .getByTestId('result-count')
        .filter({ hasText: new RegExp(`^${count} results? for`) })
        .waitFor()
      const kafka = await page.locator('.result-name').allTextContents()
      t.ok(
        kafka.length > 0 && kafka.every((n) => /kafka/i.test(n)),
        `only Kafka results: ${kafka.join(', ')}`,
      )
      await page.fill('input[type=search]', 'SampleHd')
      await page.locator('.suggestions li').first().waitFor()
      t.match(await page.locator('.suggestions').textContent(), /SampleHdfsDataset/, 'autocomplete suggests')
      await page.keyboard.press('Escape')
    })

    await t.test('a dataset: schema, then a version diff', async (t) => {
      await page.goto(`${app.url}/search?q=sample`)
      await page.locator('.result-name', { hasText: 'SampleKafkaDataset' }).click()
      await page.waitForURL(/\/entity\?urn=/)
      await page.locator('h1', { hasText: 'SampleKafkaDataset' }).waitFor()
      const schema = page.getByRole('table', { name: 'Schema' })
      await schema.waitFor()
      t.ok((await schema.locator('tbody tr').count()) > 0, 'schema fields are listed')
      t.match(await page.locator('.facts').textContent(), /jdoe/, 'owners are shown')
      await page.getByRole('tab', { name: 'Versions' }).click()
      await page.getByLabel('Aspect').selectOption('datasetProperties')
      const summary = page.getByTestId('diff-summary')
      await summary.filter({ hasText: 'version 1 → latest (0)' }).waitFor()
      t.match(await page.locator('.diff-added').allTextContents(), [/Second version of the properties/])
      t.ok((await page.locator('.diff-removed').count()) > 0, 'lines of version 1 are shown removed')
      if (process.env.WEB_UI_SCREENSHOT) await page.screenshot({ path: process.env.WEB_UI_SCREENSHOT })
    })

    await t.test('the lineage view', async (t) => {
      await page.getByRole('link', { name: 'Lineage' }).click()
      await page.waitForURL(/\/entity\/lineage\?urn=/)
      const graph = page.getByTestId('lineage-graph')
      await graph.locator('.react-flow__node', { hasText: 'SampleHdfsDataset' }).waitFor({ timeout: 15_000 })
      t.ok(
        await graph.locator('.react-flow__node', { hasText: 'SampleKafkaDataset' }).isVisible(),
        'the dataset is in the graph',
      )
      t.equal(await graph.locator('.react-flow__edge').count(), 2, 'edges to the two downstream entities')
      // Clicking a node fetches its own neighbours: the HDFS dataset feeds the Hive one.
      await graph.locator('.react-flow__node', { hasText: 'SampleHdfsDataset' }).click()
      await graph.locator('.react-flow__node', { hasText: 'SampleHiveDataset' }).waitFor({ timeout: 15_000 })
      t.ok((await graph.locator('.react-flow__edge').count()) > 2, 'the graph grew')
    })

    t.same(external, [], 'nothing is fetched from outside the catalog')
  },
)

/** The page, its assets and the API beside them, as the gateway serves them in a given mode. */
async function checkServing(t: Test, url: string): Promise<void> {
  for (const path of [
    '/',
    '/login',
    '/search?q=x',
    `/entity?urn=${encodeURIComponent(KAFKA)}`,
    '/entity/lineage',
    '/browse?type=DATASET&path=prod',
  ]) {
    const res = await fetch(url + path)
    t.equal(res.status, 200, `${path}: the page, without a token`)
    t.match(await res.text(), /<div id="root">/)
  }
  const graphiql = await fetch(`${url}/api/graphiql`)
  t.equal(graphiql.status, 200, 'GraphiQL, without a token')
  t.match(await graphiql.text(), /<title>GraphiQL · Catalog<\/title>/)
  const script = readdirSync(join(ROOT, 'apps/web/dist/assets')).find((f) => /^index-.*\.js$/.test(f))
  const asset = await fetch(`${url}/assets/${script}`)
  t.equal(asset.status, 200, 'the script')
  t.match(asset.headers.get('content-type'), /javascript/)
  t.match(asset.headers.get('cache-control'), /immutable/)
  const missing = await fetch(`${url}/assets/nope.js`)
  t.equal(missing.status, 404)
  t.match(await missing.json(), { status: 404 }, 'a missing asset gets the DataHub 404 body')
  // The API keeps its paths and still needs a token.
  const api = await fetch(`${url}/entities/${encodeURIComponent(KAFKA)}`)
  t.equal(api.status, 401, '/entities/<urn> is the API, not the page')
  t.match(await api.json(), { status: 401 })
  t.equal((await fetch(`${url}/api/graphql`, { method: 'POST' })).status, 401)
  t.equal((await fetch(`${url}/health`)).status, 200)
  const post = await fetch(`${url}/`, { method: 'POST' })
  t.not(post.headers.get('content-type') ?? '', /text\/html/, 'only GET / is the page')
}

t.test('the gateway serves the web UI in one-process and split mode', async (t) => {
  t.ok(existsSync(join(ROOT, 'apps/web/dist/index.html')), 'the web UI is built (npm run build:web)')
  const dir = mkdtempSync(join(tmpdir(), 'catalog-web-ui-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const one = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'on',
  })
  t.teardown(() => one.stop())
  await t.test('one process', (t) => checkServing(t, one.url))
  await one.stop()
  const split = await startMetadataBehindGateway(t, dir, 'on')
  await t.test('split mode', (t) => checkServing(t, split.gateway.url))
})

t.test("the UI's GraphQL operations are valid against DataHub's schema as served", async (t) => {
  const schema = buildSchema(
    readFileSync(join(ROOT, 'apps/gateway/src/graphql/schema/datahub.graphql'), 'utf8'),
  )
  for (const [name, text] of Object.entries(operations)) {
    t.same(
      validate(schema, parse(text)).map((e) => e.message),
      [],
      name,
    )
  }
})
