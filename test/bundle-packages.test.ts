import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
// @ts-expect-error: plain ES modules of the scripts, without type declarations
import { isStale, ROOT } from '../scripts/bundle.mjs'
// @ts-expect-error: as above
import * as packages from './scripts/bundle-packages.mjs'

const { PACKAGES_BUNDLE_DIR, packagesBundleFiles, packagesBundleUrls, packagesStale } = packages

t.test(
  'test files load the packages from their bundle while it is fresh, else from the sources',
  async (t) => {
    const sources = process.env.CATALOG_TEST_SOURCES === '1'
    const urls = (sources ? undefined : packagesBundleUrls()) as Record<string, string> | undefined
    const resolved = import.meta.resolve('@catalog/core')
    if (urls) {
      t.equal(resolved, urls['@catalog/core'], `the bundle: ${resolved}`)
      t.ok(resolved.startsWith(`${pathToFileURL(PACKAGES_BUNDLE_DIR).href}/`))
      t.ok(urls['@catalog/store/contract'], 'subpath exports are bundled too')
    } else {
      t.equal(resolved, pathToFileURL(join(ROOT, 'packages/core/src/index.ts')).href, 'the sources')
    }
    // The HTTP kit maps a domain error to DataHub's error body by its class: an error made with
    // the test's own import of the core package is recognised only if both are one instance.
    const { ValidationError } = await import('@catalog/core')
    const { createServer } = await import('@catalog/http-kit')
    const app = createServer()
    t.teardown(() => app.close())
    app.get('/fails', () => {
      throw new ValidationError('refused by the test')
    })
    const res = await app.inject({ method: 'GET', url: '/fails' })
    t.equal(res.statusCode, 422, 'one instance of the core package across the packages')
    t.match(res.json(), { message: /refused by the test/ })
  },
)

t.test('a bundle is stale once one of its sources is newer than the build', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bundle-stale-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const source = join(dir, 'source.ts')
  writeFileSync(source, 'export {}\n')
  const builtAt = Date.now()
  utimesSync(source, new Date(builtAt - 60_000), new Date(builtAt - 60_000))
  const manifest = join(dir, 'bundle.json')
  writeFileSync(manifest, JSON.stringify({ root: ROOT, inputs: [relative(ROOT, source)], builtAt }))
  t.equal(isStale(manifest), false, 'older sources: fresh')
  utimesSync(source, new Date(builtAt + 1_000), new Date(builtAt + 1_000))
  t.equal(isStale(manifest), true, 'an edited source: stale')
  writeFileSync(manifest, JSON.stringify({ root: '/elsewhere', inputs: [], builtAt }))
  t.equal(isStale(manifest), true, 'built in another checkout: stale')
  rmSync(source)
  writeFileSync(manifest, JSON.stringify({ root: ROOT, inputs: [relative(ROOT, source)], builtAt }))
  t.equal(isStale(manifest), true, 'a source gone: stale')
})

t.test(
  'the packages bundle is stale when it lacks an exported path or a package.json is newer',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-packages-stale-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const manifest = (builtAt: number) =>
      writeFileSync(join(dir, 'bundle.json'), JSON.stringify({ root: ROOT, inputs: [], builtAt }))
    manifest(Date.now() + 3_600_000)
    t.equal(packagesStale(dir), true, 'no file for the exported paths: stale')
    const files = Object.values(packagesBundleFiles(dir) as Record<string, string>)
    t.ok(
      files.some((file) => file.endsWith('catalog-store-contract.mjs')),
      'subpath exports have files',
    )
    for (const file of files) writeFileSync(file, 'export {}\n')
    t.equal(packagesStale(dir), false, 'every exported path has its file: fresh')
    rmSync(files[0] as string)
    t.equal(packagesStale(dir), true, 'one exported path without its file: stale')
    writeFileSync(files[0] as string, 'export {}\n')
    manifest(1)
    t.equal(packagesStale(dir), true, 'a package.json newer than the build: stale')
  },
)
