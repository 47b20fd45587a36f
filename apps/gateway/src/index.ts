export { type GatewayOptions, gateway } from './app.js'
export { serviceFor } from './proxy.js'
