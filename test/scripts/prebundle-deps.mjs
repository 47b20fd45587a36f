// Tests run the TypeScript sources through tsx, whose module hooks answer every import on a
// thread of their own: cheap per module, but typebox is ~680 ES modules and jose ~45, so every
// test process spent ~0.7 s of CPU just loading them. `npm install` bundles them here, each
// import path one file with the code they share in common chunks (one instance of typebox's
// registries, as node would load it), and test/scripts/prebundled-deps.mjs points the tests'
// imports at them. A missing or outdated bundle is simply not used.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const PREBUNDLED_DIR = join(ROOT, 'node_modules', '.cache', 'catalog-prebundled')
export const PREBUNDLED_MANIFEST = join(PREBUNDLED_DIR, 'manifest.json')

/** The packages bundled: every import path each one exports, so that none loads a second copy. */
const PACKAGES = ['typebox', 'jose']

/** Each import path of the bundled packages, and the file name of its bundle. */
export const PREBUNDLED = Object.fromEntries(
  PACKAGES.flatMap((name) =>
    Object.keys(packageJson(name).exports ?? { '.': null })
      .filter((subpath) => !subpath.includes('*') && !subpath.endsWith('.json'))
      .map((subpath) => {
        const path = join(name, subpath).replaceAll('\\', '/')
        return [path, path.replaceAll('/', '-')]
      }),
  ),
)

function packageJson(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'))
}

/** The installed version of each bundled package: a bundle of another version is stale. */
export function installedVersions() {
  return Object.fromEntries(PACKAGES.map((name) => [name, packageJson(name).version]))
}

export async function prebundle() {
  const esbuild = await import('esbuild')
  const staging = `${PREBUNDLED_DIR}.partial-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(PREBUNDLED).map(([path, name]) => ({ in: path, out: name })),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
  })
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify({ versions: installedVersions() })}\n`)
  mkdirSync(dirname(PREBUNDLED_DIR), { recursive: true })
  rmSync(PREBUNDLED_DIR, { recursive: true, force: true })
  renameSync(staging, PREBUNDLED_DIR)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  await prebundle()
  process.stdout.write(
    `bundled ${Object.keys(PREBUNDLED).join(', ')} for the tests in ${Math.round(performance.now() - started)} ms\n`,
  )
}
