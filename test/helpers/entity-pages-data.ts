import type { CatalogServer } from '@catalog/http-kit'
import type { Test } from 'tap'
import { build, ingestExamples, ingestGolden, ingestRecord, type Json } from './build.js'

/** The example data of the entity-page tests: DataHub's bootstrap and golden files, plus a domain and a data product. */

export const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
export const HDFS = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
export const FLOW = 'urn:li:dataFlow:(airbyte,test-instance.66666666-6666-6666-6666-666666666666,PROD)'
export const JOB = `urn:li:dataJob:(${FLOW},66666666-6666-6666-6666-666666666666_customers)`
export const INSTANCE = 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:airbyte,test-instance)'
export const TRINO_BOOK = 'urn:li:dataset:(urn:li:dataPlatform:trino,postgresqldb.librarydb.book,PROD)'
export const PG_BOOK =
  'urn:li:dataset:(urn:li:dataPlatform:postgres,local_server.postgres.librarydb.book,PROD)'
export const SALES = 'urn:li:domain:sales'
export const PRODUCT = 'urn:li:dataProduct:orders'

/** The `data` of a GraphQL answer; throws on any error. */
export async function gql(app: CatalogServer, query: string, variables: Json = {}): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  const body = JSON.parse(res.body)
  if (res.statusCode !== 200 || body.errors)
    throw new Error(`GraphQL answered ${res.statusCode}: ${res.body}`)
  return body.data
}

/** Upserts one aspect as an MCP. */
export async function ingestAspect(app: CatalogServer, entityUrn: string, aspectName: string, json: Json) {
  const entityType = entityUrn.split(':')[2]
  const record = { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { json } }
  const { res } = await ingestRecord(app, record)
  if (res.statusCode !== 200) throw new Error(`ingest of ${aspectName} failed: ${res.body}`)
}

/** The catalog holding the entity-page example data. */
export async function buildEntityPages(t: Test): Promise<CatalogServer> {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  for (const file of [
    'airbyte__airbyte_mces_golden.json',
    'csv-enricher__csv_enricher_golden.json',
    'trino__trino_mces_golden.json',
    'business-glossary__glossary_events_golden.json',
  ]) {
    await ingestGolden(app, file)
  }
  await ingestAspect(app, SALES, 'domainProperties', {
    name: 'Sales',
    description: 'Everything sold',
    created: { time: 1700000000000, actor: 'urn:li:corpuser:jdoe' },
    parentDomain: 'urn:li:domain:Engineering',
  })
  await ingestAspect(app, 'urn:li:domain:Engineering', 'domainProperties', { name: 'Engineering' })
  await ingestAspect(app, PRODUCT, 'dataProductProperties', {
    name: 'Orders',
    description: 'Order data',
    assets: [{ destinationUrn: HIVE }, { destinationUrn: HDFS }],
  })
  await ingestAspect(app, PRODUCT, 'domains', { domains: [SALES] })

  return app
}
