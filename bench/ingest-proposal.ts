import type { Proposal } from '../apps/metadata-service/src/schemas/ingest.js'

/** The URN of the ingest benchmarks' dataset `i` (97 schemas of one Hive database). */
export const benchUrn = (i: number): string =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,bench_db.schema_${i % 97}.table_${i},PROD)`

/** The `datasetProperties` of dataset `i`, as the JSON text a proposal carries. */
export const benchProperties = (i: number): string =>
  JSON.stringify({
    description: `Table ${i} holds the daily snapshot of orders for region ${i % 13}`,
    customProperties: { owner_team: `team-${i % 17}` },
  })

/** An UPSERT of one aspect of dataset `i` (its `datasetProperties` unless told otherwise). */
export const benchProposal = (i: number, aspectName = 'datasetProperties', value = benchProperties(i)) =>
  ({
    entityType: 'dataset',
    entityUrn: benchUrn(i),
    changeType: 'UPSERT',
    aspectName,
    aspect: { value, contentType: 'application/json' },
  }) satisfies Proposal
