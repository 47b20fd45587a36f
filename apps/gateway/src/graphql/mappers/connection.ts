import type { LoadedEntity } from '../entity-loader.js'
import { type Mapped, obj, ref, str } from './common.js'
import type { EntityMapping } from './types.js'

export const CONNECTION_DETAILS = 'dataHubConnectionDetails'

/**
 * `DataHubConnection` as DataHub's ConnectionMapper: its platform and details. The details' JSON
 * blob is kept encrypted here (`storedBlob`); its resolver decrypts it for callers who may manage
 * connections. `stored` says whether both aspects exist: a connection without them is none.
 */
function mapConnection(e: LoadedEntity): Mapped {
  const details = e.aspects[CONNECTION_DETAILS]
  const platform = ref(e.aspects.dataPlatformInstance?.platform, ['dataPlatform'])
  return {
    urn: e.urn,
    stored: details !== undefined && platform !== undefined,
    platform: platform ?? null,
    details: details
      ? {
          type: str(details.type) ?? 'JSON',
          name: str(details.name),
          storedBlob: str(obj(details.json)?.encryptedBlob),
        }
      : null,
  }
}

export const CONNECTION_MAPPING: EntityMapping = {
  typeName: 'DataHubConnection',
  entityType: 'DATAHUB_CONNECTION',
  aspects: [CONNECTION_DETAILS, 'dataPlatformInstance'],
  map: mapConnection,
}
