import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { enumValue, type Mapped, ref } from './common.js'
import type { EntityMapping } from './types.js'

/** One kind of a contract's assertions, each `{assertion}` (the assertion loads when selected). */
function assertions(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v.flatMap((c) => {
    const assertion = ref((c as AspectValue | null)?.assertion, ['assertion'])
    return assertion ? [{ assertion }] : []
  })
}

/**
 * `DataContract` as DataHub's DataContractMapper: the entity it is for, its freshness, schema
 * and data quality assertions, and its state.
 */
function mapContract(e: LoadedEntity): Mapped {
  const p = e.aspects.dataContractProperties
  const s = e.aspects.dataContractStatus
  return {
    urn: e.urn,
    properties: p
      ? {
          entityUrn: typeof p.entity === 'string' ? p.entity : '',
          freshness: assertions(p.freshness),
          schema: assertions(p.schema),
          dataQuality: assertions(p.dataQuality),
        }
      : null,
    status: s ? { state: enumValue(s.state, ['ACTIVE', 'PENDING']) } : null,
  }
}

export const DATA_CONTRACT_MAPPING: EntityMapping = {
  typeName: 'DataContract',
  entityType: 'DATA_CONTRACT',
  aspects: ['dataContractProperties', 'dataContractStatus'],
  map: mapContract,
}
