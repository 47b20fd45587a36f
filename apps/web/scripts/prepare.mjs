// `npm install` builds the web UI: the root `prepare` runs this file when it is there. An
// install without the UI's sources or build tools (`npm ci --omit=dev` on the manifests alone,
// as the Docker image's dependency layer does) skips the build and says so; a failing build
// fails the install.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const skip = (why) => process.stdout.write(`web UI not built: ${why} (npm run build:web builds it)\n`)

if (!existsSync(join(root, 'index.html'))) {
  skip('its sources are not here')
} else {
  let vite
  try {
    vite = await import('vite')
  } catch {
    vite = undefined
  }
  if (vite) await vite.build({ root, logLevel: 'warn' })
  else skip('vite is not installed')
}
