// `npm install` builds tap's runner with the plugins package.json configures (TypeScript through
// tsx, not tap's own TypeScript plugin). Otherwise tap rebuilds it during the first test run,
// and that whole first run still loads the plugins tap shipped with. Skipped when tap is not
// installed (an install without dev dependencies).
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const bin = join(root, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs')
if (existsSync(bin)) execFileSync(process.execPath, [bin, 'build'], { cwd: root, stdio: 'inherit' })
else process.stdout.write('tap is not installed: its runner was not built\n')
