import type { CatalogServer } from '@catalog/http-kit'
import type { Json } from './build.js'
import { gql, ingestAspect } from './mutation-kit.js'

/** Structured property fixtures and calls shared by the structured property GraphQL tests. */

export const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,sp_orders,PROD)'
export const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:hive,sp_missing,PROD)'
export const RETENTION = 'urn:li:structuredProperty:io.acryl.privacy.retentionTime'
export const STRING_TYPE = 'urn:li:dataType:datahub.string'
export const NUMBER_TYPE = 'urn:li:dataType:datahub.number'
export const DATASET_TYPE = 'urn:li:entityType:datahub.dataset'

export const ENTITY = `urn type exists
  definition { qualifiedName displayName description cardinality immutable
    valueType { urn type info { type qualifiedName } }
    entityTypes { urn type info { type qualifiedName } }
    allowedValues { value { ... on NumberValue { numberValue } ... on StringValue { stringValue } } description }
    typeQualifier { allowedTypes { urn } }
    created { time actor { urn } } lastModified { actor { urn } } }
  settings { isHidden showInSearchFilters showInAssetSummary showAsAssetBadge showInColumnsTable }`

export const CREATE = `mutation($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { ${ENTITY} } }`
export const UPDATE = `mutation($input: UpdateStructuredPropertyInput!) { updateStructuredProperty(input: $input) { ${ENTITY} } }`
export const UPSERT = `mutation($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) {
  properties { structuredProperty { urn } values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } associatedUrn } } }`
export const REMOVE = `mutation($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) {
  properties { structuredProperty { urn } } } }`

export const retention = {
  qualifiedName: 'io.acryl.privacy.retentionTime',
  displayName: 'Retention Time',
  description: 'Days to keep',
  valueType: NUMBER_TYPE,
  entityTypes: [DATASET_TYPE],
  allowedValues: [{ numberValue: 30, description: 'a month' }, { numberValue: 90 }],
  settings: { showInSearchFilters: true },
}

/** A property of `valueType` on datasets, created over GraphQL. */
export async function property(
  app: CatalogServer,
  id: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await gql(app, CREATE, {
    input: { qualifiedName: id, valueType: STRING_TYPE, entityTypes: [DATASET_TYPE], ...extra },
  })
  if (!res.data?.createStructuredProperty) throw new Error(JSON.stringify(res.errors))
  return res.data.createStructuredProperty.urn
}

export const upsert = (
  app: CatalogServer,
  asset: string,
  params: Array<[string, Array<Record<string, unknown>>]>,
) =>
  gql(app, UPSERT, {
    input: {
      assetUrn: asset,
      structuredPropertyInputParams: params.map(([urn, values]) => ({ structuredPropertyUrn: urn, values })),
    },
  })

/** The dataset's structured properties over GraphQL: property URN -> values. */
export async function valuesOf(app: CatalogServer): Promise<Record<string, unknown[]>> {
  const res = await gql(
    app,
    `query($u: String!) { dataset(urn: $u) { structuredProperties { properties {
      structuredProperty { urn definition { qualifiedName } }
      values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } } } }`,
    { u: DS },
  )
  const props = res.data.dataset.structuredProperties?.properties ?? []
  return Object.fromEntries(
    props.map((p: { structuredProperty: { urn: string }; values: Array<Record<string, unknown>> }) => [
      p.structuredProperty.urn,
      p.values.map((v) => Object.values(v)[0]),
    ]),
  )
}

/**
 * A DataHub GraphQL error of a non-null mutation field: HTTP 200 (gql checks it), `data` null
 * as a whole, the message and BAD_REQUEST.
 */
export function badRequest(body: Json) {
  const error = body.errors?.[0]
  return {
    message: error?.message,
    code: error?.extensions?.code,
    type: `${error?.extensions?.type}${body.data === null ? '' : ' (data not null)'}`,
  }
}

export const seed = (app: CatalogServer) =>
  ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'sp_orders', customProperties: {} })
