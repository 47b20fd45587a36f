import { CHART_TYPES, parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { parents } from './associations.js'
import {
  auditStamp,
  browsePaths,
  customProperties,
  deprecation,
  editableDescription,
  embed,
  enumValue,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  lazyAspect,
  type Mapped,
  num,
  optionalStamp,
  ownership,
  status,
  str,
  subTypes,
} from './common.js'
import { schemaField as schemaFieldOf } from './dataset.js'
import { accessField } from './role.js'
import { type EntityMapping, existsField } from './types.js'

const ACCESS_LEVELS = ['PUBLIC', 'PRIVATE']
const PLATFORM_TYPES = [
  'FILE_SYSTEM',
  'KEY_VALUE_STORE',
  'MESSAGE_BROKER',
  'OBJECT_STORE',
  'OLAP_DATASTORE',
  'OTHERS',
  'QUERY_ENGINE',
  'RELATIONAL_DB',
  'SEARCH_ENGINE',
]
const COMMON = ['ownership', 'status', 'deprecation', 'institutionalMemory', 'globalTags', 'glossaryTerms']

function mapTag(e: LoadedEntity): Mapped {
  const props = e.aspects.tagProperties
  return {
    urn: e.urn,
    name: e.key.name,
    description: str(props?.description),
    properties: props
      ? {
          name: str(props.name) ?? e.key.name,
          description: str(props.description),
          colorHex: str(props.colorHex),
        }
      : null,
    ownership: ownership(e.aspects.ownership, e.urn),
    status: status(e.aspects.status),
    deprecation: deprecation(e.aspects.deprecation),
    exists: existsField(e),
  }
}

/** The aspects charts and dashboards share, mapped. */
/** The aspects {@link dashboardLike} reads besides the info aspects. */
const DASHBOARD_LIKE = ['subTypes', 'browsePaths', 'embed']

function dashboardLike(
  e: LoadedEntity,
  info: AspectValue | undefined,
  editable: AspectValue | undefined,
): Mapped {
  const a = e.aspects
  const tags = globalTags(a.globalTags, e.urn)
  const stamps = (info?.lastModified ?? {}) as AspectValue
  return {
    urn: e.urn,
    tool: e.key.dashboardTool,
    platform: { urn: `urn:li:dataPlatform:${e.key.dashboardTool}` },
    properties: info
      ? {
          name: str(info.title) ?? '',
          description: str(info.description),
          externalUrl: str(info.externalUrl) ?? str(info.chartUrl) ?? str(info.dashboardUrl),
          type: enumValue(info.type, CHART_TYPES),
          access: enumValue(info.access, ACCESS_LEVELS),
          lastRefreshed: num(info.lastRefreshed),
          lastModified: auditStamp(stamps.lastModified),
          created: auditStamp(stamps.created),
          customProperties: customProperties(info.customProperties, e.urn),
        }
      : null,
    editableProperties: editableDescription(editable),
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    deprecation: deprecation(a.deprecation),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    tags,
    globalTags: tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    exists: existsField(e),
    subTypes: subTypes(a.subTypes),
    browsePaths: browsePaths(a.browsePaths),
    embed: embed(a.embed),
    inputFields: lazyAspect(e.urn, 'inputFields', inputFields),
  }
}

/**
 * `InputFields` of a chart or dashboard (DataHub's InputFieldsMapper): each field's URN and its
 * schema field, read against the dataset the field URN names; null when absent.
 */
function inputFields(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  return {
    fields: (Array.isArray(v.fields) ? v.fields : []).map((f) => {
      const field = f as AspectValue | null
      const urn = str(field?.schemaFieldUrn)
      const schemaField = field?.schemaField as AspectValue | undefined
      let dataset = ''
      try {
        dataset = urn ? (parseUrn(urn).parts[0] ?? '') : ''
      } catch {}
      return {
        schemaFieldUrn: urn,
        schemaField:
          schemaField && typeof schemaField.fieldPath === 'string'
            ? schemaFieldOf(schemaField, dataset)
            : null,
      }
    }),
  }
}

function termProperties(info: AspectValue, fallbackName: string, urn: string): Mapped {
  return {
    name: str(info.name) ?? fallbackName,
    description: str(info.definition),
    definition: str(info.definition) ?? '',
    termSource: str(info.termSource) ?? '',
    sourceRef: str(info.sourceRef),
    sourceUrl: str(info.sourceUrl),
    rawSchema: str(info.rawSchema),
    customProperties: customProperties(info.customProperties, urn),
  }
}

function mapGlossaryTerm(e: LoadedEntity): Mapped {
  const id = e.key.name ?? ''
  // DataHub's GlossaryTermUtils.getGlossaryTermName: the last segment of a dotted id.
  const name = id.includes('.') ? id.slice(id.lastIndexOf('.') + 1) : id
  const info = e.aspects.glossaryTermInfo
  const properties = info ? termProperties(info, name, e.urn) : null
  return {
    urn: e.urn,
    name,
    hierarchicalName: id,
    properties,
    glossaryTermInfo: properties,
    parentNodes: parents('nodes', info?.parentNode, 'glossaryNodeInfo', 'parentNode'),
    ownership: ownership(e.aspects.ownership, e.urn),
    deprecation: deprecation(e.aspects.deprecation),
    institutionalMemory: institutionalMemory(e.aspects.institutionalMemory, e.urn),
    status: status(e.aspects.status),
    exists: existsField(e),
  }
}

function mapDataPlatform(e: LoadedEntity): Mapped {
  const info = e.aspects.dataPlatformInfo
  const properties = info
    ? {
        type: enumValue(info.type, PLATFORM_TYPES) ?? 'OTHERS',
        displayName: str(info.displayName),
        datasetNameDelimiter: str(info.datasetNameDelimiter) ?? '',
        logoUrl: str(info.logoUrl),
        logical: typeof info.logical === 'boolean' ? info.logical : null,
      }
    : null
  return {
    urn: e.urn,
    name: e.key.platformName,
    properties,
    info: properties,
    displayName: str(info?.displayName),
  }
}

function mapOwnershipType(e: LoadedEntity): Mapped {
  const info = e.aspects.ownershipTypeInfo
  return {
    urn: e.urn,
    info: info
      ? {
          name: str(info.name) ?? '',
          description: str(info.description),
          created: optionalStamp(info.created),
          lastModified: optionalStamp(info.lastModified),
        }
      : null,
    status: status(e.aspects.status),
  }
}

function mapAccessToken(e: LoadedEntity): Mapped {
  const info = e.aspects.dataHubAccessTokenInfo
  return {
    urn: e.urn,
    id: e.key.id,
    name: str(info?.name) ?? '',
    description: str(info?.description),
    actorUrn: str(info?.actorUrn) ?? '',
    ownerUrn: str(info?.ownerUrn) ?? '',
    createdAt: num(info?.createdAt) ?? 0,
    expiresAt: num(info?.expiresAt),
  }
}

export const TAG_MAPPING: EntityMapping = {
  typeName: 'Tag',
  entityType: 'TAG',
  aspects: ['tagProperties', 'ownership', 'status', 'deprecation'],
  map: mapTag,
}

export const CHART_MAPPING: EntityMapping = {
  typeName: 'Chart',
  entityType: 'CHART',
  aspects: [...COMMON, 'chartInfo', 'editableChartProperties', ...DASHBOARD_LIKE],
  map: (e) => ({
    ...dashboardLike(e, e.aspects.chartInfo, e.aspects.editableChartProperties),
    chartId: e.key.chartId,
  }),
}

export const DASHBOARD_MAPPING: EntityMapping = {
  typeName: 'Dashboard',
  entityType: 'DASHBOARD',
  aspects: [...COMMON, 'dashboardInfo', 'editableDashboardProperties', ...DASHBOARD_LIKE],
  map: (e) => ({
    ...dashboardLike(e, e.aspects.dashboardInfo, e.aspects.editableDashboardProperties),
    dashboardId: e.key.dashboardId,
    access: accessField(e.urn),
  }),
}

export const GLOSSARY_TERM_MAPPING: EntityMapping = {
  typeName: 'GlossaryTerm',
  entityType: 'GLOSSARY_TERM',
  aspects: ['glossaryTermInfo', 'ownership', 'deprecation', 'institutionalMemory', 'status'],
  map: mapGlossaryTerm,
}

export const DATA_PLATFORM_MAPPING: EntityMapping = {
  typeName: 'DataPlatform',
  entityType: 'DATA_PLATFORM',
  aspects: ['dataPlatformInfo'],
  map: mapDataPlatform,
}

export const OWNERSHIP_TYPE_MAPPING: EntityMapping = {
  typeName: 'OwnershipTypeEntity',
  entityType: 'CUSTOM_OWNERSHIP_TYPE',
  aspects: ['ownershipTypeInfo', 'status'],
  map: mapOwnershipType,
}

export const ACCESS_TOKEN_MAPPING: EntityMapping = {
  typeName: 'AccessTokenMetadata',
  entityType: 'ACCESS_TOKEN',
  aspects: ['dataHubAccessTokenInfo'],
  map: mapAccessToken,
}
