import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export { type IngestCall, preJsonTransform, toIngestCall } from '@catalog/cli'

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

/** The records of an example file. */
export function loadExample(name: ExampleName): Array<Record<string, unknown>> {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, EXAMPLE_FILES[name]), 'utf8')) as Array<
    Record<string, unknown>
  >
}
