// Test files under test/ reach the workspace only through its packages (`@catalog/*`). Loaded
// from the TypeScript sources, each such process spends ~1 s of CPU in tsx's module hooks for
// ~400 modules before its first test runs. `npm install` and `npm test` bundle the packages
// here with esbuild (the code they share in common chunks, so each module has one instance, as
// node would load it), and test/scripts/prebundled-deps.mjs points those imports at the bundle
// while it is newer than every source it was built from: an edited source counts at once.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { bundle, ENTRIES, isStale, ROOT } from '../../scripts/bundle.mjs'

export const PACKAGES_BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'catalog-packages')
const WORKERS = ['search-worker', 'sqlite-write-worker', 'large-aspect-worker', 'json-body-worker']

/**
 * Every TypeScript import path the workspace's packages export (`@catalog/store/contract` too),
 * and the newest change time of their package.json files (an export added there counts too).
 */
function importPaths() {
  const paths = {}
  let manifestsChanged = 0
  for (const pattern of JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces) {
    const dir = pattern.replace(/\/\*$/, '')
    for (const name of readdirSync(join(ROOT, dir))) {
      const file = join(ROOT, dir, name, 'package.json')
      let pkg
      try {
        pkg = JSON.parse(readFileSync(file, 'utf8'))
        manifestsChanged = Math.max(manifestsChanged, statSync(file).mtimeMs)
      } catch {
        continue
      }
      for (const [subpath, file] of Object.entries(pkg.exports ?? {})) {
        if (typeof file === 'string' && file.endsWith('.ts'))
          paths[join(pkg.name, subpath)] = join(dir, name, file)
      }
    }
  }
  return { paths, manifestsChanged }
}

/** The bundle's file name for an import path: `@catalog/store/contract` is `catalog-store-contract`. */
const bundleName = (path) => path.slice(1).replaceAll('/', '-')

/** Builds the bundle: one entry per import path, plus the worker threads' entries they start. */
export async function bundlePackages() {
  const entries = Object.fromEntries(
    Object.entries(importPaths().paths).map(([path, source]) => [bundleName(path), source]),
  )
  for (const worker of WORKERS) entries[worker] = ENTRIES[worker]
  await bundle({ entries, outdir: PACKAGES_BUNDLE_DIR })
}

/** The bundle's files, one per import path (`dir`: where the bundle is). */
export const packagesBundleFiles = (dir = PACKAGES_BUNDLE_DIR) =>
  Object.fromEntries(
    Object.keys(importPaths().paths).map((path) => [path, join(dir, `${bundleName(path)}.mjs`)]),
  )

/**
 * Whether the bundle in `dir` is missing, older than one of its sources or than a package.json,
 * or lacks the file of an exported path (one added to a package.json without a source edit).
 */
export function packagesStale(dir = PACKAGES_BUNDLE_DIR) {
  const manifest = join(dir, 'bundle.json')
  if (isStale(manifest)) return true
  if (importPaths().manifestsChanged > JSON.parse(readFileSync(manifest, 'utf8')).builtAt) return true
  return Object.values(packagesBundleFiles(dir)).some((file) => !existsSync(file))
}

/** Each import path's bundle URL, or undefined when the bundle is stale (see packagesStale). */
export function packagesBundleUrls() {
  if (packagesStale()) return undefined
  return Object.fromEntries(
    Object.entries(packagesBundleFiles()).map(([path, file]) => [path, pathToFileURL(file).href]),
  )
}

// `npm run test:bundle`: rebuilds what is stale, this bundle and the servers' in dist/ (the
// processes tests start run the servers as `npm start` does, see test/helpers/spawn.ts).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [what, stale, build] of [
    ['the servers into dist/', isStale(), () => bundle()],
    ['the packages for the tests', packagesStale(), bundlePackages],
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
