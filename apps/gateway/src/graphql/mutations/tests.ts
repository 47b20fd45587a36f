import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError, parseTestDefinition, ValidationError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { listEntities, requirePlatformPrivilege } from '../resolvers/users-groups.js'
import { deleteWithReferences } from './entity-references.js'
import { typedRef, upsert, write } from './support.js'

interface TestInput {
  readonly id?: string | null
  readonly name: string
  readonly category: string
  readonly description?: string | null
  readonly definition: { readonly json?: string | null }
}

/** DataHub's page size of `listTests` when `count` is not given. */
const DEFAULT_COUNT = 20

/** A test URN from input: a 400 when it is malformed or names another entity type. */
const testRef = (ctx: CatalogContext, urn: string): EntityRef => typedRef(ctx, urn, 'test')

/**
 * DataHub's `mapCreateTestInput` / `mapUpdateTestInput`: name, category, description and the JSON
 * definition, which must be a valid test definition (DataHub's `validateJson`; `prefix` starts
 * the message of a refused one).
 */
function testInfo(ctx: CatalogContext, input: TestInput, prefix: string): AspectValue {
  const json = input.definition.json
  if (typeof json !== 'string') throw new InvalidInputError(`${prefix}a JSON test definition is required`)
  try {
    parseTestDefinition(json, ctx.registry)
  } catch (err) {
    if (err instanceof ValidationError) throw new InvalidInputError(`${prefix}${err.message}`)
    throw err
  }
  const info: AspectValue = { name: input.name, category: input.category, definition: { type: 'JSON', json } }
  if (input.description != null) info.description = input.description
  return info
}

/** DataHub's CreateTestResolver: a test of the given id (a random one without), MANAGE_TESTS. */
async function createTest(_: unknown, args: { input: TestInput }, ctx: CatalogContext): Promise<string> {
  const info = testInfo(ctx, args.input, 'Failed to validate test definition: \n')
  const test = testRef(ctx, `urn:li:test:${args.input.id ?? randomUUID()}`)
  await write(ctx, [upsert(test, 'testInfo', info)])
  return test.urn
}

/** DataHub's UpdateTestResolver: the test's info replaced whole, MANAGE_TESTS. */
async function updateTest(
  _: unknown,
  args: { urn: string; input: TestInput },
  ctx: CatalogContext,
): Promise<string> {
  const test = testRef(ctx, args.urn)
  await write(ctx, [upsert(test, 'testInfo', testInfo(ctx, args.input, ''))])
  return test.urn
}

/**
 * DataHub's DeleteTestResolver: hard-deletes the test, and here also the results that name it
 * (the entities' `testResults`), MANAGE_TESTS. A test that does not exist is deleted already.
 */
async function deleteTest(_: unknown, args: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  await deleteWithReferences(ctx, testRef(ctx, args.urn))
  return true
}

export const testMutations = { createTest, updateTest, deleteTest }

/** DataHub's ListTestsResolver: the tests matching `query`, 20 per page, MANAGE_TESTS. */
async function listTests(
  _: unknown,
  args: { input: { start?: number | null; count?: number | null; query?: string | null } },
  ctx: CatalogContext,
) {
  await requirePlatformPrivilege(ctx, 'MANAGE_TESTS')
  const { urns, ...page } = await listEntities(ctx, 'test', {
    start: args.input.start,
    count: args.input.count ?? DEFAULT_COUNT,
    query: args.input.query,
  })
  return { ...page, tests: urns.map((urn): EntitySource => ({ urn })) }
}

export const testQueries = { listTests }
