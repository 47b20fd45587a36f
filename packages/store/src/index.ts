export * from './admin-port.js'
export * from './graph-port.js'
export * from './port.js'
export * from './timeseries-port.js'
