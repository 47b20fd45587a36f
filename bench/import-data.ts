import { execFileSync } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../test/helpers/spawn.js'

/**
 * The import benchmarks' datasets: 3 aspects each (properties, a 5-column schema, up to 3
 * upstreams among the datasets before it), 7 aspect rows with DataHub's 4 default aspects.
 */

export const STAMP = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

export const urnOf = (i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,bench_db.schema_${i % 97}.table_${i},PROD)`

/** The aspects of dataset `i`, by name. */
export function datasetAspects(i: number): Record<string, unknown> {
  return {
    datasetProperties: { name: `table_${i}`, description: `orders of region ${i % 50}, refreshed daily` },
    schemaMetadata: {
      schemaName: `table_${i}`,
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: ['id', 'customer_id', 'amount', 'created_at', 'status'].map((f) => ({
        fieldPath: f,
        nativeDataType: 'varchar',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
      })),
    },
    upstreamLineage: {
      upstreams: [1, 2, 3]
        .filter((d) => i - d >= 0)
        .map((d) => ({ dataset: urnOf(i - d), type: 'TRANSFORMED', auditStamp: STAMP })),
    },
  }
}

/** The MCPs of dataset `i`, as a DataHub file sink writes them. */
export function datasetProposals(i: number): Array<Record<string, unknown>> {
  return Object.entries(datasetAspects(i)).map(([aspectName, value]) => ({
    entityType: 'dataset',
    entityUrn: urnOf(i),
    changeType: 'UPSERT',
    aspectName,
    aspect: { json: value, contentType: 'application/json' },
    systemMetadata: { lastObserved: STAMP.time, runId: 'bench-import' },
  }))
}

/** Writes datasets 0 to n - 1 as JSON lines of MCPs. */
export async function writeProposalLines(file: string, n: number): Promise<void> {
  const out = createWriteStream(file)
  for (let i = 0; i < n; i++) {
    const text = `${datasetProposals(i)
      .map((p) => JSON.stringify(p))
      .join('\n')}\n`
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()))
  }
  await new Promise<void>((r) => out.end(r))
}

/** Runs `catalog import <input>` on `dataDir` in a child process; returns what it printed. */
export function runCatalogImport(input: string, dataDir: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'apps/cli/bin/catalog.mjs'), 'import', input], {
    cwd: ROOT,
    env: { ...process.env, CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  })
}
