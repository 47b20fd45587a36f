import { ForbiddenError, InvalidInputError, NotFoundError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type EntitySource, type Mapped, obj, ownership, ref, str } from '../mappers/common.js'
import { mapEntries, REQUEST_INPUT } from '../mappers/ingestion.js'
import type { FacetFilter } from './search-input.js'
import { listEntities, requirePlatformPrivilege } from './users-groups.js'

export const SOURCE_INFO = 'dataHubIngestionSourceInfo'
export const SECRET_VALUE = 'dataHubSecretValue'
/** DataHub's page size of its ingestion lists when `count` is not given. */
const DEFAULT_COUNT = 20
/** DataHub's page size of an ingestion source's `executions` when `count` is not given. */
const EXECUTIONS_COUNT = 10
/** The executor an ingestion source names when its config names none (DataHub's default). */
const DEFAULT_EXECUTOR = 'default'

interface Page {
  readonly start?: number | null
  readonly count?: number | null
}

interface ListInput extends Page {
  readonly query?: string | null
  readonly filters?: readonly FacetFilter[] | null
  readonly sort?: { readonly field: string; readonly sortOrder?: 'ASCENDING' | 'DESCENDING' | null } | null
}

/**
 * One page of the execution requests of ingestion source `urn` (its `ingestionSource` search
 * field), newest first by request time; with `status`, only those that ended so.
 */
async function sourceExecutions(ctx: CatalogContext, urn: string, page: Page, status?: string) {
  const and = [{ field: 'ingestionSource', values: [urn] }]
  if (status) and.push({ field: 'executionResultStatus', values: [status] })
  const { urns, ...rest } = await listEntities(
    ctx,
    'dataHubExecutionRequest',
    { start: page.start, count: page.count ?? EXECUTIONS_COUNT, orFilters: [{ and }] },
    [{ field: 'requestTimeMs', order: 'DESCENDING' }],
  )
  return { ...rest, executionRequests: urns.map((u): EntitySource => ({ urn: u })) }
}

/**
 * `IngestionSource` as DataHub's IngestionSourceMapper: type, name, schedule, platform, config
 * (an executor of `default` when it names none), ownership and source; its `executions` (DataHub's
 * IngestionSourceExecutionRequestsResolver: 10 per page, newest first) and latest successful
 * execution are read when selected. Null without its info aspect.
 */
function ingestionSource(urn: string, info: AspectValue | undefined, owners?: AspectValue): Mapped | null {
  if (!info) return null
  const config = obj(info.config)
  const schedule = obj(info.schedule)
  const source = obj(info.source)
  return {
    urn,
    type: str(info.type),
    name: str(info.name),
    schedule: schedule ? { interval: str(schedule.interval), timezone: str(schedule.timezone) } : null,
    platform: ref(info.platform, ['dataPlatform']) ?? null,
    config: {
      recipe: str(config?.recipe),
      executorId: str(config?.executorId) ?? DEFAULT_EXECUTOR,
      version: str(config?.version),
      debugMode: typeof config?.debugMode === 'boolean' ? config.debugMode : null,
      extraArgs: mapEntries(config?.extraArgs),
    },
    executions: (args: Page, ctx: CatalogContext) => sourceExecutions(ctx, urn, args),
    latestSuccessfulExecution: async (_args: unknown, ctx: CatalogContext) =>
      (await sourceExecutions(ctx, urn, { start: 0, count: 1 }, 'SUCCESS')).executionRequests[0] ?? null,
    ownership: ownership(owners, urn),
    source: source && typeof source.type === 'string' ? { type: source.type } : null,
  }
}

/** The ingestion sources of `urns` as GraphQL answers them, in order (those without info left out). */
async function loadIngestionSources(ctx: CatalogContext, urns: readonly string[]): Promise<Mapped[]> {
  if (urns.length === 0) return []
  const found = await ctx.client.getEntities(urns, [SOURCE_INFO, 'ownership'])
  return urns
    .map((urn) =>
      ingestionSource(urn, found.get(urn)?.aspects[SOURCE_INFO], found.get(urn)?.aspects.ownership),
    )
    .filter((s): s is Mapped => s !== null)
}

