import type { LoadedEntity } from '../entity-loader.js'
import {
  customProperties,
  deprecation,
  globalTags,
  institutionalMemory,
  type Mapped,
  ownership,
  ref,
  status,
  str,
} from './common.js'
import type { EntityMapping } from './types.js'

/**
 * `DataPlatformInstance` as DataHub's DataPlatformInstanceMapper: platform and instance id
 * from the key, `properties` from `dataPlatformInstanceProperties` (null when absent).
 */
function mapPlatformInstance(e: LoadedEntity): Mapped {
  const props = e.aspects.dataPlatformInstanceProperties
  return {
    urn: e.urn,
    platform: ref(e.key.platform, ['dataPlatform']) ?? null,
    instanceId: str(e.key.instance) ?? '',
    properties: props
      ? {
          name: str(props.name),
          description: str(props.description),
          customProperties: customProperties(props.customProperties, e.urn),
          externalUrl: str(props.externalUrl),
        }
      : null,
    ownership: ownership(e.aspects.ownership, e.urn),
    institutionalMemory: institutionalMemory(e.aspects.institutionalMemory, e.urn),
    tags: globalTags(e.aspects.globalTags, e.urn),
    deprecation: deprecation(e.aspects.deprecation),
    status: status(e.aspects.status),
  }
}

export const DATA_PLATFORM_INSTANCE_MAPPING: EntityMapping = {
  typeName: 'DataPlatformInstance',
  entityType: 'DATA_PLATFORM_INSTANCE',
  aspects: [
    'dataPlatformInstanceProperties',
    'ownership',
    'institutionalMemory',
    'globalTags',
    'deprecation',
    'status',
  ],
  map: mapPlatformInstance,
}
