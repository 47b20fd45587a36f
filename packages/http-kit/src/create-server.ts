import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { InvalidInputError } from '@catalog/core'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify'
import { actionConstraint } from './action-constraint.js'
import { type AdmissionOptions, admissionGate } from './admission.js'
import { DeferredSchemas, type WarmResult } from './deferred-schemas.js'
import { restliError, toRestliError } from './error-body.js'
import { installJsonBodyParser } from './json-body-parser.js'
import { lazyChildLoggerFactory } from './lazy-child-logger.js'
import { checksLargeBodies, warmForLargeBody } from './warm-on-large-body.js'

export interface ServerOptions {
  readonly logger?: FastifyServerOptions['logger'] | FastifyBaseLogger
  /** Largest accepted request body in bytes (413 above). */
  readonly bodyLimit?: number
  /** Log every request at info level (otherwise only at debug level). */
  readonly logRequests?: boolean
  /** Admission control (429 + Retry-After under overload); `false` turns it off. */
  readonly admission?: AdmissionOptions | false
}

const deferred = new WeakMap<object, DeferredSchemas>()

/**
 * Compiles every route schema of a server made by {@link createServer} that no request has
 * compiled yet (a listening server does so by itself).
 */
export function warmRouteSchemas(app: FastifyInstance): Promise<WarmResult> {
  const schemas = deferred.get(app)
  return schemas ? schemas.warm(app.log) : Promise.resolve({ compiled: 0, failed: 0 })
}

/** The header that carries a request's id in and out, and between services in split mode. */
export const REQUEST_ID_HEADER = 'x-request-id'
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/

/** The caller's `x-request-id` when it is a sane token (printable, at most 128 characters), else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

export type CatalogServer = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

/**
 * A fastify instance with the conventions every app shares: Rest.li action constraint,
 * DataHub error bodies for every error and unknown route, TypeBox type provider.
 */
export function createServer(options: ServerOptions = {}): CatalogServer {
  const logger = options.logger ?? false
  const schemas = new DeferredSchemas()
  const app = Fastify({
    ...(typeof logger === 'object' && logger !== null && 'child' in logger
      ? { loggerInstance: logger as FastifyBaseLogger }
      : { logger: logger as FastifyServerOptions['logger'] }),
    bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
    // Every log line of a request carries its id as `reqId`; the id is answered in `x-request-id`.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // The child logger with the request id is made only when the request logs something.
    childLoggerFactory: lazyChildLoggerFactory,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 4096,
      constraints: { action: actionConstraint },
    },
    // Per-request log lines cost throughput; requests are logged at debug level instead.
    logController: new LogController({ disableRequestLogging: true }),
    requestTimeout: 120_000,
    // Shutdown closes idle keep-alive connections itself, without racing a client's next request.
    forceCloseConnections: false,
    // A URL fastify cannot decode (`%`, `%ED%A0%80`) gets DataHub's error body, as every error does.
    frameworkErrors: (err, _request, reply) => {
      const body = toRestliError(err)
      ;(reply as FastifyReply).status(body.status).send(body)
    },
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false },
    },
    schemaController: schemas.controller(),
  }).withTypeProvider<TypeBoxTypeProvider>()
  deferred.set(app, schemas)
  // Route schemas compile at first use; a listening server compiles the rest in short steps.
  app.addHook('onListen', function (done) {
    void schemas.warm(this.log)
    done()
  })
  app.addHook('onClose', (_instance, done) => {
    schemas.stop()
    done()
  })
  installErrorHandling(app)
  // Routes list their large-body warm-ups; the request hook below makes them.
  checksLargeBodies(app)
  installJsonBodyParser(app)
  // Hooks on every request are callback-style, not async: no promise per hook and request.
  app.addHook('preHandler', (request, _reply, done) => done(nonFiniteParameter(request)))
  // One hook for what every request needs first (each hook costs a step of fastify's runner):
  // its id answered, admission (a 429 answers at once, without `done`), large-body warm-ups.
  const gate = options.admission === false ? undefined : admissionGate(app, options.admission ?? {})
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    if (gate !== undefined && !gate.admit(request, reply)) return
    warmForLargeBody(request)
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    if (options.logRequests || request.log.level === 'debug' || request.log.level === 'trace') {
      request.log[options.logRequests ? 'info' : 'debug'](
        { method: request.method, url: request.url, status: reply.statusCode, ms: reply.elapsedTime },
        'request',
      )
    }
    done()
  })
  return app
}

/**
 * Schema coercion turns `limit=1e400` into `Infinity`, which passes an integer schema with a
 * maximum; a number that is not finite is refused here, in the query and at the top of a JSON
 * body (`{"count": 1e400}`), before it reaches a service.
 */
function nonFiniteParameter(request: FastifyRequest): InvalidInputError | undefined {
  return nonFiniteIn('query parameter', request.query) ?? nonFiniteIn('parameter', request.body)
}

function nonFiniteIn(where: string, values: unknown): InvalidInputError | undefined {
  // A body read as bytes holds no parameters: walking a 9 MB buffer's indexes took seconds.
  if (values === null || typeof values !== 'object' || Array.isArray(values) || ArrayBuffer.isView(values))
    return undefined
  for (const name in values) {
    if (!Object.hasOwn(values, name)) continue
    const value = (values as Record<string, unknown>)[name]
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return new InvalidInputError(`Invalid ${where} '${name}': must be a finite number`)
    }
  }
  return undefined
}

/** DataHub error bodies for thrown errors and unknown routes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const body = toRestliError(err)
    if (body.status >= 500) request.log.error({ err }, 'request failed')
    if (body.status === 429) reply.header('retry-after', '1')
    return reply.status(body.status).send(body)
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]
    return reply.status(404).send(restliError(404, `No root resource defined for path '${path}'`))
  })
}
