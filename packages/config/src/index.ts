import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'

const Port = Type.Integer({ minimum: 0, maximum: 65535 })
const Url = Type.String({ pattern: '^https?://' })

/** Every setting, read once at boot from the environment. `.env.example` lists them all. */
export const ConfigSchema = Type.Object({
  PORT: Port,
  HOST: Type.String(),
  CATALOG_DATA_DIR: Type.String({ minLength: 1 }),
  CATALOG_DURABILITY: Type.Union([Type.Literal('full'), Type.Literal('normal')]),
  CATALOG_MAX_BODY_BYTES: Type.Integer({ minimum: 1024 }),
  CATALOG_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
  ),
  CATALOG_LOG_REQUESTS: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  CATALOG_AUTH: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  CATALOG_TOKEN_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** DataHub's REST_API_AUTHORIZATION_ENABLED: REST reads and searches checked against the policies too. */
  CATALOG_REST_API_AUTHORIZATION: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  /** DataHub's DATAHUB_SYSTEM_CLIENT_ID: the id DataHub's frontend authenticates to GMS with. */
  CATALOG_SYSTEM_CLIENT_ID: Type.String({ pattern: '^[A-Za-z0-9_.@-]{1,128}$' }),
  /** DataHub's DATAHUB_SYSTEM_CLIENT_SECRET; unset: `Authorization: Basic` system credentials are refused. */
  CATALOG_SYSTEM_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /** DataHub's SECRET_SERVICE_ENCRYPTION_KEY: encrypts native users' salts and invite tokens (default: the token secret). */
  CATALOG_SECRET_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** DataHub's SESSION_TOKEN_DURATION_MS: lifetime of the session tokens minted for its frontend. */
  CATALOG_SESSION_TOKEN_TTL_MS: Type.Integer({ minimum: 60_000 }),
  CATALOG_STORE: Type.Union([Type.Literal('sqlite'), Type.Literal('neo4j')]),
  CATALOG_SEARCH: Type.Union([Type.Literal('sqlite'), Type.Literal('meilisearch')]),
  CATALOG_METADATA_URL: Type.Optional(Url),
  CATALOG_SEARCH_URL: Type.Optional(Url),
  CATALOG_LINEAGE_MAX_HOPS: Type.Integer({ minimum: 1, maximum: 100 }),
  CATALOG_LINEAGE_MAX_NODES: Type.Integer({ minimum: 1 }),
  CATALOG_LINEAGE_TIME_BUDGET_MS: Type.Integer({ minimum: 1 }),
  CATALOG_SEARCH_TIME_BUDGET_MS: Type.Integer({ minimum: 1 }),
  CATALOG_MAX_INFLIGHT_WRITES: Type.Integer({ minimum: 0 }),
  CATALOG_MAX_LOOP_LAG_MS: Type.Integer({ minimum: 0 }),
  /** Native heap tuning: glibc's malloc_trim after bursts of work, and its arena cap at start (http-kit's native-heap-trim.ts, native-malloc-options.ts). */
  CATALOG_NATIVE_HEAP_TRIM: Type.Union([Type.Literal('on'), Type.Literal('off')]),
  /** While the process stays busy, a native heap trim at most this often. */
  CATALOG_NATIVE_HEAP_TRIM_BUSY_MS: Type.Integer({ minimum: 1000 }),
  CATALOG_SEARCH_PORT: Port,
  CATALOG_METADATA_PORT: Port,
  NEO4J_URI: Type.Optional(Type.String({ pattern: '^(neo4j|bolt)(\\+s|\\+ssc)?://' })),
  NEO4J_USER: Type.String(),
  NEO4J_PASSWORD: Type.Optional(Type.String()),
  NEO4J_DATABASE: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9.-]{2,62}$' })),
  MEILI_URL: Type.Optional(Url),
  MEILI_KEY: Type.Optional(Type.String()),
  MEILI_INDEX: Type.String({ pattern: '^[A-Za-z0-9_-]{1,400}$' }),
})
export type Config = Static<typeof ConfigSchema>