/** `ExecutionRequest.source`: the ingestion source the request ran, when it names one that exists. */
async function executionRequestSource(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  await requirePlatformPrivilege(ctx, 'MANAGE_INGESTION')
  const input = (await ctx.graph.loader.load(source.urn)).aspects[REQUEST_INPUT]
  const urn = str(obj(input?.source)?.ingestionSource)
  return urn ? ((await loadIngestionSources(ctx, [urn]))[0] ?? null) : null
}

/** A field of an execution request answered to ingestion managers only (`entity(urn)` reaches any). */
function managersOnly(field: 'input' | 'result') {
  return async (source: EntitySource, _args: unknown, ctx: CatalogContext) => {
    await requirePlatformPrivilege(ctx, 'MANAGE_INGESTION')
    return (await ctx.graph.object(source.urn))[field]
  }
}

/**
 * The fields of `ExecutionRequest` holding a recipe or a report (and its source's recipe): as
 * `executionRequest(urn)`, MANAGE_INGESTION, however the request was reached.
 */
export const executionRequestFields = {
  input: managersOnly('input'),
  result: managersOnly('result'),
  source: executionRequestSource,
}

/** An ingestion source or execution request URN from input: a 400 when malformed or of another type. */
export function urnOf(ctx: CatalogContext, urn: string, entityType: string): string {
  let parsed: ReturnType<CatalogContext['registry']['resolveUrn']>
  try {
    parsed = ctx.registry.resolveUrn(urn)
  } catch {
    throw new InvalidInputError(`Malformed urn ${urn} provided.`)
  }
  if (parsed.entity.name !== entityType) throw new InvalidInputError(`Malformed urn ${urn} provided.`)
  return parsed.urn
}

/** The sort of DataHub's ListIngestionSourcesResolver: by name means by type, then name. */
function sourceSort(sort: ListInput['sort']) {
  if (!sort) return undefined
  const order = sort.sortOrder ?? 'ASCENDING'
  return sort.field === 'name'
    ? [
        { field: 'type', order },
        { field: 'name', order },
      ]
    : [{ field: sort.field, order }]
}

/**
 * DataHub's ListIngestionSourcesResolver: the ingestion sources matching `query` and `filters`
 * (the UI's own filters leave out system and CLI sources), 20 per page; MANAGE_INGESTION.
 */
async function listIngestionSources(_: unknown, args: { input: ListInput }, ctx: CatalogContext) {
  if (ctx.authorizer && !(await ctx.authorizer.authorize(ctx.actor, [{ anyOf: ['MANAGE_INGESTION'] }]))) {
    throw new ForbiddenError(
      'You are not authorized to list ingestion sources. Please contact your DataHub administrator.',
    )
  }
  const { input } = args
  const { urns, ...page } = await listEntities(
    ctx,
    'dataHubIngestionSource',
    {
      start: input.start,
      count: input.count ?? DEFAULT_COUNT,
      query: input.query,
      orFilters: input.filters?.length ? [{ and: input.filters }] : null,
    },
    sourceSort(input.sort),
  )
  return { ...page, ingestionSources: await loadIngestionSources(ctx, urns) }
}

/** DataHub's GetIngestionSourceResolver: one ingestion source; MANAGE_INGESTION. */
async function ingestionSourceQuery(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  await requirePlatformPrivilege(ctx, 'MANAGE_INGESTION')
  const urn = urnOf(ctx, args.urn, 'dataHubIngestionSource')
  const [source] = await loadIngestionSources(ctx, [urn])
  if (!source) throw new NotFoundError(`Failed to find Ingestion Source with urn ${urn}`)
  return source
}

/**
 * DataHub's ListExecutionRequestsResolver: the execution requests matching `query` and `filters`,
 * newest first unless sorted otherwise, 20 per page. DataHub checks no privilege here; this
 * catalog asks MANAGE_INGESTION, as for one request (their recipes and reports are an admin's).
 */
