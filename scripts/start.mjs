// `npm start` (and `npm run start:<app>`): runs one app from its bundle in dist/, in this very
// process. The bundle is rebuilt first when it is missing or older than a source, so edits
// count at the next start; if it cannot be built, the app runs from its TypeScript sources.
// `npm start` gives node the server's flags (scripts/server-node-flags.mjs); a start without them
// runs the same, holding more memory.
import module from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { bundle, DIST, ENTRIES, isStale, ROOT } from './bundle.mjs'
import { releaseWorkerYoungGeneration } from './server-node-flags.mjs'

releaseWorkerYoungGeneration()

// Node 22.1 and later keep the compiled code of every module loaded (the bundle and its npm
// packages) on disk, so later starts skip compiling it; Node 20 has no such cache.
module.enableCompileCache?.(join(DIST, '.compile-cache'))

const APPS = ['all-in-one', 'gateway', 'metadata-service', 'search-service']
const name = process.argv[2] ?? 'all-in-one'
if (!APPS.includes(name)) {
  process.stderr.write(`catalog: unknown app "${name}"; one of ${APPS.join(', ')}\n`)
  process.exit(2)
}
let fromSource = false
if (isStale()) {
  try {
    await bundle()
  } catch (err) {
    process.stderr.write(`catalog: cannot bundle the sources (${err.message}); running them through tsx\n`)
    fromSource = true
  }
}
if (fromSource) {
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(join(ROOT, ENTRIES[name])).href)
} else {
  await import(pathToFileURL(join(DIST, `${name}.mjs`)).href)
}
