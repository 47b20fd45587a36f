import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler'
import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify'

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown }
type Serialize = (data: unknown) => string
/** A compiler factory as fastify calls it: shared schemas and options give a per-route compiler. */
type CompilerFactory<F> = (externalSchemas: unknown, options: unknown) => (route: unknown) => F

/** What a warm-up compiled, and how many schemas failed to compile. */
export interface WarmResult {
  readonly compiled: number
  readonly failed: number
}

/** Longest run of compiles per event-loop turn while warming. */
const WARM_TURN_MS = 8

/**
 * Route schemas compiled when first used instead of at start: fastify compiles every route's
 * validators (ajv) and response serializers (fast-json-stringify) before it listens, about
 * 0.7 s of the catalog's start. They are compiled by the same compilers with the same options;
 * {@link warm} compiles the rest in short steps once the server runs, so a route's first request
 * rarely pays its compile.
 */
export class DeferredSchemas {
  private readonly pending = new Set<() => void>()
  private stopped = false

  /** The `schemaController` option that defers every compile. */
  controller(): NonNullable<FastifyServerOptions['schemaController']> {
    // fastify's own compiler factories, the ones it uses when given none.
    const buildValidator = AjvCompiler() as unknown as CompilerFactory<Validate>
    const buildSerializer = SerializerSelector() as unknown as CompilerFactory<Serialize>
    const validators: CompilerFactory<Validate> = (externalSchemas, options) => {
      const compile = buildValidator(externalSchemas, options)
      return (route) => this.validator(() => compile(route))
    }
    const serializers: CompilerFactory<Serialize> = (externalSchemas, options) => {
      const compile = buildSerializer(externalSchemas, options)
      return (route) => this.serializer(() => compile(route))
    }
    return {
      compilersFactory: {
        buildValidator: validators as unknown as ValidatorFactory,
        buildSerializer: serializers as unknown as SerializerFactory,
      },
    }
  }

  /**
   * Compiles what no request compiled yet, a few at a time; a schema that fails is logged (its
   * route answers 500 until fixed), and counted in the result.
   */
  warm(log: FastifyBaseLogger): Promise<WarmResult> {
    const result = { compiled: 0, failed: 0 }
    return new Promise((resolve) => {
      const step = () => {
        const until = performance.now() + WARM_TURN_MS
        for (const force of this.pending) {
          if (this.stopped || performance.now() >= until) break
          this.pending.delete(force)
          try {
            force()
            result.compiled++
          } catch (err) {
            result.failed++
            log.error({ err }, 'a route schema does not compile')
          }
        }
        if (this.stopped || this.pending.size === 0) resolve(result)
        else setImmediate(step)
      }
      setImmediate(step)
    })
  }

  /** Ends a warm-up in progress (the server is closing). */
  stop(): void {
    this.stopped = true
  }

  private validator(compile: () => Validate): Validate {
    let fn: Validate | undefined
    const force = () => {
      fn ??= compile()
      this.pending.delete(force)
      return fn
    }
    this.pending.add(force)
    const validate: Validate = (data, context) => {
      const f = force()
      const ok = f(data, context)
      validate.errors = f.errors
      return ok
    }
    // fastify hands an ajv function (one with `schemaEnv`) the parent of the value, so that
    // ajv can coerce or default the value itself.
    return Object.assign(validate, { schemaEnv: true })
  }

  private serializer(compile: () => Serialize): Serialize {
    let fn: Serialize | undefined
    const force = () => {
      fn ??= compile()
      this.pending.delete(force)
      return fn
    }
    this.pending.add(force)
    return (data) => force()(data)
  }
}
