// Loaded by every test process (tap's `node-arg`, after tsx): points the imports of typebox and
// jose at the bundles `npm install` made (see prebundle-deps.mjs). Without them, or when the
// installed versions differ from the bundled ones, the imports load the packages as usual.
import { existsSync, readFileSync } from 'node:fs'
import { register } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { installedVersions, PREBUNDLED, PREBUNDLED_DIR, PREBUNDLED_MANIFEST } from './prebundle-deps.mjs'

function current() {
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

if (current()) {
  const urls = Object.fromEntries(
    Object.entries(PREBUNDLED).map(([path, name]) => [
      path,
      pathToFileURL(join(PREBUNDLED_DIR, `${name}.mjs`)).href,
    ]),
  )
  register('./prebundled-hook.mjs', import.meta.url, { data: urls })
}
