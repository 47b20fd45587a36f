import { defineConfig, mergeConfig } from 'vitest/config'
import viteConfig from './vite.config.js'

/**
 * Component tests (`src/**\/*.test.tsx`) in happy-dom, with the app's Vite plugins (React, the
 * model facts). The `.test.ts` unit tests of `src/lib` stay with tap.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'happy-dom',
      include: ['src/**/*.test.tsx'],
      setupFiles: ['src/test/setup.ts'],
      unstubGlobals: true,
      // The files share one environment (the setup file cleans up after each test): 2 s, not 8.
      isolate: false,
    },
  }),
)
