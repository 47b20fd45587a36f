import { randomUUID } from 'node:crypto'
import { assertionAssertee, type EntityRef, InvalidInputError, NotFoundError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { deleteWithReferences } from './entity-references.js'
import { currentAspect, resolveInput, schemaFieldUrn, typedRef, upsert, write } from './support.js'

interface UpsertCustomAssertionInput {
  readonly entityUrn: string
  readonly type: string
  readonly description: string
  readonly fieldPath?: string | null
  readonly platform: { readonly urn?: string | null; readonly name?: string | null }
  readonly externalUrl?: string | null
  readonly logic?: string | null
}

interface AssertionResultInput {
  readonly timestampMillis?: number | null
  readonly type: 'SUCCESS' | 'FAILURE' | 'ERROR' | 'INIT'
  readonly properties?: ReadonlyArray<{ readonly key: string; readonly value: string }> | null
  readonly externalUrl?: string | null
  readonly error?: { readonly type: string; readonly message: string } | null
}

/** An assertion URN from input: a 400 when it is malformed or names another entity type. */
const assertionRef = (ctx: CatalogContext, urn: string): EntityRef => typedRef(ctx, urn, 'assertion')

/** DataHub's `mapAssertionPlatform`: the platform by URN, else by name. */
function platformOf(ctx: CatalogContext, input: UpsertCustomAssertionInput['platform']): string {
  if (input.urn != null) return resolveInput(ctx, input.urn).urn
  if (input.name != null) return resolveInput(ctx, `urn:li:dataPlatform:${input.name}`).urn
  throw new InvalidInputError(
    'Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.',
  )
}

/**
 * DataHub's UpsertCustomAssertionResolver: the assertion `urn` (a new one without it) becomes a
 * CUSTOM assertion of the external source on `entityUrn` (and its field `fieldPath`), with its
 * platform: `assertionInfo` and `dataPlatformInstance` written whole. Returns the assertion.
 */
async function upsertCustomAssertion(
  _: unknown,
  args: { urn?: string | null; input: UpsertCustomAssertionInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const { input } = args
  const entity = resolveInput(ctx, input.entityUrn)
  const assertion = assertionRef(ctx, args.urn ?? `urn:li:assertion:${randomUUID()}`)
  const platform = platformOf(ctx, input.platform)
  const customAssertion: AspectValue = { type: input.type, entity: entity.urn }
  if (input.fieldPath != null) customAssertion.field = schemaFieldUrn(entity.urn, input.fieldPath)
  if (input.logic != null) customAssertion.logic = input.logic
  const info: AspectValue = {
    type: 'CUSTOM',
    description: input.description,
    source: { type: 'EXTERNAL' },
    customAssertion,
  }
  if (input.externalUrl != null) info.externalUrl = input.externalUrl
  await write(ctx, [
    upsert(assertion, 'assertionInfo', info),
    upsert(assertion, 'dataPlatformInstance', { platform }),
  ])
  return { urn: assertion.urn }
}

/** DataHub's `mapAssertionResult`: the error only for an ERROR result, the properties as native results. */
function resultOf(input: AssertionResultInput): AspectValue {
  const result: AspectValue = { type: input.type }
  if (input.externalUrl != null) result.externalUrl = input.externalUrl
  if (input.type === 'ERROR' && input.error) {
    result.error = { type: input.error.type, properties: { message: input.error.message } }
  }
  if (input.properties?.length) {
    result.nativeResults = Object.fromEntries(input.properties.map((p) => [p.key, p.value]))
  }
  return result
}

/**
 * DataHub's ReportAssertionResultResolver: one `assertionRunEvent` (COMPLETE, run id its
 * timestamp) of the assertion on the entity it asserts on; an assertion that does not exist or
 * names no entity is refused and nothing is written.
 */
async function reportAssertionResult(
  _: unknown,
  args: { urn: string; result: AssertionResultInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const assertion = assertionRef(ctx, args.urn)
  const assertee = assertionAssertee(await currentAspect(ctx, assertion.urn, 'assertionInfo'))
  if (!assertee) {
    throw new NotFoundError(
      `Failed to report Assertion Run Event. Assertion with urn ${assertion.urn} does not exist or is not associated with any entity.`,
    )
  }
  const timestampMillis = args.result.timestampMillis ?? Date.now()
  await write(ctx, [
    upsert(assertion, 'assertionRunEvent', {
      timestampMillis,
      runId: String(timestampMillis),
      assertionUrn: assertion.urn,
      asserteeUrn: assertee,
      status: 'COMPLETE',
      result: resultOf(args.result),
    }),
  ])
  return true
}

/**
 * DataHub's DeleteAssertionResolver: hard-deletes the assertion and the references to it; an
 * assertion that does not exist is deleted already (true).
 */
async function deleteAssertion(_: unknown, args: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  await deleteWithReferences(ctx, assertionRef(ctx, args.urn))
  return true
}

export const assertionMutations = { upsertCustomAssertion, reportAssertionResult, deleteAssertion }
