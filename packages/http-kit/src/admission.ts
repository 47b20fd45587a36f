import type { Config } from '@catalog/config'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { restliError } from './error-body.js'

export interface AdmissionOptions {
  /**
   * Most write requests (any method but GET, HEAD and OPTIONS) in flight at once, counted from
   * their arrival to the end of their response, across event-loop turns. One more answers 429
   * with `Retry-After` at once, before its body is read. Default 64 (measured: more only
   * lengthens the queue; see `npm run bench -- overload`); 0 turns the bound off.
   */
  readonly maxInFlightWrites?: number
  /**
   * Event-loop delay (ms), seen in two samples in a row, above which new requests (reads too)
   * are shed with 429 until the loop catches up. Default 500; 0 turns the bound off.
   */
  readonly maxEventLoopDelayMs?: number
  /** Seconds a refused client is told to wait (`Retry-After`). Default 1. */
  readonly retryAfterSeconds?: number
  /** Paths never refused (health, readiness, metrics). */
  readonly exempt?: readonly string[]
}

/** The admission bounds the configuration sets (`CATALOG_MAX_INFLIGHT_WRITES`, `CATALOG_MAX_LOOP_LAG_MS`). */
export function admissionFromConfig(
  config: Pick<Config, 'CATALOG_MAX_INFLIGHT_WRITES' | 'CATALOG_MAX_LOOP_LAG_MS'>,
): AdmissionOptions {
  return {
    maxInFlightWrites: config.CATALOG_MAX_INFLIGHT_WRITES,
    maxEventLoopDelayMs: config.CATALOG_MAX_LOOP_LAG_MS,
  }
}

const DEFAULT_EXEMPT = ['/health', '/ready', '/metrics']
const SAMPLE_MS = 50

/** The admission state, readable for metrics and tests. */
export interface AdmissionState {
  readonly inFlightWrites: number
  /** The smaller of the last two sampled event-loop delays, ms. */
  readonly eventLoopDelayMs: number
  readonly refused: number
}

/** Admission as one check a request hook makes: false when it answered 429 itself. */
export interface AdmissionGate {
  readonly state: AdmissionState
  readonly admit: (request: FastifyRequest, reply: FastifyReply) => boolean
}

/**
 * Admission control: bounds the write requests in flight and sheds load while the event loop
 * lags, answering DataHub's error body with status 429 and `Retry-After` instead of letting
 * requests queue until clients time out or connections reset. Exempt paths (`/health`) are
 * never refused. Returns a live view of the counters.
 */
export function installAdmission(app: FastifyInstance, options: AdmissionOptions = {}): AdmissionState {
  const gate = admissionGate(app, options)
  // Callback-style (no promise per request); an early answer is sent without calling `done`.
  app.addHook('onRequest', (request, reply, done) => {
    if (gate.admit(request, reply)) done()
  })
  return gate.state
}

/**
 * The check of {@link installAdmission} without its hook, for a server that makes it in a
 * request hook of its own (one hook per request instead of several): `admit` answers 429 and
 * returns false, or counts a write until its response closes and returns true.
 */
export function admissionGate(app: FastifyInstance, options: AdmissionOptions = {}): AdmissionGate {
  const maxWrites = options.maxInFlightWrites ?? 64
  const maxDelay = options.maxEventLoopDelayMs ?? 500
  const retryAfter = String(options.retryAfterSeconds ?? 1)
  const exempt = new Set(options.exempt ?? DEFAULT_EXEMPT)
  const state = { inFlightWrites: 0, eventLoopDelayMs: 0, refused: 0 }

  // The delay of the last two samples: one long turn (boot, a big write) is not overload; a
  // loop that lags sample after sample is.
  let last = performance.now()
  let previousDelay = 0
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    last = performance.now()
    timer = setInterval(() => {
      const now = performance.now()
      const delay = Math.max(0, now - last - SAMPLE_MS)
      state.eventLoopDelayMs = Math.min(delay, previousDelay)
      previousDelay = delay
      last = now
    }, SAMPLE_MS)
    timer.unref()
  })
  app.addHook('onClose', async () => clearInterval(timer))

  // The path is cut out of the URL only when its length is that of an exempt path.
  const lengths = new Set([...exempt].map((path) => path.length))
  const isExempt = (request: FastifyRequest) => {
    const url = request.url
    const q = url.indexOf('?')
    const length = q < 0 ? url.length : q
    return lengths.has(length) && exempt.has(length === url.length ? url : url.slice(0, length))
  }

  const admit = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const method = request.raw.method as string
    const isWrite = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
    const lagging = maxDelay > 0 && state.eventLoopDelayMs > maxDelay
    const full = isWrite && maxWrites > 0 && state.inFlightWrites >= maxWrites
    if ((lagging || full) && !isExempt(request)) {
      state.refused++
      reply.header('retry-after', retryAfter)
      reply
        .status(429)
        .send(
          restliError(
            429,
            lagging
              ? `the server is overloaded (event loop delay ${Math.round(state.eventLoopDelayMs)} ms); retry after ${retryAfter} s`
              : `too many writes in flight (limit ${maxWrites}); retry after ${retryAfter} s`,
          ),
        )
      return false
    }
    // Exempt paths are not counted either (none of them is a write).
    if (!isWrite || isExempt(request)) return true
    state.inFlightWrites++
    // A response closes once (answered or cut).
    reply.raw.on('close', () => {
      state.inFlightWrites--
    })
    return true
  }
  return { state, admit }
}
