/**
 * `npm run bench -- scale`: issue 14's million-dataset benchmark. BENCH_ENTITIES synthetic
 * datasets (default 1,000,000 × BENCH_SCALE; 7 aspect rows each with DataHub's default aspects,
 * about 3 upstream edges each forming a DAG; see `scale-data.ts`) are loaded through the bulk
 * path, `catalog import`. `npm start`'s bundle is then run on the data dir and measured over
 * HTTP with sequential requests: search (1, 2, 3 words with the default facets, exact
 * `field:value`, autocomplete), `entitiesV2`, `/relationships`, getLineage 1/3/5 hops; then
 * restart time, resident memory and disk. Every figure is printed in one table beside its
 * baseline from the same run, with the ratio and the target. BENCH_SCALE_DIR keeps the
 * data there and reuses it on the next run (the load is skipped); BENCH_SAMPLES sets the timed
 * requests per figure (default 200; reads 5× as many). BENCH_SCALE_ONLY=lineage (with
 * BENCH_SCALE_DIR) runs only the getLineage figures (see `lineage-scale-run.ts`).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fmt } from './lib.js'
import { lineageOnly } from './lineage-scale-run.js'
import { graphRows } from './scale-graph.js'
import { send } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { loadRow, loadScaleData } from './scale-load.js'
import { searchBody, searchRows } from './scale-search.js'
import { catalogRss, diskRows, type Resident, restartRow, rssRow, startCatalog } from './scale-system.js'
import { type Row, renderTable } from './scale-table.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const N = Number(process.env.BENCH_ENTITIES ?? Math.max(1000, Math.round(1_000_000 * SCALE)))
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200)
const RESTARTS = 3

/** The reads the empty catalog gets before its RSS is taken: a few of each kind the loaded one got. */
async function sameReads(url: string): Promise<void> {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)'
  const enc = encodeURIComponent(urn)
  for (let i = 0; i < 20; i++) {
    await send(`${url}/entitiesV2/${enc}`)
    await send(`${url}/relationships?direction=INCOMING&urn=${enc}&types=List(DownstreamOf)`)
    await send(`${url}/relationships?action=getLineage`, { urn, direction: 'UPSTREAM', maxHops: 5 })
  }
  for (const kind of scaleKinds)
    for (const input of kind.inputs)
      await send(`${url}/entities?action=${kind.action}`, searchBody(kind, input))
}

export async function scaleBench(): Promise<string[]> {
  const lines: string[] = []
  const say = (text: string) => {
    process.stdout.write(`${text}\n`)
    lines.push(text)
  }
  const keep = process.env.BENCH_SCALE_DIR
  // BENCH_SCALE_ONLY=lineage: the getLineage figures alone, on a kept data dir (lineage-scale-run.ts).
  if (process.env.BENCH_SCALE_ONLY === 'lineage' && keep) {
    await lineageOnly(keep, N, SAMPLES, say)
    return lines
  }
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'bench-scale-'))
  mkdirSync(dir, { recursive: true })
  const emptyDir = mkdtempSync(join(tmpdir(), 'bench-scale-empty-'))
  try {
    say(`scale benchmark: ${fmt(N)} datasets, ${SAMPLES} sequential requests per figure`)
    const loaded = await loadScaleData(dir, N, say)
    if (!loaded.reused)
      say(
        `load: ${fmt(loaded.importSeconds, 1)} s = ${fmt(loaded.aspectRows / loaded.importSeconds)} aspect rows/s (search documents ${fmt(loaded.indexSeconds, 1)} s of it)`,
      )
    const rows: Row[] = [loadRow(loaded), ...diskRows(loaded, say)]
    const restart = await restartRow(loaded.dataDir, emptyDir, RESTARTS, say)
    const catalog = await startCatalog(loaded.dataDir)
    const pid = catalog.child.pid as number
    let loadedRss: Resident
    try {
      rows.push(...(await searchRows(catalog.url, pid, join(loaded.dataDir, 'search.db'), SAMPLES, say)))
      rows.push(...(await graphRows(catalog.url, pid, join(loaded.dataDir, 'metadata.db'), N, SAMPLES, say)))
      loadedRss = catalogRss(catalog)
    } finally {
      await catalog.stop()
    }
    const empty = await startCatalog(emptyDir)
    let emptyRss: Resident
    try {
      await sameReads(empty.url)
      emptyRss = catalogRss(empty)
    } finally {
      await empty.stop()
    }
    rows.push(restart, rssRow(loadedRss, emptyRss))
    say('')
    for (const row of renderTable(rows)) say(row)
  } finally {
    rmSync(emptyDir, { recursive: true, force: true })
    if (!keep) rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
