/** ML feature, primary key and feature table aspects (`com.linkedin.ml.metadata.*`), and the ML editable aspects. */
import { Type } from '@sinclair/typebox'
import { Enum, Opt, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import {
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  DESCRIPTION_SEARCH,
  EDITED_DESCRIPTION_SEARCH,
  VersionTag,
} from './records.js'

/** `com.linkedin.common.MLFeatureDataType` symbols. */
export const ML_FEATURE_DATA_TYPES = [
  'USELESS',
  'NOMINAL',
  'ORDINAL',
  'BINARY',
  'COUNT',
  'TIME',
  'INTERVAL',
  'IMAGE',
  'VIDEO',
  'AUDIO',
  'TEXT',
  'MAP',
  'SEQUENCE',
  'SET',
  'CONTINUOUS',
  'BYTE',
  'UNKNOWN',
]

const derivedFrom = {
  path: 'sources/*',
  name: 'DerivedFrom',
  entityTypes: ['dataset'],
  isLineage: true,
} as const

const mlFeatureProperties: AspectSpec = {
  name: 'mlFeatureProperties',
  record: 'com.linkedin.ml.metadata.MLFeatureProperties',
  schema: Type.Object({
    ...customProperties,
    description: Opt(Type.String()),
    dataType: Opt(Enum(ML_FEATURE_DATA_TYPES)),
    version: Opt(VersionTag),
    sources: Opt(Type.Array(UrnString())),
  }),
  searchable: [...CUSTOM_PROPERTIES_SEARCH, DESCRIPTION_SEARCH],
  relationships: [derivedFrom],
}

const mlPrimaryKeyProperties: AspectSpec = {
  name: 'mlPrimaryKeyProperties',
  record: 'com.linkedin.ml.metadata.MLPrimaryKeyProperties',
  schema: Type.Object({
    ...customProperties,
    description: Opt(Type.String()),
    dataType: Opt(Enum(ML_FEATURE_DATA_TYPES)),
    version: Opt(VersionTag),
    sources: Type.Array(UrnString()),
  }),
  searchable: [...CUSTOM_PROPERTIES_SEARCH, DESCRIPTION_SEARCH],
  relationships: [derivedFrom],
}

const mlFeatureTableProperties: AspectSpec = {
  name: 'mlFeatureTableProperties',
  record: 'com.linkedin.ml.metadata.MLFeatureTableProperties',
  schema: Type.Object({
    ...customProperties,
    description: Opt(Type.String()),
    mlFeatures: Opt(Type.Array(UrnString())),
    mlPrimaryKeys: Opt(Type.Array(UrnString())),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    DESCRIPTION_SEARCH,
    { path: 'mlFeatures/*', fieldName: 'features', type: 'URN' },
    { path: 'mlPrimaryKeys/*', fieldName: 'primaryKeys', type: 'URN' },
  ],
  relationships: [
    { path: 'mlFeatures/*', name: 'Contains', entityTypes: ['mlFeature'] },
    { path: 'mlPrimaryKeys/*', name: 'KeyedBy', entityTypes: ['mlPrimaryKey'] },
  ],
}

/** `Editable*Properties`: a UI-edited description, indexed as `editedDescription`. */
const editable = (name: string, record: string): AspectSpec => ({
  name,
  record: `com.linkedin.ml.metadata.${record}`,
  schema: Type.Object({ description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
})

export const ML_ASPECTS: readonly AspectSpec[] = [
  mlFeatureProperties,
  mlPrimaryKeyProperties,
  mlFeatureTableProperties,
  editable('editableMlFeatureProperties', 'EditableMLFeatureProperties'),
  editable('editableMlPrimaryKeyProperties', 'EditableMLPrimaryKeyProperties'),
  editable('editableMlFeatureTableProperties', 'EditableMLFeatureTableProperties'),
  editable('editableMlModelProperties', 'EditableMLModelProperties'),
  editable('editableMlModelGroupProperties', 'EditableMLModelGroupProperties'),
]