const DEFAULTS: Record<string, string> = {
  PORT: '8080',
  HOST: '0.0.0.0',
  CATALOG_DATA_DIR: './data',
  CATALOG_DURABILITY: 'full',
  CATALOG_MAX_BODY_BYTES: String(16 * 1024 * 1024),
  CATALOG_LOG_LEVEL: 'info',
  CATALOG_LOG_REQUESTS: 'off',
  CATALOG_AUTH: 'on',
  CATALOG_REST_API_AUTHORIZATION: 'on',
  CATALOG_SYSTEM_CLIENT_ID: '__datahub_system',
  CATALOG_SESSION_TOKEN_TTL_MS: '2592000000',
  CATALOG_STORE: 'sqlite',
  CATALOG_SEARCH: 'sqlite',
  CATALOG_LINEAGE_MAX_HOPS: '10',
  CATALOG_LINEAGE_MAX_NODES: '10000',
  CATALOG_LINEAGE_TIME_BUDGET_MS: '2000',
  CATALOG_SEARCH_TIME_BUDGET_MS: '10000',
  CATALOG_MAX_INFLIGHT_WRITES: '64',
  CATALOG_MAX_LOOP_LAG_MS: '500',
  CATALOG_NATIVE_HEAP_TRIM: 'on',
  CATALOG_NATIVE_HEAP_TRIM_BUSY_MS: '10000',
  CATALOG_METADATA_PORT: '8081',
  CATALOG_SEARCH_PORT: '8082',
  NEO4J_USER: 'neo4j',
  MEILI_INDEX: 'catalog',
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * Reads and validates the configuration. Fails fast with every bad setting named, one line
 * each, with the allowed values, so a typo never starts a server with a surprising default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key] !== undefined && env[key] !== '' ? env[key] : DEFAULTS[key]
    if (value !== undefined) raw[key] = value
  }
  const converted = Value.Convert(ConfigSchema, raw)
  const problems = new Map<string, string>()
  for (const e of Value.Errors(ConfigSchema, converted)) {
    const key = e.instancePath.slice(1)
    if (!problems.has(key))
      problems.set(key, `${key}=${JSON.stringify(raw[key])}: ${expectation(key, e.message)}`)
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()].join('\n'))
  const config = converted as Config
  if (config.CATALOG_STORE === 'neo4j' && !config.NEO4J_URI)
    throw new ConfigError('CATALOG_STORE=neo4j needs NEO4J_URI')
  if (config.CATALOG_SEARCH === 'meilisearch' && !config.MEILI_URL)
    throw new ConfigError('CATALOG_SEARCH=meilisearch needs MEILI_URL')
  return { ...config, CATALOG_DATA_DIR: resolve(config.CATALOG_DATA_DIR) }
}

/** What a setting accepts: the allowed values of an enum, else the schema's message. */
function expectation(key: string, message: string): string {
  const schema = (ConfigSchema.properties as Record<string, { anyOf?: Array<{ const?: unknown }> }>)[key]
  const literals = schema?.anyOf?.map((s) => s.const)
  return literals ? `expected one of ${literals.join(', ')}` : message
}

/**
 * Loads `.env` (or the file `CATALOG_ENV_FILE` names) into the environment if it exists;
 * variables already set win over the file, as with `node --env-file`.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): void {
  const file = env.CATALOG_ENV_FILE ?? '.env'
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !env.CATALOG_ENV_FILE) return
    throw new ConfigError(`CATALOG_ENV_FILE=${JSON.stringify(file)}: ${(err as Error).message}`)
  }
  for (const [key, value] of Object.entries(parseEnv(text))) if (env[key] === undefined) env[key] = value
}

/**
 * The configuration of an entry point: `.env` loaded, then validated. A bad setting prints one
 * line per problem on stderr and exits with status 2, with no stack trace.
 */
export function configOrExit(): Config {
  try {
    loadEnvFile()
    return loadConfig()
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    for (const line of err.message.split('\n'))
      process.stderr.write(`catalog: invalid configuration: ${line}\n`)
    process.exit(2)
  }
}

/** The system client settings `bootstrapAuth` takes, when a system client secret is configured. */
export function systemClientOf(config: Config): {
  systemClient?: { id: string; secret: string }
  encryptionKey?: string
} {
  return {
    ...(config.CATALOG_SYSTEM_CLIENT_SECRET
      ? { systemClient: { id: config.CATALOG_SYSTEM_CLIENT_ID, secret: config.CATALOG_SYSTEM_CLIENT_SECRET } }
      : {}),
    ...(config.CATALOG_SECRET_ENCRYPTION_KEY ? { encryptionKey: config.CATALOG_SECRET_ENCRYPTION_KEY } : {}),
  }
}
