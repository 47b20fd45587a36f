import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigSchema } from '@catalog/config'
import t from 'tap'
import { parse } from 'yaml'
import { ROOT } from './helpers/spawn.js'

/** Lints the container files: what `docker build` and `docker compose up` would run. */

const dockerfile = readFileSync(join(ROOT, 'infra/Dockerfile'), 'utf8')
const compose = parse(readFileSync(join(ROOT, 'infra/docker-compose.yml'), 'utf8'), { merge: true })
const appsOf = (text: string) =>
  JSON.parse((/^const APPS = (\[.*\])$/m.exec(text)?.[1] ?? '[]').replaceAll("'", '"')) as string[]
const apps = appsOf(readFileSync(join(ROOT, 'scripts/start.mjs'), 'utf8'))
const engines = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node as string

t.test('Dockerfile: Node 24 LTS, node as the entry point, exec form', async (t) => {
  const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1])
  t.ok(froms.length > 0)
  for (const image of froms) t.match(image, /^node:24-bookworm-slim$/, `${image} is Node 24 LTS`)
  t.match(engines, /<25/, `engines (${engines}) include Node 24`)
  const entry = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1]
  t.same(
    JSON.parse(entry ?? 'null'),
    ['node', '--max-semi-space-size=8', '--heap-growing-percent=50', 'infra/app.mjs'],
    'node runs the app, not npm, with the server flags npm start gives',
  )
  const cmd = JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1] ?? 'null') as string[]
  t.ok(apps.includes(cmd[0] as string), `default command ${cmd[0]} is an app`)
  t.notMatch(dockerfile, /^(RUN|CMD|ENTRYPOINT)\s+[^[].*\bnpm (start|run)\b/m, 'no npm at run time')
  t.match(dockerfile, /^USER node$/m, 'an unprivileged user')
  t.match(dockerfile, /^\s+MALLOC_ARENA_MAX=2$/m, "glibc's allocator held to two arenas")
})

t.test('compose: every app command exists, every setting is one the catalog reads', async (t) => {
  t.same(apps.sort(), ['all-in-one', 'gateway', 'metadata-service', 'search-service'])
  const known = new Set([...Object.keys(ConfigSchema.properties), 'HEALTHCHECK_URL'])
  for (const [name, service] of Object.entries(compose.services as Record<string, Record<string, unknown>>)) {
    if (!(service.image as string | undefined)?.startsWith('datahub-catalog')) continue
    const [command] = service.command as string[]
    t.ok(apps.includes(command as string), `${name}: command ${command}`)
    t.equal(service.init, true, `${name}: an init process forwards signals`)
    const unknown = Object.keys(service.environment as object).filter((k) => !known.has(k))
    t.same(unknown, [], `${name}: settings are known`)
    t.ok(service.healthcheck || dockerfile.includes('HEALTHCHECK'), `${name}: health-checked`)
  }
})
