/** Aspects shared by many entity types (`com.linkedin.common.*`, domains, container). */
import { Type } from '@sinclair/typebox'
import { AuditStamp, Enum, Opt, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { attributionSearch, GlobalTags, GlossaryTerms, MetadataAttribution, open } from './records.js'

const OWNERSHIP_TYPES = [
  'CUSTOM',
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'DEVELOPER',
  'DATAOWNER',
  'DELEGATE',
  'PRODUCER',
  'CONSUMER',
  'STAKEHOLDER',
]

const OWNERSHIP_SOURCE_TYPES = [
  'AUDIT',
  'DATABASE',
  'FILE_SYSTEM',
  'ISSUE_TRACKING_SYSTEM',
  'MANUAL',
  'SERVICE',
  'SOURCE_CONTROL',
  'OTHER',
]

/** `com.linkedin.common.Owner`. */
export const Owner = Type.Object({
  owner: UrnString(),
  type: Enum(OWNERSHIP_TYPES),
  typeUrn: Opt(UrnString()),
  source: Opt(Type.Object({ type: Enum(OWNERSHIP_SOURCE_TYPES), url: Opt(Type.String()) })),
  attribution: Opt(MetadataAttribution),
})

const ownership: AspectSpec = {
  name: 'ownership',
  record: 'com.linkedin.common.Ownership',
  schema: Type.Object({
    owners: Type.Array(Owner),
    ownerTypes: Opt(Type.Record(Type.String(), Type.Array(UrnString()))),
    lastModified: Opt(AuditStamp),
  }),
  searchable: [
    {
      path: 'owners/*/owner',
      fieldName: 'owners',
      type: 'URN',
      addToFilters: true,
      filterName: 'Owned By',
      hasValuesFieldName: 'hasOwners',
      queryByDefault: false,
    },
    ...attributionSearch('owners/*/attribution', 'ownerAttribution'),
  ],
  relationships: [
    { path: 'owners/*/owner', name: 'OwnedBy', entityTypes: ['corpuser', 'corpGroup'] },
    { path: 'owners/*/typeUrn', name: 'ownershipType', entityTypes: ['ownershipType'] },
  ],
}

const status: AspectSpec = {
  name: 'status',
  record: 'com.linkedin.common.Status',
  schema: Type.Object({ removed: Opt(Type.Boolean()) }),
  searchable: [{ path: 'removed', fieldName: 'removed', type: 'BOOLEAN' }],
}

const globalTags: AspectSpec = {
  name: 'globalTags',
  record: 'com.linkedin.common.GlobalTags',
  schema: GlobalTags,
  searchable: [
    {
      path: 'tags/*/tag',
      fieldName: 'tags',
      type: 'URN',
      boost: 0.5,
      queryByDefault: true,
      addToFilters: true,
      filterName: 'Tagged With',
      hasValuesFieldName: 'hasTags',
    },
    ...attributionSearch('tags/*/attribution', 'tagAttribution'),
  ],
  relationships: [{ path: 'tags/*/tag', name: 'TaggedWith', entityTypes: ['tag'] }],
}

const glossaryTerms: AspectSpec = {
  name: 'glossaryTerms',
  record: 'com.linkedin.common.GlossaryTerms',
  schema: GlossaryTerms,
  searchable: [
    {
      path: 'terms/*/urn',
      fieldName: 'glossaryTerms',
      type: 'URN',
      addToFilters: true,
      filterName: 'Glossary Term',
      hasValuesFieldName: 'hasGlossaryTerms',
    },
    ...attributionSearch('terms/*/attribution', 'termAttribution'),
  ],
  relationships: [{ path: 'terms/*/urn', name: 'TermedWith', entityTypes: ['glossaryTerm'] }],
}

const institutionalMemory: AspectSpec = {
  name: 'institutionalMemory',
  record: 'com.linkedin.common.InstitutionalMemory',
  schema: Type.Object({
    elements: Type.Array(
      Type.Object({
        url: Type.String(),
        description: Type.String(),
        createStamp: AuditStamp,
        updateStamp: Opt(AuditStamp),
        settings: Opt(Type.Object({ showInAssetPreview: Opt(Type.Boolean()) })),
      }),
    ),
  }),
}

const deprecation: AspectSpec = {
  name: 'deprecation',
  record: 'com.linkedin.common.Deprecation',
  schema: Type.Object({
    deprecated: Type.Boolean(),
    decommissionTime: Opt(Type.Integer()),
    note: Type.String(),
    actor: UrnString(),
    replacement: Opt(UrnString()),
  }),
  searchable: [
    {
      path: 'deprecated',
      fieldName: 'deprecated',
      type: 'BOOLEAN',
      addToFilters: true,
      filterName: 'Deprecated',
    },
  ],
}

const browsePaths: AspectSpec = {
  name: 'browsePaths',
  record: 'com.linkedin.common.BrowsePaths',
  schema: Type.Object({ paths: Type.Array(Type.String()) }),
  searchable: [{ path: 'paths/*', fieldName: 'browsePaths', type: 'BROWSE_PATH' }],
}

/** DataHub indexes `path/*\/id` as `browsePathV2` (BROWSE_PATH_V2), a field type this registry has no name for. */
const browsePathsV2: AspectSpec = {
  name: 'browsePathsV2',
  record: 'com.linkedin.common.BrowsePathsV2',
  schema: Type.Object({
    path: Type.Array(Type.Object({ id: Type.String(), urn: Opt(UrnString()) })),
  }),
}

const dataPlatformInstance: AspectSpec = {
  name: 'dataPlatformInstance',
  record: 'com.linkedin.common.DataPlatformInstance',
  schema: Type.Object({ platform: UrnString(), instance: Opt(UrnString()) }),
  searchable: [
    { path: 'platform', fieldName: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
    {
      path: 'instance',
      fieldName: 'platformInstance',
      type: 'URN',
      addToFilters: true,
      filterName: 'Platform Instance',
    },
  ],
}

const domains: AspectSpec = {
  name: 'domains',
  record: 'com.linkedin.domain.Domains',
  schema: Type.Object({ domains: Type.Array(UrnString()) }),
  searchable: [
    {
      path: 'domains/*',
      fieldName: 'domains',
      type: 'URN',
      hasValuesFieldName: 'hasDomain',
      addToFilters: true,
      filterName: 'Domain',
    },
  ],
  relationships: [{ path: 'domains/*', name: 'AssociatedWith', entityTypes: ['domain'] }],
}

const container: AspectSpec = {
  name: 'container',
  record: 'com.linkedin.container.Container',
  schema: Type.Object({ container: UrnString() }),
  searchable: [
    {
      path: 'container',
      fieldName: 'container',
      type: 'URN',
      addToFilters: true,
      filterName: 'Container',
      hasValuesFieldName: 'hasContainer',
    },
  ],
  relationships: [{ path: 'container', name: 'IsPartOf', entityTypes: ['container'] }],
}

const subTypes: AspectSpec = {
  name: 'subTypes',
  record: 'com.linkedin.common.SubTypes',
  schema: Type.Object({ typeNames: Type.Array(Type.String()) }),
  searchable: [
    {
      path: 'typeNames/*',
      fieldName: 'typeNames',
      type: 'KEYWORD',
      addToFilters: true,
      filterName: 'Sub Type',
      queryByDefault: false,
    },
  ],
}

const siblings: AspectSpec = {
  name: 'siblings',
  record: 'com.linkedin.common.Siblings',
  schema: Type.Object({ siblings: Type.Array(UrnString()), primary: Type.Boolean() }),
  searchable: [{ path: 'siblings/*', fieldName: 'siblings', type: 'URN', queryByDefault: false }],
  relationships: [{ path: 'siblings/*', name: 'SiblingOf', entityTypes: ['dataset'] }],
}

const embed: AspectSpec = {
  name: 'embed',
  record: 'com.linkedin.common.Embed',
  schema: Type.Object({ renderUrl: Opt(Type.String()) }),
}

/** Role associations are modelled by their `urn`; other members are kept. */
const access: AspectSpec = {
  name: 'access',
  record: 'com.linkedin.common.Access',
  schema: Type.Object({ roles: Opt(Type.Array(open({ urn: UrnString() }))) }),
  searchable: [
    {
      path: 'roles/*/urn',
      fieldName: 'roles',
      type: 'URN',
      addToFilters: true,
      filterName: 'Role',
      hasValuesFieldName: 'hasRoles',
    },
  ],
  relationships: [{ path: 'roles/*/urn', name: 'AssociatedWith', entityTypes: ['role'] }],
}

const origin: AspectSpec = {
  name: 'origin',
  record: 'com.linkedin.common.Origin',
  schema: Type.Object({ type: Enum(['NATIVE', 'EXTERNAL']), externalType: Opt(Type.String()) }),
}

export const COMMON_ASPECTS: readonly AspectSpec[] = [
  ownership,
  status,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  deprecation,
  browsePaths,
  browsePathsV2,
  dataPlatformInstance,
  domains,
  container,
  subTypes,
  siblings,
  embed,
  access,
  origin,
]
