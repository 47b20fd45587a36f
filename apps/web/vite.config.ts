import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const MODEL = fileURLToPath(
  new URL('../../packages/core/src/registry/model/datahub-model.json', import.meta.url),
)
const FACTS = 'virtual:model-facts'

interface ModelFile {
  entities: { name: string; aspects: string[] }[]
  aspects: Record<string, { timeseries?: true; relationships?: { name: string; entityTypes: string[] }[] }>
}

/**
 * `virtual:model-facts`: per entity type, the relationship names of its own aspects (outgoing),
 * those that can point at it (incoming) and its time-series aspects, read from the registry's
 * model file at build time, so the UI asks the API for exactly the model's names.
 */
function modelFacts(): Plugin {
  return {
    name: 'catalog-model-facts',
    resolveId: (id) => (id === FACTS ? `\0${FACTS}` : null),
    load(id) {
      if (id !== `\0${FACTS}`) return null
      const model = JSON.parse(readFileSync(MODEL, 'utf8')) as ModelFile
      const outgoing: Record<string, string[]> = {}
      const incoming: Record<string, Set<string>> = {}
      const timeseries: Record<string, string[]> = {}
      for (const entity of model.entities) {
        const names = new Set<string>()
        for (const aspectName of entity.aspects) {
          const aspect = model.aspects[aspectName]
          if (aspect?.timeseries) timeseries[entity.name] = [...(timeseries[entity.name] ?? []), aspectName]
          for (const rel of aspect?.relationships ?? []) {
            names.add(rel.name)
            for (const target of rel.entityTypes) {
              const set = incoming[target] ?? new Set()
              set.add(rel.name)
              incoming[target] = set
            }
          }
        }
        outgoing[entity.name] = [...names].sort()
      }
      const sorted = Object.fromEntries(Object.entries(incoming).map(([k, v]) => [k, [...v].sort()]))
      return `export default ${JSON.stringify({ outgoing, incoming: sorted, timeseries })}`
    },
  }
}

/** Built into `dist/` at `npm install`; the gateway serves it at `/` and `/api/graphiql` (assets under `/assets/`). */
export default defineConfig({
  plugins: [react(), modelFacts()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // Two pages: the app, and GraphiQL (served by the gateway at /api/graphiql).
    rollupOptions: { input: { index: 'index.html', graphiql: 'graphiql.html' } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/aspects': 'http://127.0.0.1:8080' } },
})
