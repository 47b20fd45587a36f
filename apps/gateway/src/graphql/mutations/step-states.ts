import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { GRAPHQL_LIMITS } from '../limits.js'
import { resolveInput, stampOf, upsert, write } from './support.js'

interface StepStateInput {
  readonly id: string
  readonly properties: ReadonlyArray<{ readonly key: string; readonly value?: string | null } | null>
}

/** The properties as a map; undefined where DataHub's `Collectors.toMap` fails (a null entry or value, a repeated key). */
function propertiesOf(state: StepStateInput): Record<string, string> | undefined {
  const map: Record<string, string> = {}
  for (const entry of state.properties) {
    if (entry == null || entry.value == null || Object.hasOwn(map, entry.key)) return undefined
    Object.defineProperty(map, entry.key, {
      value: entry.value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return map
}

/**
 * DataHub's `BatchUpdateStepStatesResolver`: each state's `dataHubStepStateProperties` replaced
 * by its properties, stamped with the caller, one write per state; a state that cannot be
 * written answers `succeeded: false` and the others go on.
 */
async function batchUpdateStepStates(
  _: unknown,
  { input }: { input: { states: readonly StepStateInput[] } },
  ctx: CatalogContext,
) {
  if (input.states.length > GRAPHQL_LIMITS.maxEntities)
    throw new InvalidInputError(`batchUpdateStepStates takes at most ${GRAPHQL_LIMITS.maxEntities} states`)
  const results = []
  for (const state of input.states) {
    results.push({ id: state.id, succeeded: await updateStepState(ctx, state) })
  }
  return { results }
}

async function updateStepState(ctx: CatalogContext, state: StepStateInput): Promise<boolean> {
  const properties = propertiesOf(state)
  if (!properties) return false
  try {
    const ref = resolveInput(ctx, `urn:li:dataHubStepState:${state.id}`)
    await write(ctx, [upsert(ref, 'dataHubStepStateProperties', { properties, lastModified: stampOf(ctx) })])
    return true
  } catch (err) {
    ctx.log.warn({ err, id: state.id }, 'could not update step state')
    return false
  }
}

/** The UI's onboarding steps (open to every authenticated caller, as in DataHub). */
export const stepStateMutations = { batchUpdateStepStates }
