import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** Built into `dist/` at `npm install`; the gateway serves it at `/` (assets under `/assets/`). */
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/aspects': 'http://127.0.0.1:8080' } },
})
