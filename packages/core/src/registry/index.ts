export { canonicalJson } from './canonical-json.js'
export { assertionAssertee, DEFAULT_BROWSE_PATHS, SNAPSHOTS } from './entity-behaviour.js'
export {
  LARGE_ASPECT_CHARS,
  LARGE_ASPECT_WORKER_IDLE_MS,
  largeAspectWorkerRunning,
  type PreparedAspect,
  type PreparedPatch,
  prepareLargeAspect,
  prepareLargePatch,
  warmLargeAspectWorker,
} from './large-aspect-thread.js'
export { CHART_TYPES, ML_FEATURE_DATA_TYPES } from './model/enums.js'
export { fromModel, type LoadedModel, loadModel } from './model/load-model.js'
export type * from './model/model-file.js'
export { canonicalRecordName, normalizeAspectJson } from './normalize.js'
export { entriesAt, valuesAt } from './paths.js'
export * from './registry.js'
export * from './test-definition.js'
export * from './test-regex.js'
export * from './types.js'
export { ModelValidator, type ValidationOutcome, type ValidationProblem } from './validator.js'