async function listExecutionRequests(
  _: unknown,
  args: { input: ListInput & { readonly systemSources?: boolean | null } },
  ctx: CatalogContext,
) {
  await requirePlatformPrivilege(ctx, 'MANAGE_INGESTION')
  const { input } = args
  const and: FacetFilter[] = [...(input.filters ?? [])]
  if (input.systemSources != null) {
    const system = await listEntities(ctx, 'dataHubIngestionSource', {
      start: 0,
      count: 1000,
      orFilters: [{ and: [{ field: 'sourceType', values: ['SYSTEM'] }] }],
    })
    if (system.urns.length > 0) {
      and.push({ field: 'ingestionSource', values: system.urns, negated: !input.systemSources })
    } else if (input.systemSources) {
      return { start: input.start ?? 0, count: 0, total: 0, executionRequests: [] }
    }
  }
  const { urns, ...page } = await listEntities(
    ctx,
    'dataHubExecutionRequest',
    {
      start: input.start,
      count: input.count ?? DEFAULT_COUNT,
      query: input.query,
      orFilters: and.length > 0 ? [{ and }] : null,
    },
    [
      input.sort
        ? { field: input.sort.field, order: input.sort.sortOrder ?? 'ASCENDING' }
        : { field: 'requestTimeMs', order: 'DESCENDING' },
    ],
  )
  return { ...page, executionRequests: urns.map((u): EntitySource => ({ urn: u })) }
}

/** DataHub's GetIngestionExecutionRequestResolver: one execution request; MANAGE_INGESTION. */
async function executionRequest(
  _: unknown,
  args: { urn: string },
  ctx: CatalogContext,
): Promise<EntitySource> {
  await requirePlatformPrivilege(ctx, 'MANAGE_INGESTION')
  const urn = urnOf(ctx, args.urn, 'dataHubExecutionRequest')
  const loaded = await ctx.graph.loader.load(urn)
  if (!loaded.aspects[REQUEST_INPUT])
    throw new NotFoundError(`Failed to find Execution Request with urn ${urn}`)
  return { urn }
}

/** DataHub's ListSecretsResolver: names and descriptions, newest first, never a value; MANAGE_SECRETS. */
async function listSecrets(_: unknown, args: { input: ListInput }, ctx: CatalogContext) {
  await requirePlatformPrivilege(ctx, 'MANAGE_SECRETS')
  const { input } = args
  const { urns, ...page } = await listEntities(
    ctx,
    'dataHubSecret',
    { start: input.start, count: input.count ?? DEFAULT_COUNT, query: input.query },
    [{ field: 'createdTime', order: 'DESCENDING' }],
  )
  const found = urns.length > 0 ? await ctx.client.getEntities(urns, [SECRET_VALUE]) : new Map()
  const secrets = urns.flatMap((urn) => {
    const value = found.get(urn)?.aspects[SECRET_VALUE]
    return value ? [{ urn, name: str(value.name), description: str(value.description) }] : []
  })
  return { ...page, secrets }
}

/** DataHub's GetSecretValuesResolver: the decrypted values of the named secrets that exist; MANAGE_SECRETS. */
async function getSecretValues(
  _: unknown,
  args: { input: { secrets: readonly string[] } },
  ctx: CatalogContext,
) {
  await requirePlatformPrivilege(ctx, 'MANAGE_SECRETS')
  const cipher = ctx.tokens?.cipher
  if (!cipher)
    throw new InvalidInputError('Secret values are not available: this server has no encryption key')
  const urns = [...new Set(args.input.secrets)].map((name) =>
    urnOf(ctx, `urn:li:dataHubSecret:${name}`, 'dataHubSecret'),
  )
  const found = urns.length > 0 ? await ctx.client.getEntities(urns, [SECRET_VALUE]) : new Map()
  return urns.flatMap((urn) => {
    const value = found.get(urn)?.aspects[SECRET_VALUE]
    return value && typeof value.value === 'string'
      ? [{ name: str(value.name), value: cipher.decrypt(value.value) }]
      : []
  })
}

export const ingestionQueries = {
  listIngestionSources,
  ingestionSource: ingestionSourceQuery,
  listExecutionRequests,
  executionRequest,
  listSecrets,
  getSecretValues,
}
