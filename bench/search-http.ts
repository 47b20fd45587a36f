/**
 * The scale benchmark's search figures alone, on a data dir that is already loaded (e.g. one
 * kept by `BENCH_SCALE_DIR`): starts `npm start`'s bundle on it and prints each kind's p50/p95
 * and server CPU per request beside its raw baseline from the same run (`scale-search.ts`).
 * `node --import tsx bench/search-http.ts <data dir> [<kind name>...]` (`autocomplete`,
 * `1 word`, ...; default every kind); PORT picks the port (default any free one),
 * BENCH_SAMPLES the timed requests per kind (default 200).
 */
import { join } from 'node:path'
import { startBundled } from '../test/helpers/spawn.js'
import { scaleKinds } from './scale-kinds.js'
import { searchRows } from './scale-search.js'
import { renderTable } from './scale-table.js'

const [dataDir, ...names] = process.argv.slice(2)
if (!dataDir) throw new Error('usage: search-http.ts <data dir> [<kind name>...]')
const kinds = names.length > 0 ? scaleKinds.filter((k) => names.includes(k.name)) : scaleKinds
if (kinds.length === 0) throw new Error(`no kind named ${names.join(', ')}`)
const say = (line: string) => process.stdout.write(`${line}\n`)
const catalog = await startBundled(
  'all-in-one',
  {
    PORT: process.env.PORT ?? '0',
    CATALOG_DATA_DIR: dataDir,
    CATALOG_AUTH: 'off',
    CATALOG_LOG_LEVEL: 'info',
  },
  600_000,
)
try {
  const rows = await searchRows(
    catalog.url,
    catalog.child.pid as number,
    join(dataDir, 'search.db'),
    Number(process.env.BENCH_SAMPLES ?? 200),
    say,
    kinds,
  )
  for (const row of renderTable(rows)) say(row)
} finally {
  await catalog.stop()
}
