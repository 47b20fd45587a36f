/** Glossary and tag aspects (`com.linkedin.glossary.*`, `com.linkedin.tag.*`). */
import { Type } from '@sinclair/typebox'
import { Opt, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { CUSTOM_PROPERTIES_SEARCH, customProperties, nameSearch } from './records.js'

const parentNodeSearch = {
  path: 'parentNode',
  fieldName: 'parentNode',
  type: 'URN',
  hasValuesFieldName: 'hasParentNode',
} as const

const parentNodeRelationship = {
  path: 'parentNode',
  name: 'IsPartOf',
  entityTypes: ['glossaryNode'],
} as const

const glossaryTermInfo: AspectSpec = {
  name: 'glossaryTermInfo',
  record: 'com.linkedin.glossary.GlossaryTermInfo',
  schema: Type.Object({
    ...customProperties,
    id: Opt(Type.String()),
    name: Opt(Type.String()),
    definition: Type.String(),
    parentNode: Opt(UrnString()),
    /** INTERNAL or EXTERNAL. */
    termSource: Type.String(),
    sourceRef: Opt(Type.String()),
    sourceUrl: Opt(Type.String()),
    /** Deprecated. */
    rawSchema: Opt(Type.String()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    { path: 'id', fieldName: 'id', type: 'TEXT_PARTIAL' },
    nameSearch(),
    { path: 'definition', fieldName: 'definition', type: 'TEXT' },
    parentNodeSearch,
    { path: 'termSource', fieldName: 'termSource', type: 'KEYWORD' },
    { path: 'sourceRef', fieldName: 'sourceRef', type: 'KEYWORD' },
  ],
  relationships: [parentNodeRelationship],
}

const relatedTerms = (path: string, fieldName: string, queryByDefault?: boolean) => ({
  path: `${path}/*`,
  fieldName,
  type: 'URN' as const,
  ...(queryByDefault === undefined ? {} : { queryByDefault }),
})

const glossaryRelatedTerms: AspectSpec = {
  name: 'glossaryRelatedTerms',
  record: 'com.linkedin.glossary.GlossaryRelatedTerms',
  schema: Type.Object({
    isRelatedTerms: Opt(Type.Array(UrnString())),
    hasRelatedTerms: Opt(Type.Array(UrnString())),
    values: Opt(Type.Array(UrnString())),
    relatedTerms: Opt(Type.Array(UrnString())),
  }),
  searchable: [
    relatedTerms('isRelatedTerms', 'isRelatedTerms', false),
    relatedTerms('hasRelatedTerms', 'hasRelatedTerms', false),
    relatedTerms('values', 'values'),
    relatedTerms('relatedTerms', 'relatedTerms'),
  ],
  relationships: [
    { path: 'isRelatedTerms/*', name: 'IsA', entityTypes: ['glossaryTerm'] },
    { path: 'hasRelatedTerms/*', name: 'HasA', entityTypes: ['glossaryTerm'] },
    { path: 'values/*', name: 'HasValue', entityTypes: ['glossaryTerm'] },
    { path: 'relatedTerms/*', name: 'IsRelatedTo', entityTypes: ['glossaryTerm'] },
  ],
}

const glossaryNodeInfo: AspectSpec = {
  name: 'glossaryNodeInfo',
  record: 'com.linkedin.glossary.GlossaryNodeInfo',
  schema: Type.Object({
    ...customProperties,
    definition: Type.String(),
    parentNode: Opt(UrnString()),
    name: Opt(Type.String()),
    id: Opt(Type.String()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    { path: 'definition', fieldName: 'definition', type: 'TEXT' },
    parentNodeSearch,
    nameSearch('name', 'displayName'),
    { path: 'id', fieldName: 'id', type: 'TEXT_PARTIAL' },
  ],
  relationships: [parentNodeRelationship],
}

const tagProperties: AspectSpec = {
  name: 'tagProperties',
  record: 'com.linkedin.tag.TagProperties',
  schema: Type.Object({
    name: Type.String(),
    description: Opt(Type.String()),
    /** Hex colour such as `#FFFFFF`. */
    colorHex: Opt(Type.String()),
  }),
  searchable: [nameSearch(), { path: 'description', fieldName: 'description', type: 'TEXT' }],
}

export const GLOSSARY_ASPECTS: readonly AspectSpec[] = [
  glossaryTermInfo,
  glossaryRelatedTerms,
  glossaryNodeInfo,
  tagProperties,
]
