import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { parents } from './associations.js'
import {
  customProperties,
  deprecation,
  editableDescription,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  type Mapped,
  ownership,
  ref,
  resolvedStamp,
  status,
  str,
  subTypes,
} from './common.js'
import { accessField } from './role.js'
import { type EntityMapping, existsField } from './types.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

/** `DisplayProperties` from `displayProperties`. */
function displayProperties(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const icon = obj(v.icon)
  return {
    colorHex: str(v.colorHex),
    icon: icon ? { name: str(icon.name), style: str(icon.style), iconLibrary: str(icon.iconLibrary) } : null,
  }
}

function mapContainer(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a.containerProperties
  const tags = globalTags(a.globalTags, e.urn)
  return {
    urn: e.urn,
    platform: ref(a.dataPlatformInstance?.platform, ['dataPlatform']) ?? null,
    properties: props
      ? {
          name: str(props.name) ?? '',
          description: str(props.description),
          customProperties: customProperties(props.customProperties, e.urn),
          externalUrl: str(props.externalUrl),
          qualifiedName: str(props.qualifiedName),
        }
      : null,
    editableProperties: editableDescription(a.editableContainerProperties),
    ownership: ownership(a.ownership, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    subTypes: subTypes(a.subTypes),
    deprecation: deprecation(a.deprecation),
    status: status(a.status),
    exists: existsField(e),
    access: accessField(e.urn),
  }
}

function mapDomain(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a.domainProperties
  return {
    urn: e.urn,
    id: e.key.id,
    properties: props
      ? {
          name: str(props.name) ?? '',
          description: str(props.description),
          createdOn: resolvedStamp(props.created),
          customProperties: customProperties(props.customProperties, e.urn),
        }
      : null,
    ownership: ownership(a.ownership, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    parentDomains: parents('domains', props?.parentDomain, 'domainProperties', 'parentDomain'),
    displayProperties: displayProperties(a.displayProperties),
    deprecation: deprecation(a.deprecation),
  }
}

function mapDataProduct(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a.dataProductProperties
  const tags = globalTags(a.globalTags, e.urn)
  return {
    urn: e.urn,
    properties: props
      ? {
          name: str(props.name) ?? '',
          description: str(props.description),
          externalUrl: str(props.externalUrl),
          numAssets: Array.isArray(props.assets) ? props.assets.length : 0,
          customProperties: customProperties(props.customProperties, e.urn),
          createdOn: null,
        }
      : null,
    ownership: ownership(a.ownership, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    tags,
    deprecation: deprecation(a.deprecation),
    exists: existsField(e),
  }
}

function mapGlossaryNode(e: LoadedEntity): Mapped {
  const a = e.aspects
  const info = a.glossaryNodeInfo
  return {
    urn: e.urn,
    properties: info
      ? {
          name: str(info.name) ?? e.key.name,
          description: str(info.definition),
          customProperties: customProperties(info.customProperties, e.urn),
          createdOn: null,
        }
      : null,
    parentNodes: parents('nodes', info?.parentNode, 'glossaryNodeInfo', 'parentNode'),
    ownership: ownership(a.ownership, e.urn),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    displayProperties: displayProperties(a.displayProperties),
    exists: existsField(e),
  }
}

const COMMON = ['ownership', 'institutionalMemory', 'deprecation', 'status', 'globalTags', 'glossaryTerms']

export const CONTAINER_MAPPING: EntityMapping = {
  typeName: 'Container',
  entityType: 'CONTAINER',
  aspects: [...COMMON, 'containerProperties', 'editableContainerProperties', 'subTypes'],
  map: mapContainer,
}

export const DOMAIN_MAPPING: EntityMapping = {
  typeName: 'Domain',
  entityType: 'DOMAIN',
  aspects: [...COMMON, 'domainProperties', 'displayProperties'],
  map: mapDomain,
}

export const DATA_PRODUCT_MAPPING: EntityMapping = {
  typeName: 'DataProduct',
  entityType: 'DATA_PRODUCT',
  aspects: [...COMMON, 'dataProductProperties'],
  map: mapDataProduct,
}

export const GLOSSARY_NODE_MAPPING: EntityMapping = {
  typeName: 'GlossaryNode',
  entityType: 'GLOSSARY_NODE',
  aspects: [...COMMON, 'glossaryNodeInfo', 'displayProperties'],
  map: mapGlossaryNode,
}
