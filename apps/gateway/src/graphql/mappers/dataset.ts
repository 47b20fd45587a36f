import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  auditStamp,
  browsePaths,
  customProperties,
  deprecation,
  embed,
  fineGrainedLineages,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  lazyAspect,
  type Mapped,
  num,
  obj,
  ownership,
  ref,
  schemaFieldUrn,
  status,
  str,
  subTypes,
} from './common.js'
import { accessField } from './role.js'
import { type EntityMapping, existsField, type FieldFn } from './types.js'
import { versionProperties } from './version-set.js'

export const FIELD_TYPES: Readonly<Record<string, string>> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
}

/** `SchemaFieldDataType` from `{type: {"com.linkedin.schema.StringType": {}}}`. */
export function fieldType(v: unknown): string {
  const member = Object.keys(((v as { type?: object } | undefined)?.type ?? {}) as object)[0] ?? ''
  return FIELD_TYPES[member.slice(member.lastIndexOf('.') + 1)] ?? 'NULL'
}

/** DataHub's PlatformSchemaMapper: the platform schema union as TableSchema or KeyValueSchema. */
function platformSchema(v: unknown): Mapped | null {
  const [record, body] = Object.entries((v ?? {}) as Record<string, Record<string, unknown>>)[0] ?? []
  if (!record || !body) return null
  const kind = record.slice(record.lastIndexOf('.') + 1)
  const table = (schema: unknown) => ({ __typename: 'TableSchema', schema: str(schema) ?? '' })
  switch (kind) {
    case 'KafkaSchema':
      return typeof body.keySchema === 'string'
        ? {
            __typename: 'KeyValueSchema',
            keySchema: body.keySchema,
            valueSchema: str(body.documentSchema) ?? '',
          }
        : table(body.documentSchema)
    case 'KeyValueSchema':
      return {
        __typename: 'KeyValueSchema',
        keySchema: str(body.keySchema) ?? '',
        valueSchema: str(body.valueSchema) ?? '',
      }
    case 'EspressoSchema':
      return table(body.documentSchema)
    case 'OracleDDL':
    case 'MySqlDDL':
      return table(body.tableSchema)
    case 'BinaryJsonSchema':
    case 'OrcSchema':
    case 'Schemaless':
      return table(body.schema)
    default:
      return table(body.rawSchema)
  }
}

/** One `SchemaField` of a dataset's (or a chart's input) schema. */
export function schemaField(f: AspectValue, datasetUrn: string): Mapped {
  const tags = globalTags(f.globalTags as AspectValue | undefined, datasetUrn)
  return {
    fieldPath: f.fieldPath,
    jsonPath: str(f.jsonPath),
    label: str(f.label),
    nullable: f.nullable === true,
    description: str(f.description),
    type: fieldType(f.type),
    nativeDataType: str(f.nativeDataType),
    recursive: f.recursive === true,
    globalTags: tags,
    tags,
    glossaryTerms: glossaryTerms(f.glossaryTerms as AspectValue | undefined, datasetUrn),
    isPartOfKey: typeof f.isPartOfKey === 'boolean' ? f.isPartOfKey : null,
    isPartitioningKey: typeof f.isPartitioningKey === 'boolean' ? f.isPartitioningKey : null,
    jsonProps: str(f.jsonProps),
  }
}

/** `SchemaMetadata` from the aspect (at `version`, 0 = latest). */
export function schemaMetadata(v: AspectValue, datasetUrn: string, version: number): Mapped {
  const fields = Array.isArray(v.fields) ? (v.fields as AspectValue[]) : []
  return {
    aspectVersion: version,
    datasetUrn,
    name: str(v.schemaName) ?? '',
    platformUrn: str(v.platform) ?? '',
    version: num(v.version) ?? 0,
    cluster: str(v.cluster),
    hash: str(v.hash) ?? '',
    platformSchema: platformSchema(v.platformSchema),
    fields: fields
      .filter((f) => typeof f.fieldPath === 'string')
      .map((f) => ({
        ...schemaField(f, datasetUrn),
        // A path whose URN does not parse (a comma or an unbalanced parenthesis) has no entity.
        schemaFieldEntity: ref(schemaFieldUrn(datasetUrn, f.fieldPath as string), ['schemaField']) ?? null,
      })),
    primaryKeys: Array.isArray(v.primaryKeys) ? v.primaryKeys : null,
    createdAt: num((v.created as AspectValue | undefined)?.time),
  }
}

