import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError, UnavailableError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { SECRET_VALUE, SOURCE_INFO, urnOf } from '../resolvers/ingestion.js'
import { compareAndSet } from './compare-and-set.js'
import { cipherOf, currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

interface SourceInput {
  readonly name: string
  readonly type: string
  readonly description?: string | null
  readonly schedule?: { readonly interval: string; readonly timezone: string } | null
  readonly config: {
    readonly recipe: string
    readonly version?: string | null
    readonly executorId: string
    readonly debugMode?: boolean | null
    readonly extraArgs?: ReadonlyArray<{ readonly key: string; readonly value?: string | null }> | null
  }
}

/** The ranges of a cron schedule's five fields, and the names the month and weekday fields take. */
const CRON_FIELDS: ReadonlyArray<{ name: string; min: number; max: number; names?: readonly string[] }> = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: 'JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC'.split(' ') },
  { name: 'day of week', min: 0, max: 7, names: 'SUN MON TUE WED THU FRI SAT'.split(' ') },
]

/** One value of a cron field: a number in range, or one of its names. */
function cronValue(text: string, field: (typeof CRON_FIELDS)[number]): number {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1
  if (named >= 0) return named + (field.name === 'month' ? 1 : 0)
  if (!/^\d+$/.test(text)) throw new Error(`'${text}' is not a valid ${field.name}`)
  const n = Number(text)
  if (n < field.min || n > field.max) {
    throw new Error(`${field.name} value ${n} is not in the range [${field.min}, ${field.max}]`)
  }
  return n
}

/**
 * DataHub's schedule check: a five-field cron expression (minute, hour, day of month, month, day
 * of week), each field `*`, `?`, values, ranges and lists, with `/step`. Throws naming what is wrong.
 */
function checkCron(interval: string): void {
  const fields = interval.trim().split(/\s+/)
  if (fields.length !== 5)
    throw new Error(`Cron expression must consist of 5 fields (found ${fields.length})`)
  fields.forEach((text, i) => {
    const field = CRON_FIELDS[i] as (typeof CRON_FIELDS)[number]
    for (const part of text.split(',')) {
      const [range = '', step, extra] = part.split('/')
      if (extra !== undefined || (step !== undefined && !/^\d+$/.test(step))) {
        throw new Error(`'${part}' is not a valid ${field.name}`)
      }
      if (range === '*' || range === '?') continue
      const [from = '', to, beyond] = range.split('-')
      if (beyond !== undefined) throw new Error(`'${part}' is not a valid ${field.name}`)
      const low = cronValue(from, field)
      if (to !== undefined && cronValue(to, field) < low) throw new Error(`'${range}' is not a valid range`)
    }
  })
}

/** DataHub's UpsertIngestionSourceResolver's `dataHubIngestionSourceInfo`, its schedule checked. */
function sourceInfo(input: SourceInput): AspectValue {
  const config: AspectValue = { recipe: input.config.recipe }
  if (input.config.version != null) config.version = input.config.version
  if (input.config.executorId != null) config.executorId = input.config.executorId
  if (input.config.debugMode != null) config.debugMode = input.config.debugMode
  if (input.config.extraArgs != null) {
    config.extraArgs = Object.fromEntries(input.config.extraArgs.map((a) => [a.key, a.value ?? '']))
  }
  const info: AspectValue = { type: input.type, name: input.name, config }
  const schedule = input.schedule
  if (schedule) {
    try {
      checkCron(schedule.interval)
    } catch (err) {
      throw new InvalidInputError(`Invalid cron schedule \`${schedule.interval}\`: ${(err as Error).message}`)
    }
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: schedule.timezone })
    } catch (err) {
      throw new InvalidInputError(`Invalid timezone \`${schedule.timezone}\`: ${(err as Error).message}`)
    }
    info.schedule = { interval: schedule.interval, timezone: schedule.timezone }
  }
  return info
}

function sourceRef(ctx: CatalogContext, urn: string): EntityRef {
  return resolveInput(ctx, urnOf(ctx, urn, 'dataHubIngestionSource'))
}

/** DataHub's UpsertIngestionSourceResolver (create): a new source, a random id; its URN. MANAGE_INGESTION. */
async function createIngestionSource(_: unknown, args: { input: SourceInput }, ctx: CatalogContext) {
  const info = sourceInfo(args.input)
  const source = sourceRef(ctx, `urn:li:dataHubIngestionSource:${randomUUID()}`)
  await write(ctx, [upsert(source, SOURCE_INFO, info)])
  return source.urn
}

/** DataHub's UpsertIngestionSourceResolver (update): the source's info replaced whole; its URN. */
async function updateIngestionSource(
  _: unknown,
  args: { urn: string; input: SourceInput },
  ctx: CatalogContext,
) {
  const source = sourceRef(ctx, args.urn)
  await write(ctx, [upsert(source, SOURCE_INFO, sourceInfo(args.input))])
  return source.urn
}

