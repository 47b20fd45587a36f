// Loaded by every test process (tap's `node-arg`, after tsx): points the imports of typebox and
// jose at the bundles `npm install` made (see prebundle-deps.mjs), and in test files under test/
// the imports of the workspace's packages at theirs (see bundle-packages.mjs). A missing or
// outdated bundle is simply not used: the imports load the packages as usual.
import { existsSync, readFileSync } from 'node:fs'
import { register } from 'node:module'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { ROOT } from '../../scripts/bundle.mjs'
import { PACKAGES_BUNDLE_DIR, packagesBundleUrls } from './bundle-packages.mjs'
import { installedVersions, PREBUNDLED, PREBUNDLED_DIR, PREBUNDLED_MANIFEST } from './prebundle-deps.mjs'

function depsCurrent() {
  if (!existsSync(PREBUNDLED_MANIFEST)) return false
  try {
    return isDeepStrictEqual(
      JSON.parse(readFileSync(PREBUNDLED_MANIFEST, 'utf8')).versions,
      installedVersions(),
    )
  } catch {
    return false
  }
}

/**
 * Whether this process runs a test file under test/: those import the workspace through
 * `@catalog/*` only, so the bundle serves all of it. A package's own unit tests import its
 * sources, which the bundle would load a second time; they keep the sources.
 * CATALOG_TEST_SOURCES=1 keeps the sources everywhere.
 */
function testsThroughPackages() {
  const main = process.argv[1]
  if (!main || process.env.CATALOG_TEST_SOURCES === '1') return false
  const path = relative(join(ROOT, 'test'), resolve(main))
  return !path.startsWith('..') && !path.startsWith('scripts')
}

const urls = {}
if (depsCurrent()) {
  for (const [path, name] of Object.entries(PREBUNDLED))
    urls[path] = pathToFileURL(join(PREBUNDLED_DIR, `${name}.mjs`)).href
}
if (testsThroughPackages()) Object.assign(urls, packagesBundleUrls())
if (Object.keys(urls).length > 0) {
  const bundled = [PREBUNDLED_DIR, PACKAGES_BUNDLE_DIR].map((dir) => `${pathToFileURL(dir).href}/`)
  register('./prebundled-hook.mjs', import.meta.url, { data: { urls, bundled } })
}
