// Test files under test/ reach the workspace only through its packages (`@catalog/*`). Loaded
// from the TypeScript sources, each such process spends ~1 s of CPU in tsx's module hooks for
// ~400 modules before its first test runs. `npm install` and `npm test` bundle the packages
// here with esbuild (the code they share in common chunks, so each module has one instance, as
// node would load it), and test/scripts/prebundled-deps.mjs points those imports at the bundle
// while it is newer than every source it was built from: an edited source counts at once.
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { bundle, ENTRIES, isStale, ROOT } from '../../scripts/bundle.mjs'

export const PACKAGES_BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'catalog-packages')
const MANIFEST = join(PACKAGES_BUNDLE_DIR, 'bundle.json')
const WORKERS = ['search-worker', 'sqlite-write-worker', 'large-aspect-worker', 'json-body-worker']

/** Every TypeScript import path the workspace's packages export (`@catalog/store/contract` too). */
function importPaths() {
  const paths = {}
  for (const pattern of JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces) {
    const dir = pattern.replace(/\/\*$/, '')
    for (const name of readdirSync(join(ROOT, dir))) {
      let pkg
      try {
        pkg = JSON.parse(readFileSync(join(ROOT, dir, name, 'package.json'), 'utf8'))
      } catch {
        continue
      }
      for (const [subpath, file] of Object.entries(pkg.exports ?? {})) {
        if (typeof file === 'string' && file.endsWith('.ts'))
          paths[join(pkg.name, subpath)] = join(dir, name, file)
      }
    }
  }
  return paths
}

/** The bundle's file name for an import path: `@catalog/store/contract` is `catalog-store-contract`. */
const bundleName = (path) => path.slice(1).replaceAll('/', '-')

/** Builds the bundle: one entry per import path, plus the worker threads' entries they start. */
export async function bundlePackages() {
  const entries = Object.fromEntries(
    Object.entries(importPaths()).map(([path, source]) => [bundleName(path), source]),
  )
  for (const worker of WORKERS) entries[worker] = ENTRIES[worker]
  await bundle({ entries, outdir: PACKAGES_BUNDLE_DIR })
}

/** Each import path's bundle URL, or undefined when the bundle is missing or older than a source. */
export function packagesBundleUrls() {
  if (isStale(MANIFEST)) return undefined
  return Object.fromEntries(
    Object.keys(importPaths()).map((path) => [
      path,
      pathToFileURL(join(PACKAGES_BUNDLE_DIR, `${bundleName(path)}.mjs`)).href,
    ]),
  )
}

// `npm run test:bundle`: rebuilds what is stale, this bundle and the servers' in dist/ (the
// processes tests start run the servers as `npm start` does, see test/helpers/spawn.ts).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [what, stale, build] of [
    ['the servers into dist/', isStale(), () => bundle()],
    ['the packages for the tests', isStale(MANIFEST), bundlePackages],
  ]) {
    if (!stale) continue
    const started = performance.now()
    try {
      await build()
      process.stdout.write(`bundled ${what} in ${Math.round(performance.now() - started)} ms\n`)
    } catch (err) {
      process.stdout.write(`could not bundle ${what}: the tests run the sources (${err.message})\n`)
    }
  }
}
