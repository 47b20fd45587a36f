export * from './errors.js'
export * from './registry/index.js'
export * from './types.js'
export * from './urn.js'
