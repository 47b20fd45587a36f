/**
 * Records shared by several aspects (tag and term associations, owners, versions, lineage)
 * and small helpers for `@Searchable` annotations that many aspects repeat.
 */
import { Type } from '@sinclair/typebox'
import { AnyRecord, AuditStamp, Enum, Opt, open, StringMap, UrnString } from '../schema-kit.js'

export { AnyRecord, open }

import type { SearchableField } from '../types.js'

/** `com.linkedin.common.MetadataAttribution`: who, why and how metadata was applied. */
export const MetadataAttribution = Type.Object({
  time: Type.Integer(),
  actor: UrnString(),
  source: Opt(UrnString()),
  sourceDetail: Opt(StringMap),
})

/** `com.linkedin.common.TagAssociation`. */
export const TagAssociation = Type.Object({
  tag: UrnString(),
  context: Opt(Type.String()),
  attribution: Opt(MetadataAttribution),
})

/** `com.linkedin.common.GlossaryTermAssociation`. */
export const GlossaryTermAssociation = Type.Object({
  urn: UrnString(),
  actor: Opt(UrnString()),
  context: Opt(Type.String()),
  attribution: Opt(MetadataAttribution),
})

/** `com.linkedin.common.GlobalTags` record (also nested in schema fields). */
export const GlobalTags = Type.Object({ tags: Type.Array(TagAssociation) })

/** `com.linkedin.common.GlossaryTerms` record (also nested in schema fields). */
export const GlossaryTerms = Type.Object({
  terms: Type.Array(GlossaryTermAssociation),
  auditStamp: AuditStamp,
})

/** `com.linkedin.common.VersionTag`. */
export const VersionTag = Type.Object({
  versionTag: Opt(Type.String()),
  metadataAttribution: Opt(MetadataAttribution),
})

/** FabricType symbols as an enum string (`env` members). */
export const FabricTypeEnum = Enum([
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'PRD',
  'TST',
  'SIT',
  'SBX',
  'SANDBOX',
])

/** `com.linkedin.common.CustomProperties` members (default `{}`). */
export const customProperties = { customProperties: Opt(StringMap) }

/** `com.linkedin.common.ExternalReference` members. */
export const externalReference = { externalUrl: Opt(Type.String()) }

/** `@Searchable` of `CustomProperties.customProperties` and `ExternalReference.externalUrl`. */
export const CUSTOM_PROPERTIES_SEARCH: readonly SearchableField[] = [
  { path: 'customProperties/*', fieldName: 'customProperties', type: 'TEXT', queryByDefault: true },
]
export const EXTERNAL_URL_SEARCH: readonly SearchableField[] = [
  { path: 'externalUrl', fieldName: 'externalUrl', type: 'KEYWORD', queryByDefault: false },
]

/** `created/time` and `lastModified/time` (TimeStamp members) as `createdAt` / `lastModifiedAt`. */
export const SOURCE_TIMES_SEARCH: readonly SearchableField[] = [
  { path: 'created/time', fieldName: 'createdAt', type: 'DATETIME', queryByDefault: false },
  { path: 'lastModified/time', fieldName: 'lastModifiedAt', type: 'DATETIME', queryByDefault: false },
]

/** `@Searchable` of a `MetadataAttribution` at `prefix` (`tags/*\/attribution`) indexed as `<name>Actors|Sources|Dates`. */
export const attributionSearch = (prefix: string, name: string): SearchableField[] => [
  { path: `${prefix}/actor`, fieldName: `${name}Actors`, type: 'URN', queryByDefault: false },
  { path: `${prefix}/source`, fieldName: `${name}Sources`, type: 'URN', queryByDefault: false },
  { path: `${prefix}/time`, fieldName: `${name}Dates`, type: 'DATETIME', queryByDefault: false },
]

/** A `description` indexed as TEXT with `hasDescription` (most `*Properties` aspects). */
export const DESCRIPTION_SEARCH: SearchableField = {
  path: 'description',
  fieldName: 'description',
  type: 'TEXT',
  hasValuesFieldName: 'hasDescription',
}

/** An edited `description` indexed as `editedDescription` (the `editable*Properties` aspects). */
export const EDITED_DESCRIPTION_SEARCH: SearchableField = {
  path: 'description',
  fieldName: 'editedDescription',
  type: 'TEXT',
}

/** A display name: WORD_GRAM, autocomplete, boost 10. */
export const nameSearch = (path = 'name', fieldName = path): SearchableField => ({
  path,
  fieldName,
  type: 'WORD_GRAM',
  autocomplete: true,
  boost: 10,
})

/** `com.linkedin.dataset.FineGrainedLineage` (datasets and data jobs). */
export const FineGrainedLineage = Type.Object({
  upstreamType: Enum(['FIELD_SET', 'DATASET', 'NONE']),
  upstreams: Opt(Type.Array(UrnString())),
  downstreamType: Enum(['FIELD', 'FIELD_SET']),
  downstreams: Opt(Type.Array(UrnString())),
  transformOperation: Opt(Type.String()),
  confidenceScore: Opt(Type.Number()),
  query: Opt(UrnString()),
})
