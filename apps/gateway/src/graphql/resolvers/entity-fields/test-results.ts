import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { currentAspect } from '../../mutations/support.js'

/** DataHub's TestResultsResolver: the entity's stored `testResults`, each test by reference; null without. */
export async function entityTestResults(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  const results = await currentAspect(ctx, source.urn, 'testResults')
  if (!results) return null
  const of = (list: unknown) =>
    (Array.isArray(list) ? list : [])
      .filter((r): r is AspectValue => typeof (r as AspectValue | null)?.test === 'string')
      .map((r) => ({ test: { urn: r.test }, type: r.type }))
  return { passing: of(results.passing), failing: of(results.failing) }
}