function editableSchemaMetadata(v: AspectValue | undefined, urn: string): Mapped | null {
  if (!v) return null
  const infos = Array.isArray(v.editableSchemaFieldInfo) ? (v.editableSchemaFieldInfo as AspectValue[]) : []
  return {
    editableSchemaFieldInfo: infos
      .filter((f) => typeof f.fieldPath === 'string')
      .map((f) => {
        const tags = globalTags(f.globalTags as AspectValue | undefined, urn)
        return {
          fieldPath: f.fieldPath,
          description: str(f.description),
          globalTags: tags,
          tags,
          glossaryTerms: glossaryTerms(f.glossaryTerms as AspectValue | undefined, urn),
        }
      }),
  }
}

function mapDataset(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a.datasetProperties
  const editable = a.editableDatasetProperties
  const name = str(props?.name) ?? e.key.name
  const tags = globalTags(a.globalTags, e.urn)
  const created = props?.created as AspectValue | undefined
  const schema: FieldFn = async (args, ctx) => {
    const version = typeof args.version === 'number' ? args.version : 0
    const value =
      version === 0 ? a.schemaMetadata : await ctx.client.getAspectVersion(e.urn, 'schemaMetadata', version)
    return value ? schemaMetadata(value, e.urn, version) : null
  }
  return {
    urn: e.urn,
    name,
    platform: { urn: e.key.platform },
    origin: e.key.origin,
    properties: props
      ? {
          name,
          qualifiedName: str(props.qualifiedName),
          origin: e.key.origin,
          description: str(props.description),
          customProperties: customProperties(props.customProperties, e.urn),
          externalUrl: str(props.externalUrl),
          created: num(created?.time),
          createdActor: str(created?.actor),
          lastModified: auditStamp(props.lastModified),
        }
      : null,
    editableProperties: editable
      ? { description: str(editable.description), name: str(editable.name) }
      : null,
    ownership: ownership(a.ownership, e.urn),
    deprecation: deprecation(a.deprecation ?? a.datasetDeprecation),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    schemaMetadata: schema,
    editableSchemaMetadata: editableSchemaMetadata(a.editableSchemaMetadata, e.urn),
    status: status(a.status),
    tags,
    globalTags: tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    subTypes: subTypes(a.subTypes),
    browsePaths: browsePaths(a.browsePaths),
    exists: existsField(e),
    description: str(props?.description),
    versionProperties: versionProperties(a.versionProperties),
    viewProperties: viewProperties(a.viewProperties),
    embed: embed(a.embed),
    logicalParent: ref(obj(a.logicalParent?.parent)?.destinationUrn) ?? null,
    fineGrainedLineages: lazyAspect(e.urn, 'upstreamLineage', (v) =>
      fineGrainedLineages(v?.fineGrainedLineages),
    ),
    access: accessField(e.urn),
  }
}

/** `ViewProperties` of a view's definition (DataHub's ViewPropertiesMapper); null when absent. */
function viewProperties(v: AspectValue | undefined): Mapped | null {
  if (!v || typeof v.viewLogic !== 'string') return null
  return {
    materialized: v.materialized === true,
    logic: v.viewLogic,
    formattedLogic: str(v.formattedViewLogic),
    language: str(v.viewLanguage) ?? '',
  }
}

export const DATASET_MAPPING: EntityMapping = {
  typeName: 'Dataset',
  entityType: 'DATASET',
  aspects: [
    'datasetProperties',
    'editableDatasetProperties',
    'ownership',
    'deprecation',
    'datasetDeprecation',
    'institutionalMemory',
    'schemaMetadata',
    'editableSchemaMetadata',
    'status',
    'globalTags',
    'glossaryTerms',
    'subTypes',
    'browsePaths',
    'versionProperties',
    'viewProperties',
    'embed',
    'logicalParent',
  ],
  map: mapDataset,
}
