import { randomUUID } from 'node:crypto'
import { InvalidInputError, NotFoundError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { type PatchOp, patch } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

interface StatementInput {
  readonly value: string
  readonly language: string
}

interface CreateQueryInput {
  readonly properties: {
    readonly name?: string | null
    readonly description?: string | null
    readonly statement: StatementInput
  }
  readonly subjects: ReadonlyArray<{ readonly datasetUrn: string }>
}

interface UpdateQueryInput {
  readonly properties?: {
    readonly name?: string | null
    readonly description?: string | null
    readonly statement?: StatementInput | null
  } | null
  readonly subjects?: ReadonlyArray<{ readonly datasetUrn: string }> | null
}

/** `querySubjects` of the given datasets (each a valid URN, else a 400). */
function subjectsOf(
  ctx: CatalogContext,
  subjects: ReadonlyArray<{ readonly datasetUrn: string }>,
): AspectValue {
  return { subjects: subjects.map((s) => ({ entity: resolveInput(ctx, s.datasetUrn).urn })) }
}

/** A query URN from input: a 400 when malformed or of another entity type. */
function queryRef(ctx: CatalogContext, urn: string) {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'query') throw new InvalidInputError(`${urn} is not a query urn`)
  return ref
}

/**
 * DataHub's CreateQueryResolver (QueryService.createQuery): a new MANUAL query, created and
 * last modified by the caller now, about the given datasets. Returns the query.
 */
async function createQuery(
  _: unknown,
  { input }: { input: CreateQueryInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const query = queryRef(ctx, `urn:li:query:${randomUUID()}`)
  const stamp = stampOf(ctx)
  const properties: AspectValue = {
    source: 'MANUAL',
    statement: { value: input.properties.statement.value, language: input.properties.statement.language },
    created: stamp,
    lastModified: stamp,
  }
  if (input.properties.name != null) properties.name = input.properties.name
  if (input.properties.description != null) properties.description = input.properties.description
  await write(ctx, [
    upsert(query, 'queryProperties', properties),
    upsert(query, 'querySubjects', subjectsOf(ctx, input.subjects)),
  ])
  return { urn: query.urn }
}

/**
 * DataHub's UpdateQueryResolver (QueryService.updateQuery): the given name, description and
 * statement replace the stored ones, the given subjects replace the subjects, and the query is
 * last modified by the caller now; a query that does not exist (no subjects, as DataHub checks)
 * is a 404.
 */
async function updateQuery(
  _: unknown,
  { urn, input }: { urn: string; input: UpdateQueryInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const query = queryRef(ctx, urn)
  const subjects = await currentAspect(ctx, query.urn, 'querySubjects')
  if (!subjects) throw new NotFoundError(`Failed to find query with urn ${query.urn}`)
  // One PATCH: the members given replace the stored ones inside the store's write, so two
  // concurrent updates of different members keep both.
  const given = input.properties
  const ops: PatchOp[] = [{ op: 'add', path: '/lastModified', value: stampOf(ctx) }]
  if (given?.name != null) ops.push({ op: 'add', path: '/name', value: given.name })
  if (given?.description != null) ops.push({ op: 'add', path: '/description', value: given.description })
  if (given?.statement != null) {
    ops.push({
      op: 'add',
      path: '/statement',
      value: { value: given.statement.value, language: given.statement.language },
    })
  }
  await write(ctx, [
    patch(query, 'queryProperties', ops),
    ...(input.subjects != null ? [upsert(query, 'querySubjects', subjectsOf(ctx, input.subjects))] : []),
  ])
  return { urn: query.urn }
}

/** DataHub's DeleteQueryResolver: hard-deletes the query (true whether or not it existed). */
async function deleteQuery(_: unknown, { urn }: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  const query = queryRef(ctx, urn)
  if (await ctx.client.exists(query.urn)) await write(ctx, [deleteEntity(query)])
  return true
}

export const queryMutations = { createQuery, updateQuery, deleteQuery }
