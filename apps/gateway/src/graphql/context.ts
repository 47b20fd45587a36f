import type { Authorizer, TokenService } from '@catalog/auth'
import { InvalidInputError, type Registry } from '@catalog/core'
import type { FastifyBaseLogger } from 'fastify'
import type { MetadataClient } from './clients/metadata-client.js'
import type { SearchClient } from './clients/search-client.js'
import { ENTITIES_KEPT, EntityLoader } from './entity-loader.js'
import { MAPPINGS, type Mapped } from './mappers/index.js'
import { RecentMap } from './recent-map.js'

/** Per-request state every resolver gets. */
export interface CatalogContext {
  /** The authenticated actor (the root user with auth off): the actor of every audit stamp written. */
  readonly actor: string
  /** Whether requests must carry a bearer token (false with CATALOG_AUTH=off). */
  readonly authEnabled: boolean
  readonly client: MetadataClient
  /** Search, autocomplete and browse; absent when the server has no search service. */
  readonly search?: SearchClient
  /** What this request has spent of its per-request bounds (URNs asked of `entities`). */
  readonly budget: { entities: number }
  readonly registry: Registry
  readonly graph: EntityGraph
  /** Mints and verifies access tokens; absent when the server has no signing secret. */
  readonly tokens?: TokenService
  /** Decides by DataHub's policies; absent with auth off (every caller is the root user). */
  readonly authorizer?: Authorizer
  readonly log: FastifyBaseLogger
}

/**
 * The entities of one request, loaded in batches and mapped to GraphQL objects once each.
 * Entity-typed fields hold `{urn}` references; their fields are resolved here on demand.
 */
export class EntityGraph {
  readonly loader: EntityLoader
  private readonly mapped = new RecentMap<string, Promise<Mapped>>(ENTITIES_KEPT)
  /** The objects mapped lately, for fields answered without waiting a turn. */
  private readonly done = new RecentMap<string, Mapped>(ENTITIES_KEPT)

  constructor(
    client: MetadataClient,
    private readonly registry: Registry,
  ) {
    this.loader = new EntityLoader(client, registry, (type) => MAPPINGS.get(type)?.aspects ?? [])
  }

  /** The entity type of a URN the GraphQL API serves; a 400 for a malformed URN or an unserved type. */
  entityType(urn: string): string {
    const type = this.registry.resolveUrn(urn).entity.name
    if (!MAPPINGS.has(type)) {
      throw new InvalidInputError(`Entity type ${type} of ${urn} is not served by this GraphQL API`)
    }
    return type
  }

  /** The GraphQL object of entity `urn`. */
  object(urn: string): Promise<Mapped> {
    let promise = this.mapped.get(urn)
    if (!promise) {
      promise = this.loader.load(urn).then((entity) => {
        const mapping = MAPPINGS.get(entity.entityType)
        if (!mapping) {
          throw new InvalidInputError(`Entity type ${entity.entityType} is not served by this GraphQL API`)
        }
        const object = mapping.map(entity)
        this.done.set(urn, object)
        return object
      })
      promise.catch(() => this.mapped.delete(urn))
      this.mapped.set(urn, promise)
    }
    return promise
  }

  /** The GraphQL object of entity `urn` when it is mapped already, else undefined. */
  now(urn: string): Mapped | undefined {
    return this.done.get(urn)
  }

  /** Forgets every entity read so far: called after each mutation, so later reads see the write. */
  clear(): void {
    this.mapped.clear()
    this.done.clear()
    this.loader.clear()
  }
}
