import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** DataHub's example files, vendored in the repository (see `test/fixtures/datahub/README.md`). */
export const EXAMPLES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'datahub')

/** DataHub's golden ingestion output, one file per source (listed in `golden/NOTICE.md`). */
export const GOLDEN_DIR = join(EXAMPLES_DIR, 'golden')

export const EXAMPLE_FILES = {
  bootstrap: 'metadata-ingestion_examples_mce_files_bootstrap_mce.json',
  demoProfiles: 'metadata-ingestion_examples_mce_files_demo-profiles.json',
  feast: 'metadata-ingestion_tests_integration_feast_feast_repository_mces_golden.json',
  sagemaker: 'metadata-ingestion_tests_unit_sagemaker_sagemaker_mces_golden.json',
  bigqueryUsages: 'smoke-test_test_resources_bigquery_usages_golden.json',
  sampleBq: 'smoke-test_sample_bq_data.json',
  browse: 'smoke-test_tests_browse_data.json',
  deleteCli: 'smoke-test_tests_delete_cli_test_data.json',
  deprecation: 'smoke-test_tests_deprecation_data.json',
  tagsAndTerms: 'smoke-test_tests_tags_and_terms_data.json',
} as const

export type ExampleName = keyof typeof EXAMPLE_FILES

/** One REST call that ingests one example record, as DataHub's Python REST emitter sends it. */
export interface IngestCall {
  readonly url: '/entities?action=ingest' | '/aspects?action=ingestProposal'
  readonly body: Record<string, unknown>
  readonly urn: string
}

/** The records of an example file. */
export function loadExample(name: ExampleName): Array<Record<string, unknown>> {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, EXAMPLE_FILES[name]), 'utf8')) as Array<
    Record<string, unknown>
  >
}

/**
 * The Python client's `pre_json_transform`: `com.linkedin.pegasus2avro.` becomes
 * `com.linkedin.` in keys, and `None` members are dropped.
 */
export function preJsonTransform(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(preJsonTransform)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue
    out[k.replace('com.linkedin.pegasus2avro.', 'com.linkedin.')] = preJsonTransform(v)
  }
  return out
}

/** The call that ingests a record: MCEs through `/entities?action=ingest`, MCPs through `ingestProposal`. */
export function toIngestCall(record: Record<string, unknown>): IngestCall {
  const r = preJsonTransform(record) as Record<string, unknown>
  if (r.proposedSnapshot) {
    const snapshot = r.proposedSnapshot as Record<string, { urn: string }>
    const urn = (Object.values(snapshot)[0] as { urn: string }).urn
    return {
      url: '/entities?action=ingest',
      body: {
        entity: { value: snapshot },
        ...(r.systemMetadata ? { systemMetadata: r.systemMetadata } : {}),
      },
      urn,
    }
  }
  const aspect = r.aspect as { json?: unknown; value?: string; contentType?: string }
  const value = aspect.value ?? JSON.stringify(aspect.json)
  const proposal: Record<string, unknown> = {
    entityType: r.entityType,
    entityUrn: r.entityUrn,
    changeType: r.changeType,
    aspectName: r.aspectName,
    aspect: { value, contentType: aspect.contentType ?? 'application/json' },
  }
  if (r.systemMetadata) proposal.systemMetadata = r.systemMetadata
  return {
    url: '/aspects?action=ingestProposal',
    body: { proposal, async: 'false' },
    urn: r.entityUrn as string,
  }
}
