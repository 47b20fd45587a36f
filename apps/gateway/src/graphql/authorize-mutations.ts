import { GRAPHQL_UNAUTHORIZED_MESSAGE, mutationCheck } from '@catalog/auth'
import { ForbiddenError } from '@catalog/core'
import type { CatalogContext } from './context.js'
import type { Resolvers } from './resolvers/entities.js'

type Resolver = (root: unknown, args: Record<string, unknown>, ctx: CatalogContext, info: unknown) => unknown

/** One stored aspect for a rule, read fresh; undefined when absent or unreadable. */
async function readAspect(ctx: CatalogContext, urn: string, aspect: string) {
  try {
    return (await ctx.client.getEntities([urn], [aspect])).get(urn)?.aspects[aspect]
  } catch {
    return undefined
  }
}

/**
 * Refuses a mutation its caller may not run, before its resolver starts, so a refused call
 * writes nothing: the rule of the mutation's name (`mutationCheck` in `@catalog/auth`, DataHub's
 * resolvers' privileges on the URNs of the input) is checked by the request's authorizer. A
 * refusal is DataHub's `AuthorizationException`: HTTP 200, `extensions.code` 403. Without an
 * authorizer (auth off: every caller is the root user) nothing is checked.
 */
export async function authorizeMutation(
  name: string,
  args: Record<string, unknown>,
  ctx: CatalogContext,
): Promise<void> {
  const authorizer = ctx.authorizer
  if (!authorizer) return
  const check = await mutationCheck(name, args, {
    actor: ctx.actor,
    read: (urn, aspect) => readAspect(ctx, urn, aspect),
  })
  if (!(await authorizer.authorize(ctx.actor, check.requirements))) {
    throw new ForbiddenError(check.message ?? GRAPHQL_UNAUTHORIZED_MESSAGE)
  }
}

/** The resolvers with every `Mutation` field (served or not) behind {@link authorizeMutation}. */
export function authorizeMutations(resolvers: Resolvers): Resolvers {
  const mutations = resolvers.Mutation ?? {}
  const guarded: Record<string, unknown> = {}
  for (const [name, resolver] of Object.entries(mutations)) {
    const run = resolver as Resolver
    guarded[name] = async (
      root: unknown,
      args: Record<string, unknown>,
      ctx: CatalogContext,
      info: unknown,
    ) => {
      await authorizeMutation(name, args, ctx)
      return run(root, args, ctx, info)
    }
  }
  return { ...resolvers, Mutation: guarded }
}
