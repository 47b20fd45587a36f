import { join } from 'node:path'
import t from 'tap'
import { PREBUNDLED_DEPS, ROOT } from './helpers/spawn.js'

/**
 * The end-to-end tests that talk to the catalog only over HTTP, replayed with the three apps
 * as separate processes behind the gateway (metadata service, search service, gateway, on the
 * embedded adapters): every answer must be the same as in one process.
 */
const REPLAYED = [
  'ingest-examples',
  'versions',
  'bad-input',
  'search-browse-autocomplete',
  'relationships',
  'lineage',
  'timeseries',
  'graphql-protocol',
  'graphql-ui-queries',
  'graphql-search-page',
  'graphql-app-shell',
  'api-docs',
  'graphql-browse-v2',
  'delete-by-registry',
  'sdk-calls',
  'authz-split',
  'authz-reads',
]
const FILES: Record<string, string[]> = { 'search-browse-autocomplete': ['browse', 'autocomplete'] }

t.setTimeout(900_000)
for (const name of REPLAYED) {
  for (const file of FILES[name] ?? [name]) {
    t.spawn(
      process.execPath,
      ['--import', 'tsx', '--import', PREBUNDLED_DEPS, join(ROOT, 'test', 'e2e', `${file}.test.ts`)],
      {
        env: { ...process.env, CATALOG_E2E_SPLIT: '1' },
        cwd: ROOT,
        timeout: 300_000,
        name: `split mode: ${file}`,
      },
    )
  }
}
