import { InvalidInputError, parseUrn } from '@catalog/core'
import { type GraphQLObjectType, type GraphQLSchema, isAbstractType } from 'graphql'
import type { CatalogContext } from '../context.js'
import { GRAPHQL_LIMITS } from '../limits.js'
import type { EntitySource, Mapped } from '../mappers/common.js'
import { type FieldFn, MAPPINGS } from '../mappers/index.js'
import { dataProductEntities } from '../mutations/data-product-assets.js'
import { relatedDocuments } from '../mutations/documents.js'
import { assertionRunEvents, entityAssertions } from './entity-fields/assertions.js'
import { connectionDetails } from './entity-fields/connection.js'
import { datasetContract } from './entity-fields/data-contract.js'
import { glossaryChildrenCount } from './entity-fields/glossary-children.js'
import { entityIncidents } from './entity-fields/incidents.js'
import { containerEntities, domainEntities } from './entity-fields/member-entities.js'
import { entityPrivileges } from './entity-fields/privileges.js'
import { entityRelationships } from './entity-fields/relationships.js'
import { roleAssignedToMe } from './entity-fields/role.js'
import { datasetRuns, runState, templateRuns } from './entity-fields/runs.js'
import { dashboardStatsSummary, datasetStatsSummary } from './entity-fields/stats-summary.js'
import { entityTestResults } from './entity-fields/test-results.js'
import { datasetProfilesField, operationsField } from './entity-fields/timeseries.js'
import { usageStatsField } from './entity-fields/usage-stats.js'
import { versionsSearch } from './entity-fields/version-sets.js'
import { executionRequestFields } from './ingestion.js'
import { entityLineage } from './lineage-field.js'
import { corpUserSettings } from './me.js'

/** Fields answered by their own resolver (a read of their own), on every type declaring them. */
const OWN_RESOLVERS: Readonly<Record<string, unknown>> = {
  lineage: entityLineage,
  relationships: entityRelationships,
  privileges: entityPrivileges,
  incidents: entityIncidents,
  // Called through: the documents module is part of an import cycle with this one.
  relatedDocuments: (...args: Parameters<typeof relatedDocuments>) => relatedDocuments(...args),
}
/** Fields of one type answered by their own resolver: type name -> field -> resolver. */
const TYPE_RESOLVERS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  Dataset: {
    datasetProfiles: datasetProfilesField,
    operations: operationsField,
    usageStats: usageStatsField,
    assertions: entityAssertions,
    runs: datasetRuns,
    testResults: entityTestResults,
    contract: datasetContract,
    statsSummary: datasetStatsSummary,
  },
  DataJob: { runs: templateRuns },
  Dashboard: { statsSummary: dashboardStatsSummary },
  DataFlow: { runs: templateRuns },
  DataProcessInstance: { state: runState },
  Assertion: { runEvents: assertionRunEvents },
  ExecutionRequest: executionRequestFields,
  VersionSet: { versionsSearch },
  Role: { isAssignedToMe: roleAssignedToMe },
  DataHubConnection: { details: connectionDetails },
  GlossaryNode: { childrenCount: glossaryChildrenCount },
  Container: { entities: containerEntities },
  CorpUser: { settings: corpUserSettings },
  Domain: { entities: domainEntities },
  DataProduct: { entities: dataProductEntities },
}

type Resolver = (source: never, args: never, ctx: CatalogContext) => unknown
export type Resolvers = Record<string, Record<string, unknown>>

/** `typeName` of the GraphQL type serving the entity `urn`, or undefined. */
export function typeNameOf(urn: string): string | undefined {
  try {
    return MAPPINGS.get(parseUrn(urn).entityType)?.typeName
  } catch {
    return undefined
  }
}

const URN_PREFIX = 'urn:li:'

/**
 * {@link typeNameOf} for a URN the catalog stored (a search hit, valid by construction): read
 * from its entity-type segment without parsing the rest (a page of 10,000 hits parsed each).
 */
export function typeNameOfStored(urn: string): string | undefined {
  const end = urn.indexOf(':', URN_PREFIX.length)
  return urn.startsWith(URN_PREFIX) && end > URN_PREFIX.length
    ? MAPPINGS.get(urn.slice(URN_PREFIX.length, end))?.typeName
    : undefined
}

