#!/usr/bin/env node
// The `catalog` command. The sources are TypeScript, run through tsx's loader in this process.
import { register } from 'tsx/esm/api'

register()
const { run } = await import('../src/main.ts')
const code = await run(process.argv.slice(2))
// `catalog start` keeps running (its server owns the process); everything else ends here.
if (!['start'].includes(process.argv[2] ?? '')) process.exitCode = code
else if (code !== 0) process.exit(code)
