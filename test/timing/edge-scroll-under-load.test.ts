import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import Database from 'better-sqlite3'
import t from 'tap'
import { HEALTH_BOUND_MS, HEALTH_TRIES, max, probeHealth, waitedWithin } from '../helpers/health-probe.js'
import { startCatalog } from '../helpers/spawn.js'

/**
 * The heaviest edge scroll: a relationship type that exists, with a destination type of many
 * entities that no edge of that type reaches. Before it was bounded, it read every source's
 * edges in one pass on the event loop (0.3 to 0.6 s here at 150,000 edges). Now it reads in steps
 * and answers short pages with a scroll id once its time budget is spent, and `/health` keeps
 * answering within 100 ms while such scrolls run back to back.
 */

const DATASETS = 150_000
/** More users than the scan reads as destinations at once, so it goes through the sources. */
const USERS = 6_000

/** The store file of a data dir, written directly: datasets in a lineage chain, some owned by users. */
async function largeGraph(dir: string): Promise<void> {
  const file = join(dir, 'metadata.db')
  await new SqliteMetadataStore({ file, durability: 'normal', writerThread: false }).close()
  const db = new Database(file)
  try {
    db.exec(`BEGIN;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${DATASETS - 1})
      INSERT INTO urns (id, urn)
        SELECT i + 1, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table_' || i || ',PROD)' FROM c;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${USERS - 1})
      INSERT INTO urns (id, urn) SELECT ${DATASETS} + i + 1, 'urn:li:corpuser:user' || i FROM c;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${DATASETS - 1})
      INSERT INTO edge_rows (src, type, dst, aspect)
        SELECT i + 1, 'DownstreamOf', ((i * 7919) % ${DATASETS}) + 1, 'upstreamLineage' FROM c;
      WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${USERS - 1})
      INSERT INTO edge_rows (src, type, dst, aspect) SELECT i * 7 + 1, 'OwnedBy', ${DATASETS} + i + 1, 'ownership' FROM c;
      COMMIT;`)
  } finally {
    db.close()
  }
}

interface ScrollPage {
  readonly scrollId?: string
  readonly results: readonly unknown[]
}

t.test('an edge scroll over a large graph leaves /health under 100 ms', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-edge-scroll-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  const building = performance.now()
  let app: Awaited<ReturnType<typeof startCatalog>>['app']
  try {
    await largeGraph(dir)
    t.comment(`graph of ${DATASETS} edges written in ${(performance.now() - building).toFixed(0)} ms`)
    ;({ app } = await startCatalog(t, 'edge-scroll', { CATALOG_DATA_DIR: dir, CATALOG_DURABILITY: 'normal' }))
  } catch (err) {
    remove()
    throw err
  }
  // Registered after the catalog's own teardown, which stops it first.
  t.teardown(remove)
  const worst =
    '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf&destinationTypes=corpuser&count=10'
  const page = async (scrollId?: string) => {
    const res = await fetch(`${app.url}${worst}${scrollId ? `&scrollId=${scrollId}` : ''}`)
    t.equal(res.status, 200)
    return (await res.json()) as ScrollPage
  }
  const sample = await (await fetch(`${app.url}/openapi/v3/relationship/OwnedBy?count=3`)).json()
  t.equal((sample as ScrollPage).results.length, 3, 'the graph is there')

  /** Whole scrolls back to back for `ms` (one at least) while `/health` is probed; the slowest probe's wait. */
  const measure = async (ms: number) => {
    let scrolling = true
    const started = performance.now()
    const probing = probeHealth(app, () => !scrolling)
    let pages = 0
    let scrolls = 0
    while (performance.now() - started < ms || scrolls < 1) {
      let p = await page()
      pages++
      while (p.scrollId) {
        t.same(p.results, [], 'no DownstreamOf edge reaches a user')
        p = await page(p.scrollId)
        pages++
      }
      t.same(p.results, [], 'no DownstreamOf edge reaches a user')
      scrolls++
    }
    scrolling = false
    const probes = await probing
    const perScroll = (performance.now() - started) / scrolls
    t.ok(probes.length >= 30, `${probes.length} /health probes during ${scrolls} scrolls (${pages} pages)`)
    const waits = waitedWithin(probes, started, performance.now()).sort((a, b) => a - b)
    return { slowest: max(waits), p95: waits[Math.floor(waits.length * 0.95)] ?? 0, perScroll }
  }
  // A probe can wait for the CPU itself on a machine shared with other work: another try then.
  let m = await measure(1_500)
  for (let tries = 1; tries < HEALTH_TRIES && m.slowest >= HEALTH_BOUND_MS; tries++) m = await measure(1_500)
  t.ok(m.p95 < HEALTH_BOUND_MS, `/health p95 ${m.p95.toFixed(1)} ms`)
  t.ok(
    m.slowest < HEALTH_BOUND_MS,
    `slowest /health ${m.slowest.toFixed(1)} ms; one whole scroll took ${m.perScroll.toFixed(0)} ms`,
  )
})
