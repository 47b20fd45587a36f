import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { GRAPHQL_LIMITS } from '../limits.js'

const ASPECT = 'dataHubStepStateProperties'

/**
 * `batchGetStepStates`: the `dataHubStepState` entities `urn:li:dataHubStepState:<id>` (the
 * UI's onboarding steps), read from the store. As DataHub, only ids whose properties exist
 * are answered.
 */
async function batchGetStepStates(
  _: unknown,
  { input }: { input: { ids: readonly string[] } },
  ctx: CatalogContext,
) {
  if (input.ids.length > GRAPHQL_LIMITS.maxEntities)
    throw new InvalidInputError(`batchGetStepStates takes at most ${GRAPHQL_LIMITS.maxEntities} ids`)
  const urns = input.ids.map((id) => `urn:li:dataHubStepState:${id}`)
  const found = await ctx.client.getEntities(urns, [ASPECT])
  const results = []
  for (const [i, id] of input.ids.entries()) {
    const properties = found.get(urns[i] as string)?.aspects[ASPECT]?.properties
    if (!properties || typeof properties !== 'object') continue
    results.push({
      id,
      properties: Object.entries(properties as Record<string, unknown>).map(([key, value]) => ({
        key,
        value: String(value),
      })),
    })
  }
  return { results }
}

/** Root step-state query. */
export const stepStateQueries = { batchGetStepStates }
