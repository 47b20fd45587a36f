import { InvalidInputError, parseUrn } from '@catalog/core'
import { buildSchema, type GraphQLObjectType } from 'graphql'
import type { CatalogContext } from './context.js'
import { GRAPHQL_LIMITS } from './limits.js'
import type { EntitySource } from './mappers/common.js'
import { type FieldFn, MAPPINGS } from './mappers/index.js'
import { accessTokenMutations, accessTokenQueries } from './mutations/access-tokens.js'
import { deprecationMutations } from './mutations/deprecation.js'
import { descriptionMutations } from './mutations/description.js'
import { tagMutations } from './mutations/tags.js'
import { datasetMutations } from './mutations/update-dataset.js'
import { LongScalar } from './scalars.js'
import { TYPE_DEFS } from './schema/index.js'

type Resolver = (source: never, args: never, ctx: CatalogContext) => unknown
type Resolvers = Record<string, Record<string, unknown>>

/** `typeName` of the GraphQL type serving the entity `urn`, or undefined. */
function typeNameOf(urn: string): string | undefined {
  try {
    return MAPPINGS.get(parseUrn(urn).entityType)?.typeName
  } catch {
    return undefined
  }
}

/** A root query for one entity type: the object is built from the key even when the entity does not exist. */
function entityQuery(entityName: string): Resolver {
  return ((_: unknown, { urn }: { urn: string }, ctx: CatalogContext): EntitySource => {
    const type = ctx.graph.entityType(urn)
    if (type !== entityName) throw new InvalidInputError(`Invalid urn ${urn}: expected a ${entityName} urn`)
    return { urn }
  }) as Resolver
}

/**
 * Field resolvers of every entity type, derived from the schema: `urn` comes from the
 * reference, `type` from the URN, every other field from the entity's mapped object, loaded
 * (in batches) only when a field needs it.
 */
function entityFieldResolvers(): Resolvers {
  const schema = buildSchema(TYPE_DEFS)
  const out: Resolvers = {}
  for (const mapping of MAPPINGS.values()) {
    const type = schema.getType(mapping.typeName) as GraphQLObjectType
    const fields: Record<string, unknown> = {}
    for (const name of Object.keys(type.getFields())) {
      if (name === 'urn') continue
      if (name === 'type') {
        fields.type = () => mapping.entityType
        continue
      }
      fields[name] = async (source: EntitySource, args: Record<string, unknown>, ctx: CatalogContext) => {
        const value = (await ctx.graph.object(source.urn))[name]
        return typeof value === 'function' ? (value as FieldFn)(args, ctx) : value
      }
    }
    out[mapping.typeName] = fields
  }
  return out
}

/** Every resolver of the GraphQL API. */
export function buildResolvers(): Resolvers {
  const queries: Record<string, unknown> = {
    ...Object.fromEntries(
      [...MAPPINGS.keys()]
        .filter((n) => n !== 'ownershipType' && n !== 'dataHubAccessToken')
        .map((n) => [n === 'corpuser' ? 'corpUser' : n, entityQuery(n)]),
    ),
    entity: (_: unknown, { urn }: { urn: string }, ctx: CatalogContext): EntitySource => {
      ctx.graph.entityType(urn)
      return { urn }
    },
    entities: (_: unknown, { urns }: { urns: readonly string[] }, ctx: CatalogContext) => {
      if (urns.length > GRAPHQL_LIMITS.maxEntities) {
        throw new InvalidInputError(
          `entities takes at most ${GRAPHQL_LIMITS.maxEntities} urns, got ${urns.length}`,
        )
      }
      // One bad urn gives one null (and one error), never a failed list.
      return urns.map((urn) => {
        try {
          ctx.graph.entityType(urn)
          return { urn }
        } catch (err) {
          return err
        }
      })
    },
    entityExists: (_: unknown, { urn }: { urn: string }, ctx: CatalogContext) => {
      ctx.registry.resolveUrn(urn)
      return ctx.client.exists(urn)
    },
    ...accessTokenQueries,
  }
  return {
    Long: LongScalar as unknown as Record<string, unknown>,
    Query: queries,
    Mutation: {
      ...datasetMutations,
      ...descriptionMutations,
      ...tagMutations,
      ...deprecationMutations,
      ...accessTokenMutations,
    },
    ...entityFieldResolvers(),
    Deprecation: {
      replacement: (source: { replacement?: EntitySource | null }) =>
        source.replacement && typeNameOf(source.replacement.urn) ? source.replacement : null,
    },
    Entity: { resolveType: (source: EntitySource) => typeNameOf(source.urn) },
    OwnerType: {
      resolveType: (source: EntitySource) =>
        source.urn.startsWith('urn:li:corpGroup:') ? 'CorpGroup' : 'CorpUser',
    },
    PlatformSchema: { resolveType: (source: { __typename: string }) => source.__typename },
  }
}