/** DataHub's DeleteIngestionSourceResolver: a hard delete of the source (its runs stay); its URN. */
async function deleteIngestionSource(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const source = sourceRef(ctx, args.urn)
  if (await ctx.client.exists(source.urn)) await write(ctx, [deleteEntity(source)])
  return source.urn
}

/** What DataHub hands to its separate executor (datahub-actions), which this catalog does not have. */
const NO_EXECUTOR =
  'This catalog does not run ingestion: it has no ingestion executor. Run the recipe with `datahub ingest -c <recipe.yml>` against this server; the run then shows in the ingestion run history.'

/** `createIngestionExecutionRequest`, `cancelIngestionExecutionRequest`, `createTestConnectionRequest`. */
function noExecutor(): never {
  throw new UnavailableError(NO_EXECUTOR)
}

/**
 * DataHub's RollbackIngestionResolver: undoes what the run wrote (its entities hard-deleted) and
 * marks the run's execution request, when there is one, ROLLING_BACK then ROLLED_BACK (or
 * ROLLBACK_FAILED). Done before answering, where DataHub answers at once; answers `"true"`.
 */
async function rollbackIngestion(_: unknown, args: { input: { runId: string } }, ctx: CatalogContext) {
  const { runId } = args.input
  const request = requestOf(ctx, runId)
  const result = request ? await currentAspect(ctx, request.urn, 'dataHubExecutionRequestResult') : undefined
  const mark = async (status: string) => {
    // A request the rollback deleted (the run wrote it) is not made again by its mark.
    if (request && result && (await ctx.client.exists(request.urn))) {
      await write(ctx, [upsert(request, 'dataHubExecutionRequestResult', { ...result, status })])
    }
  }
  await mark('ROLLING_BACK')
  try {
    await ctx.client.rollbackRun(runId, ctx.actor)
  } catch (err) {
    await mark('ROLLBACK_FAILED').catch(() => undefined) // the rollback's own error is the one answered
    throw err
  }
  await mark('ROLLED_BACK')
  ctx.graph.clear()
  return 'true'
}

/** The execution request of run `runId`; undefined when the run id makes no valid URN (a CLI run's may not). */
function requestOf(ctx: CatalogContext, runId: string): EntityRef | undefined {
  try {
    return ctx.registry.resolveUrn(`urn:li:dataHubExecutionRequest:${runId}`)
  } catch {
    return undefined
  }
}

export const ingestionMutations = {
  createIngestionSource,
  updateIngestionSource,
  deleteIngestionSource,
  createIngestionExecutionRequest: noExecutor,
  cancelIngestionExecutionRequest: noExecutor,
  createTestConnectionRequest: noExecutor,
  rollbackIngestion,
}

interface SecretInput {
  readonly urn?: string
  readonly name: string
  readonly value: string
  readonly description?: string | null
}

/**
 * DataHub's CreateSecretResolver: `urn:li:dataHubSecret:<name>`, its value encrypted as DataHub
 * does (AES-GCM, `CATALOG_SECRET_ENCRYPTION_KEY` or the signing secret), created by the caller
 * now; a name taken already is refused. Its URN. MANAGE_SECRETS.
 */
async function createSecret(_: unknown, args: { input: SecretInput }, ctx: CatalogContext) {
  const { input } = args
  const secret = resolveInput(ctx, urnOf(ctx, `urn:li:dataHubSecret:${input.name}`, 'dataHubSecret'))
  if (await ctx.client.exists(secret.urn)) throw new InvalidInputError('This Secret already exists!')
  const value: AspectValue = {
    name: input.name,
    value: cipherOf(ctx, 'Secrets').encrypt(input.value),
    created: stampOf(ctx),
  }
  if (input.description != null) value.description = input.description
  // CREATE: a secret made meanwhile by another call is not overwritten.
  await write(ctx, [{ ...upsert(secret, SECRET_VALUE, value), changeType: 'CREATE' }])
  return secret.urn
}

/** DataHub's UpdateSecretResolver: name and value replaced (description when given), creation kept. */
async function updateSecret(_: unknown, args: { input: SecretInput & { urn: string } }, ctx: CatalogContext) {
  const { input } = args
  const secret = resolveInput(ctx, urnOf(ctx, input.urn, 'dataHubSecret'))
  const encrypted = cipherOf(ctx, 'Secrets').encrypt(input.value)
  let found = false
  await compareAndSet(ctx, secret, SECRET_VALUE, (current) => {
    found = current !== undefined
    if (!current) return undefined
    const next: AspectValue = { ...current, name: input.name, value: encrypted }
    if (input.description != null) next.description = input.description
    return next
  })
  if (!found) throw new InvalidInputError(`Secret for urn ${secret.urn} doesn't exists!`)
  return secret.urn
}

/** DataHub's DeleteSecretResolver: a hard delete; its URN. */
async function deleteSecret(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const secret = resolveInput(ctx, urnOf(ctx, args.urn, 'dataHubSecret'))
  if (await ctx.client.exists(secret.urn)) await write(ctx, [deleteEntity(secret)])
  return secret.urn
}

export const secretMutations = { createSecret, updateSecret, deleteSecret }
