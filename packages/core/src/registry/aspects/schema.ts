/** Schema aspects (`com.linkedin.schema.*`). */
import { Type } from '@sinclair/typebox'
import { AuditStamp, ChangeAuditStamps, Opt, Union, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { attributionSearch, GlobalTags, GlossaryTerms } from './records.js'

/** `com.linkedin.schema.SchemaField`. */
export const SchemaField = Type.Object({
  fieldPath: Type.String(),
  /** Deprecated. */
  jsonPath: Opt(Type.String()),
  nullable: Opt(Type.Boolean()),
  description: Opt(Type.String()),
  /** Deprecated. */
  label: Opt(Type.String()),
  created: Opt(AuditStamp),
  lastModified: Opt(AuditStamp),
  /** `{type: {"com.linkedin.schema.StringType": {}}}`; Map/Array/Union types carry members. */
  type: Type.Object({ type: Union('SchemaFieldDataType member, e.g. com.linkedin.schema.StringType') }),
  nativeDataType: Type.String(),
  recursive: Opt(Type.Boolean()),
  globalTags: Opt(GlobalTags),
  glossaryTerms: Opt(GlossaryTerms),
  isPartOfKey: Opt(Type.Boolean()),
  isPartitioningKey: Opt(Type.Boolean()),
  jsonProps: Opt(Type.String()),
})

/** `com.linkedin.schema.ForeignKeyConstraint`. */
const ForeignKeyConstraint = Type.Object({
  name: Type.String(),
  foreignFields: Type.Array(UrnString()),
  sourceFields: Type.Array(UrnString()),
  foreignDataset: UrnString(),
})

/** `com.linkedin.schema.ForeignKeySpec` (deprecated `foreignKeysSpecs` values). */
const ForeignKeySpec = Type.Object({
  foreignKey: Union('DatasetFieldForeignKey or UrnForeignKey'),
})

const schemaMetadata: AspectSpec = {
  name: 'schemaMetadata',
  record: 'com.linkedin.schema.SchemaMetadata',
  schema: Type.Object({
    schemaName: Type.String({ minLength: 1, maxLength: 500 }),
    platform: UrnString(),
    version: Type.Integer(),
    ...ChangeAuditStamps.properties,
    dataset: Opt(UrnString()),
    cluster: Opt(Type.String()),
    hash: Type.String(),
    /** EspressoSchema, OracleDDL, MySqlDDL, PrestoDDL, KafkaSchema, BinaryJsonSchema, OrcSchema, Schemaless, KeyValueSchema, OtherSchema. */
    platformSchema: Union('platform schema keyed by record name, e.g. com.linkedin.schema.KafkaSchema'),
    fields: Type.Array(SchemaField),
    primaryKeys: Opt(Type.Array(Type.String())),
    /** Deprecated: use `foreignKeys`. */
    foreignKeysSpecs: Opt(Type.Record(Type.String(), ForeignKeySpec)),
    foreignKeys: Opt(Type.Array(ForeignKeyConstraint)),
  }),
  searchable: [
    { path: 'fields/*/fieldPath', fieldName: 'fieldPaths', type: 'TEXT', boost: 1, queryByDefault: true },
    { path: 'fields/*/description', fieldName: 'fieldDescriptions', type: 'TEXT', boost: 0.1 },
    { path: 'fields/*/label', fieldName: 'fieldLabels', type: 'TEXT', boost: 0.2 },
    { path: 'fields/*/globalTags/tags/*/tag', fieldName: 'fieldTags', type: 'URN', boost: 0.5 },
    ...attributionSearch('fields/*/globalTags/tags/*/attribution', 'fieldTagAttribution'),
    { path: 'fields/*/glossaryTerms/terms/*/urn', fieldName: 'fieldGlossaryTerms', type: 'URN', boost: 0.5 },
    ...attributionSearch('fields/*/glossaryTerms/terms/*/attribution', 'fieldTermAttribution'),
  ],
  relationships: [
    { path: 'fields/*/globalTags/tags/*/tag', name: 'SchemaFieldTaggedWith', entityTypes: ['tag'] },
    {
      path: 'fields/*/glossaryTerms/terms/*/urn',
      name: 'SchemaFieldWithGlossaryTerm',
      entityTypes: ['glossaryTerm'],
    },
    { path: 'foreignKeys/*/foreignFields/*', name: 'ForeignKeyTo', entityTypes: ['schemaField'] },
    { path: 'foreignKeys/*/foreignDataset', name: 'ForeignKeyToDataset', entityTypes: ['dataset'] },
  ],
}

const editableSchemaMetadata: AspectSpec = {
  name: 'editableSchemaMetadata',
  record: 'com.linkedin.schema.EditableSchemaMetadata',
  schema: Type.Object({
    ...ChangeAuditStamps.properties,
    editableSchemaFieldInfo: Type.Array(
      Type.Object({
        fieldPath: Type.String(),
        description: Opt(Type.String()),
        globalTags: Opt(GlobalTags),
        glossaryTerms: Opt(GlossaryTerms),
      }),
    ),
  }),
  searchable: [
    {
      path: 'editableSchemaFieldInfo/*/description',
      fieldName: 'editedFieldDescriptions',
      type: 'TEXT',
      boost: 0.1,
    },
    {
      path: 'editableSchemaFieldInfo/*/globalTags/tags/*/tag',
      fieldName: 'editedFieldTags',
      type: 'URN',
      boost: 0.5,
    },
    ...attributionSearch(
      'editableSchemaFieldInfo/*/globalTags/tags/*/attribution',
      'editedFieldTagAttribution',
    ),
    {
      path: 'editableSchemaFieldInfo/*/glossaryTerms/terms/*/urn',
      fieldName: 'editedFieldGlossaryTerms',
      type: 'URN',
      boost: 0.5,
    },
    ...attributionSearch(
      'editableSchemaFieldInfo/*/glossaryTerms/terms/*/attribution',
      'editedFieldTermAttribution',
    ),
  ],
  relationships: [
    {
      path: 'editableSchemaFieldInfo/*/globalTags/tags/*/tag',
      name: 'EditableSchemaFieldTaggedWith',
      entityTypes: ['tag'],
    },
    {
      path: 'editableSchemaFieldInfo/*/glossaryTerms/terms/*/urn',
      name: 'EditableSchemaFieldWithGlossaryTerm',
      entityTypes: ['glossaryTerm'],
    },
  ],
}

export const SCHEMA_ASPECTS: readonly AspectSpec[] = [schemaMetadata, editableSchemaMetadata]
