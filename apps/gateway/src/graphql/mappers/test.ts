import type { LoadedEntity } from '../entity-loader.js'
import { type Mapped, str } from './common.js'
import type { EntityMapping } from './types.js'

/** `Test` as DataHub's TestMapper: name, category, description and the JSON definition. */
function mapTest(e: LoadedEntity): Mapped {
  const info = e.aspects.testInfo
  const definition = info?.definition
  return {
    urn: e.urn,
    name: str(info?.name),
    category: str(info?.category),
    description: str(info?.description),
    definition: info
      ? {
          json: str(
            definition !== null && typeof definition === 'object' ? (definition as Mapped).json : null,
          ),
        }
      : null,
  }
}

export const TEST_MAPPING: EntityMapping = {
  typeName: 'Test',
  entityType: 'TEST',
  aspects: ['testInfo'],
  map: mapTest,
}
