/**
 * One server of the pipeline benchmark (`lineage-pipeline.ts`), started as its own process so its
 * CPU is its own: `node --import tsx bench/lineage-pipeline-server.ts <kind>` prints
 * `PORT <n>` once it listens on 127.0.0.1. Each answers `POST /relationships?action=getLineage`
 * with the same fixed JSON (the size of a 1-hop lineage answer) after reading the body:
 * - `node`: node's bare http server, the body read and `JSON.parse`d;
 * - `fastify`: fastify with its defaults and the route's TypeBox schemas (querystring and body);
 * - `kit`: http-kit's `runServer` as the catalog runs it (logger, admission, metrics, shutdown
 *   tracking, error bodies, the action constraint), the route's full schema and `sendJsonText`;
 * - `kit-before`: the same with the http-kit sources of another build (BENCH_HTTP_KIT_BEFORE,
 *   a copy of `packages/http-kit/src` placed where node finds the repository's `node_modules`).
 */
import { createServer } from 'node:http'
import { loadConfig } from '@catalog/config'
import Fastify from 'fastify'
import pino from 'pino'
import { Type } from 'typebox'
import {
  LineageBodySchema,
  LineageResponseSchema,
} from '../apps/metadata-service/src/schemas/relationships.js'

/** The fixed answer: 1.5 KB of JSON, as a 1-hop answer of the scale benchmark. */
export const ANSWER = JSON.stringify({
  value: {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table_000001,PROD)',
    direction: 'UPSTREAM',
    maxHops: 1,
    start: 0,
    count: 3,
    total: 3,
    isPartial: false,
    relationships: [1, 2, 3].map((i) => ({
      entity: `urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00000${i}0,PROD)`,
      type: 'DownstreamOf',
      degree: 1,
      path: [
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.table_000001,PROD)',
        `urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00000${i}0,PROD)`,
      ],
    })),
    entities: [1, 2, 3].map((i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00000${i}0,PROD)`),
  },
})

const schema = {
  querystring: Type.Object({ action: Type.Literal('getLineage') }),
  body: LineageBodySchema,
}

const say = (port: number) => process.stdout.write(`PORT ${port}\n`)

async function bareNode(): Promise<void> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'))
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      response.end(ANSWER)
    })
  })
  server.listen(0, '127.0.0.1', () => say((server.address() as { port: number }).port))
}

/** Bare fastify with the route's schemas, not listening. */
export function bareFastifyApp() {
  const app = Fastify()
  app.post('/relationships', { schema }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(ANSWER),
  )
  return app
}

async function bareFastify(): Promise<void> {
  const app = bareFastifyApp()
  await app.listen({ port: 0, host: '127.0.0.1' })
  say((app.server.address() as { port: number }).port)
}

type HttpKit = typeof import('@catalog/http-kit')

/** The catalog's route on an http-kit server. */
function route(kit: HttpKit, app: import('@catalog/http-kit').CatalogServer): void {
  app.post(
    '/relationships',
    {
      constraints: { action: 'getLineage' },
      schema: {
        ...schema,
        response: { 200: Type.Object({ value: LineageResponseSchema }), 400: kit.RestliErrorSchema },
      },
    },
    async (_request, reply) => kit.sendJsonText(reply, ANSWER),
  )
}

/**
 * The http-kit server as `runServer` builds it (logger, admission, metrics), not listening: for
 * `inject`, which skips the socket and node's http parser, so only the pipeline's own work counts.
 */
export async function kitApp(from: string) {
  const kit = (await import(from)) as HttpKit
  const config = loadConfig({ ...process.env, CATALOG_LOG_LEVEL: 'info' })
  const app = kit.createServer({
    logger: pino({ level: 'info' }, pino.destination('/dev/null')),
    bodyLimit: config.CATALOG_MAX_BODY_BYTES,
    logRequests: false,
    admission: kit.admissionFromConfig(config),
  })
  kit.installMetrics(app, 'pipeline')
  route(kit, app)
  return app
}

async function kit(from: string): Promise<void> {
  const kit = (await import(from)) as HttpKit
  const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', CATALOG_LOG_LEVEL: 'info' })
  const app = await kit.runServer(config, {
    name: 'pipeline',
    port: 0,
    build: async (app) => {
      route(kit, app)
      return async () => {}
    },
  })
  say((app.server.address() as { port: number }).port)
}

/** Started as a server process (not imported by the benchmark for its in-process figures). */
async function main(kind: string | undefined): Promise<void> {
  // A profiled server writes its profile when it exits: SIGINT exits (runServer has its own).
  if (!kind?.startsWith('kit')) process.once('SIGINT', () => process.exit(0))
  if (kind === 'node') return bareNode()
  if (kind === 'fastify') return bareFastify()
  if (kind === 'kit') return kit('@catalog/http-kit')
  const before = process.env.BENCH_HTTP_KIT_BEFORE
  if (kind === 'kit-before' && before) return kit(`${before}/index.ts`)
  throw new Error(`unknown server kind ${kind} (node, fastify, kit, kit-before with BENCH_HTTP_KIT_BEFORE)`)
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv[2])
