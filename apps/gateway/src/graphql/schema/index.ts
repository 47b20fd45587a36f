import { COMMON_SDL } from './common.js'
import { DATASET_SDL } from './dataset.js'
import { ENTITIES_SDL } from './entities.js'
import { ML_SDL } from './ml.js'
import { OPERATIONS_SDL } from './operations.js'

/** The whole GraphQL schema: a faithful subset of DataHub's, same names and nullability. */
export const TYPE_DEFS = [COMMON_SDL, DATASET_SDL, ENTITIES_SDL, ML_SDL, OPERATIONS_SDL].join('\n')
