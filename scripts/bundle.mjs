// Bundles the servers' TypeScript into dist/ with esbuild, one ES module per entry plus the
// chunks they share (the workspace's own packages inlined, every npm package left to node), so
// a start loads a dozen files instead of ~400 TypeScript sources through tsx's loader. `npm start` and the
// `start:*` scripts run the bundle (scripts/start.mjs), rebuilding it first when a source changed.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const DIST = join(ROOT, 'dist')
const MANIFEST = join(DIST, 'bundle.json')

/** The bundles: each app, and each worker thread's entry beside them (found by file name, see below). */
export const ENTRIES = {
  'all-in-one': 'apps/gateway/src/all-in-one.ts',
  gateway: 'apps/gateway/src/server.ts',
  'metadata-service': 'apps/metadata-service/src/server.ts',
  'search-service': 'apps/search-service/src/server.ts',
  'search-worker': 'packages/search-sqlite/src/worker/search-worker.ts',
  'sqlite-write-worker': 'packages/store-sqlite/src/sqlite-write-worker.ts',
  'large-aspect-worker': 'packages/core/src/registry/large-aspect-worker.ts',
  'json-body-worker': 'packages/http-kit/src/json-body-worker.ts',
}

/** A worker started as `new URL('./<name>.mjs', import.meta.url)` whose bundle is dist/<name>.mjs. */
const WORKER_URL = /new URL\((['"])\.\/([\w-]+)\.mjs\1, import\.meta\.url\)/g

/**
 * In every source, `import.meta.url` becomes the source's own file URL, so files found beside
 * a source (the model, the GraphQL schema, the web UI) are found from the bundle too. A worker
 * entry that has a bundle of the same name is taken from dist/ instead.
 */
const sourceUrls = (entries) => ({
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8')
      if (!text.includes('import.meta.url')) return undefined
      const own = JSON.stringify(pathToFileURL(args.path).href)
      const workers = []
      const contents = text
        .replace(WORKER_URL, (whole, _q, name) => {
          if (!(name in entries)) return whole
          workers.push(name)
          return `\0worker${workers.length - 1}\0`
        })
        .replaceAll('import.meta.url', own)
        .replace(
          /\0worker(\d+)\0/g,
          (_, i) => `new URL(${JSON.stringify(`./${workers[i]}.mjs`)}, import.meta.url)`,
        )
      return { contents, loader: 'ts' }
    })
  },
})

/**
 * Packages inlined with the workspace's own: pure ES modules spread over many small files
 * (typebox alone is ~680), which node would load one by one at every start.
 */
const INLINED = /^(@catalog\/|typebox(\/|$)|jose(\/|$))/

/** Other npm packages stay imports (node loads them); the workspace's `@catalog/*` packages are inlined. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      INLINED.test(args.path) ? undefined : { path: args.path, external: true },
    )
  },
}

/** Writes `file` whole or not at all: a process starting meanwhile reads the old or the new file. */
function writeAtomically(file, contents) {
  const partial = `${file}.partial-${process.pid}`
  writeFileSync(partial, contents)
  renameSync(partial, file)
}

/**
 * Builds dist/ (or `outdir`, from `entries`) and records the sources it was built from. Each
 * file is replaced atomically and the record last, so a start racing a build runs either bundle,
 * and a torn build is rebuilt.
 */
export async function bundle({ entries = ENTRIES, outdir = DIST } = {}) {
  const builtAt = Date.now()
  const esbuild = await import('esbuild')
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir,
    outExtension: { '.js': '.mjs' },
    // Code loaded by `await import()` only when configured (the Neo4j and Meilisearch clients)
    // stays in chunks of its own, so the embedded default never loads it.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [externalPackages, sourceUrls(entries)],
  })
  mkdirSync(outdir, { recursive: true })
  for (const out of result.outputFiles) writeAtomically(out.path, out.contents)
  removeOldChunks(outdir, new Set(result.outputFiles.map((out) => out.path)))
  const inputs = Object.keys(result.metafile.inputs).map((p) => relative(ROOT, resolve(ROOT, p)))
  writeAtomically(join(outdir, 'bundle.json'), `${JSON.stringify({ root: ROOT, inputs, builtAt })}\n`)
}

/** Chunks of earlier builds, once no start can still be loading them (10 minutes on). */
function removeOldChunks(outdir, current) {
  const before = Date.now() - 10 * 60_000
  for (const name of readdirSync(outdir)) {
    const file = join(outdir, name)
    if (name.startsWith('chunk-') && !current.has(file) && statSync(file).mtimeMs < before)
      rmSync(file, { force: true })
  }
}

/** Whether dist/ is missing, was built elsewhere, or is older than one of its sources (`file`: its record). */
export function isStale(file = MANIFEST) {
  let manifest
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return true
  }
  if (manifest.root !== ROOT) return true
  for (const input of manifest.inputs) {
    try {
      if (statSync(join(ROOT, input)).mtimeMs > manifest.builtAt) return true
    } catch {
      return true
    }
  }
  return false
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  await bundle()
  process.stdout.write(`bundled the servers into dist/ in ${Math.round(performance.now() - started)} ms\n`)
}