/** A root query for one entity type: the object is built from the key even when the entity does not exist. */
function entityQuery(entityName: string): Resolver {
  return ((_: unknown, { urn }: { urn: string }, ctx: CatalogContext): EntitySource => {
    const type = ctx.graph.entityType(urn)
    if (type !== entityName) throw new InvalidInputError(`Invalid urn ${urn}: expected a ${entityName} urn`)
    return { urn }
  }) as Resolver
}

/** Root queries naming entities: `dataset(urn:)` and its siblings, `entity`, `entities`, `entityExists`. */
export function entityQueries(): Record<string, unknown> {
  return {
    ...Object.fromEntries(
      [...MAPPINGS.keys()]
        // Types DataHub's schema has no root query of.
        .filter(
          (n) =>
            ![
              'ownershipType',
              'dataHubAccessToken',
              'query',
              'incident',
              'dataHubExecutionRequest',
              'dataContract',
              'dataHubConnection',
              'schemaField',
              'form',
              'dataHubPageTemplate',
              'dataHubPageModule',
            ].includes(n),
        )
        .map((n) => [n === 'corpuser' ? 'corpUser' : n, entityQuery(n)]),
    ),
    entity: (_: unknown, { urn }: { urn: string }, ctx: CatalogContext): EntitySource => {
      ctx.graph.entityType(urn)
      return { urn }
    },
    entities: (_: unknown, { urns }: { urns: readonly string[] }, ctx: CatalogContext) => {
      // The bound holds for the whole request, so aliases cannot multiply it.
      ctx.budget.entities += urns.length
      if (urns.length > GRAPHQL_LIMITS.maxEntities || ctx.budget.entities > GRAPHQL_LIMITS.maxEntities) {
        throw new InvalidInputError(
          urns.length > GRAPHQL_LIMITS.maxEntities
            ? `entities takes at most ${GRAPHQL_LIMITS.maxEntities} urns, got ${urns.length}`
            : `entities takes at most ${GRAPHQL_LIMITS.maxEntities} urns in one request, over all its aliases`,
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
  }
}

/**
 * Field resolvers of every entity type, derived from the schema: `urn` comes from the
 * reference, `type` from the URN, `lineage`, `relationships` and the time series from their own reads, every other field from the entity's mapped object, loaded
 * (in batches) only when a field needs it. A field the mapper does not fill answers null.
 */
export function entityFieldResolvers(schema: GraphQLSchema): Resolvers {
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
      const own = TYPE_RESOLVERS[mapping.typeName]?.[name] ?? OWN_RESOLVERS[name]
      if (own) {
        fields[name] = own
        continue
      }
      // At once when the entity is mapped already (a page's results wait for their entities),
      // else when it is loaded.
      fields[name] = (source: EntitySource, args: Record<string, unknown>, ctx: CatalogContext) => {
        const ready = ctx.graph.now(source.urn)
        if (ready) return fieldOf(ready, name, args, ctx)
        return ctx.graph.object(source.urn).then((object) => fieldOf(object, name, args, ctx))
      }
    }
    out[mapping.typeName] = fields
  }
  out.Deprecation = {
    replacement: (source: { replacement?: EntitySource | null }) =>
      source.replacement && typeNameOf(source.replacement.urn) ? source.replacement : null,
  }
  return out
}

/** One field of a mapped entity: its value, or what its function answers for the arguments. */
function fieldOf(object: Mapped, name: string, args: Record<string, unknown>, ctx: CatalogContext): unknown {
  const value = object[name]
  return typeof value === 'function' ? (value as FieldFn)(args, ctx) : value
}

/**
 * `resolveType` of every interface and union: the `__typename` a mapper set, else the type
 * serving the value's URN (entities and unions of entities such as `OwnerType`).
 */
export function abstractTypeResolvers(schema: GraphQLSchema): Resolvers {
  const resolveType = (source: { __typename?: string; urn?: string }) =>
    source.__typename ?? (typeof source.urn === 'string' ? typeNameOf(source.urn) : undefined)
  const out: Resolvers = {}
  for (const type of Object.values(schema.getTypeMap())) {
    if (isAbstractType(type) && !type.name.startsWith('__')) out[type.name] = { resolveType }
  }
  return out
}
