import { InvalidInputError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { resolveInput, write } from './support.js'

interface PatchOperationInput {
  readonly op: string
  readonly path: string
  readonly value?: string | null
  readonly from?: string | null
}

interface PatchEntityInput {
  readonly urn?: string | null
  readonly entityType?: string | null
  readonly aspectName: string
  readonly patch: readonly PatchOperationInput[]
  readonly arrayPrimaryKeys?: ReadonlyArray<{
    readonly arrayField: string
    readonly keys: readonly string[]
  }> | null
  readonly forceGenericPatch?: boolean | null
  readonly systemMetadata?: {
    readonly lastObserved?: number | null
    readonly runId?: string | null
    readonly properties?: ReadonlyArray<{ readonly key: string; readonly value?: string | null }> | null
  } | null
  readonly headers?: ReadonlyArray<{ readonly key: string; readonly value?: string | null }> | null
}

interface PatchEntityResult {
  readonly urn: string
  readonly name: string | null
  readonly success: boolean
  readonly error: string | null
}

/**
 * DataHub's `processPatchValue`: a value is JSON text, or (when it does not parse) the string
 * itself; `""` and the empty string both stand for the empty string.
 */
function patchValue(value: string): unknown {
  if (value === '' || value === '""') return ''
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/**
 * DataHub's glossary rule: an added or replaced `/definition` is never null (an absent or
 * "null" value becomes the empty string).
 */
function operation(op: PatchOperationInput): Record<string, unknown> {
  const name = op.op.toLowerCase()
  const definition = op.path === '/definition' && (name === 'add' || name === 'replace')
  const raw =
    definition && (op.value == null || op.value === 'null' || op.value === '"null"') ? '""' : op.value
  const out: Record<string, unknown> = { op: name, path: op.path }
  if (raw != null) out.value = patchValue(raw)
  else if (name === 'add') out.value = null
  if (op.from != null) out.from = op.from
  return out
}

/**
 * DataHub's `createPatchEntitiesMcps` for one input: a PATCH proposal of the aspect, a plain JSON
 * Patch, or DataHub's generic patch (`{patch, arrayPrimaryKeys, forceGenericPatch}`) when array
 * keys are given or the generic patch is forced; with the input's system metadata and headers.
 */
function proposalOf(ctx: CatalogContext, input: PatchEntityInput): MetadataProposal {
  if (!input.urn) {
    throw new InvalidInputError(
      'URN must be provided for patch operations. Please provide a valid URN for the entity you want to patch.',
    )
  }
  const ref = resolveInput(ctx, input.urn)
  if (!ctx.registry.hasAspect(ref.entity, input.aspectName)) {
    throw new InvalidInputError(`Aspect ${input.aspectName} not found for entity type ${ref.entity.name}`)
  }
  // A key aspect is the entity's identity, made from its URN: it is never patched.
  if (input.aspectName === ref.entity.keyAspect) {
    throw new InvalidInputError(
      `Aspect ${input.aspectName} is the key aspect of ${ref.entity.name}: it cannot be patched`,
    )
  }
  const ops = input.patch.map(operation)
  const generic = input.forceGenericPatch === true || (input.arrayPrimaryKeys?.length ?? 0) > 0
  const body = generic
    ? {
        patch: ops,
        arrayPrimaryKeys: Object.fromEntries(
          (input.arrayPrimaryKeys ?? []).map((k) => [k.arrayField, k.keys]),
        ),
        forceGenericPatch: input.forceGenericPatch === true,
      }
    : ops
  const sm = input.systemMetadata
  return {
    entityType: ref.entity.name,
    entityUrn: ref.urn,
    changeType: 'PATCH',
    aspectName: input.aspectName,
    aspect: { value: JSON.stringify(body), contentType: 'application/json-patch+json' },
    ...(sm
      ? {
          systemMetadata: {
            ...(sm.lastObserved != null ? { lastObserved: sm.lastObserved } : {}),
            ...(sm.runId != null ? { runId: sm.runId } : {}),
            ...(sm.properties ? { properties: entries(sm.properties) } : {}),
          },
        }
      : {}),
    ...(input.headers ? { headers: entries(input.headers) } : {}),
  }
}

/** `[StringMapEntryInput]` as a map (an absent value as the empty string). */
const entries = (list: ReadonlyArray<{ readonly key: string; readonly value?: string | null }>) =>
  Object.fromEntries(list.map((e) => [e.key, e.value ?? '']))

/** DataHub's `extractEntityName`: the value of a `/name` operation, if any. */
function nameOf(input: PatchEntityInput): string | null {
  return input.patch.find((op) => op.path === '/name' && op.value != null)?.value ?? null
}

const failed = (urn: string | null | undefined, error: string): PatchEntityResult => ({
  urn: urn ?? 'urn:li:unknown:error',
  name: null,
  success: false,
  error,
})

/** DataHub's `createPatchEntitiesMcps`: a refused input is named by its position. */
function proposalsOf(ctx: CatalogContext, inputs: readonly PatchEntityInput[]): MetadataProposal[] {
  return inputs.map((input, i) => {
    try {
      return proposalOf(ctx, input)
    } catch (err) {
      throw new InvalidInputError(`Failed to create MCP for input ${i}: ${(err as Error).message}`)
    }
  })
}

/**
 * Writes the patches of `inputs` in one atomic write, all applied or none. A failure is answered,
 * not thrown (as DataHub's resolvers do): each input `success` false with the message, the
 * ingest's own prefixed by `failure`.
 */
async function applyPatches(
  ctx: CatalogContext,
  inputs: readonly PatchEntityInput[],
  failure: string,
): Promise<PatchEntityResult[]> {
  let proposals: MetadataProposal[]
  try {
    proposals = proposalsOf(ctx, inputs)
  } catch (err) {
    return inputs.map((input) => failed(input.urn, (err as Error).message))
  }
  try {
    await write(ctx, proposals)
  } catch (err) {
    return inputs.map((input) => failed(input.urn, `${failure}: ${(err as Error).message}`))
  }
  return inputs.map((input, i) => ({
    urn: proposals[i]?.entityUrn ?? '',
    name: nameOf(input),
    success: true,
    error: null,
  }))
}

/** DataHub's PatchEntityResolver: one JSON Patch of one aspect, applied inside the store's write. */
async function patchEntity(
  _: unknown,
  args: { input: PatchEntityInput },
  ctx: CatalogContext,
): Promise<PatchEntityResult> {
  const [result] = await applyPatches(ctx, [args.input], 'Failed to apply patch')
  return result as PatchEntityResult
}

/** DataHub's PatchEntitiesResolver: every patch in one atomic write. */
function patchEntities(
  _: unknown,
  args: { input: readonly PatchEntityInput[] },
  ctx: CatalogContext,
): Promise<PatchEntityResult[]> {
  return applyPatches(ctx, args.input, 'Failed to apply batch patch')
}

export const patchEntityMutations = { patchEntity, patchEntities }
