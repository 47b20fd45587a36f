// The JSON body worker's entry: the worker has its own module loader, so it registers tsx's
// TypeScript loader itself before it loads the worker's sources.
import { register } from 'tsx/esm/api'

register()
await import('./json-body-worker.ts')
