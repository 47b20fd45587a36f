import type { FastifyBaseLogger } from 'fastify'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Bindings = Record<string, unknown>
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1]
/** A pino logger, as fastify makes or is given one. */
type PinoLike = FastifyBaseLogger & {
  isLevelEnabled(level: string): boolean
  bindings(): Bindings
}

/**
 * A request's logger that makes its pino child (with the request id binding) only when
 * something is logged through it, or its level is changed: most requests log nothing, and a
 * pino child per request costs throughput. Every line it writes carries the same bindings as
 * the child fastify would have made.
 */
class LazyChildLogger {
  private made: PinoLike | undefined

  constructor(
    private readonly parent: PinoLike,
    private readonly childBindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private real(): PinoLike {
    this.made ??= this.parent.child(this.childBindings, this.options) as PinoLike
    return this.made
  }

  private write(level: Level, args: unknown[]): void {
    // A level the parent leaves out is skipped without a child, unless this one has its own level.
    if (!this.made && this.options?.level === undefined && !this.parent.isLevelEnabled(level)) return
    ;(this.real()[level] as (...a: unknown[]) => void)(...args)
  }

  get level(): string {
    return this.made?.level ?? this.options?.level ?? this.parent.level
  }

  set level(level: string) {
    this.real().level = level
  }

  isLevelEnabled(level: string): boolean {
    return this.made || this.options?.level !== undefined
      ? this.real().isLevelEnabled(level)
      : this.parent.isLevelEnabled(level)
  }

  bindings(): Bindings {
    return this.real().bindings()
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real().child(bindings, options)
  }

  silent(...args: unknown[]): void {
    ;(this.real().silent as (...a: unknown[]) => void)(...args)
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args)
  }
  error(...args: unknown[]): void {
    this.write('error', args)
  }
  warn(...args: unknown[]): void {
    this.write('warn', args)
  }
  info(...args: unknown[]): void {
    this.write('info', args)
  }
  debug(...args: unknown[]): void {
    this.write('debug', args)
  }
  trace(...args: unknown[]): void {
    this.write('trace', args)
  }
}

/**
 * fastify's `childLoggerFactory` giving each request a {@link LazyChildLogger}; a logger that
 * is not pino's gets its child at once, as fastify's own factory does.
 */
export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  const pino = logger as Partial<PinoLike>
  if (typeof pino.isLevelEnabled !== 'function' || typeof pino.bindings !== 'function')
    return logger.child(bindings, options)
  return new LazyChildLogger(logger as PinoLike, bindings, options) as unknown as FastifyBaseLogger
}
