import type { CatalogServer } from '@catalog/http-kit'
import type { Json } from './build.js'

const enc = encodeURIComponent

/** One GraphQL call; DataHub answers 200 even with errors, so anything else throws. */
export async function gql(
  app: CatalogServer,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  if (res.statusCode !== 200) throw new Error(`GraphQL answered ${res.statusCode}: ${res.body}`)
  return JSON.parse(res.body)
}

/** Writes one aspect through REST ingestProposal (to create users, groups, tags, domains...). */
export async function ingestAspect(
  app: CatalogServer,
  entityType: string,
  urn: string,
  aspectName: string,
  value: Record<string, unknown>,
): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/aspects?action=ingestProposal',
    payload: {
      proposal: {
        entityType,
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      },
    },
  })
  if (res.statusCode !== 200)
    throw new Error(`ingest of ${urn} ${aspectName} failed: ${res.statusCode} ${res.body}`)
}

/** The entity as REST `/entitiesV2/<urn>` shows it: aspect name -> `{version, value}`. */
export async function restAspects(
  app: CatalogServer,
  urn: string,
): Promise<Record<string, { version?: number; value: Json }>> {
  const res = await app.inject({ method: 'GET', url: `/entitiesV2/${enc(urn)}` })
  if (res.statusCode !== 200) throw new Error(`entitiesV2 ${urn}: ${res.statusCode} ${res.body}`)
  return JSON.parse(res.body).aspects ?? {}
}

/**
 * Every aspect of the entity with its version, audit stamp and system metadata, for "nothing was
 * written" checks: any write changes at least the stamp of the aspect it touches.
 */
export async function snapshot(app: CatalogServer, urn: string): Promise<string> {
  return JSON.stringify(await restAspects(app, urn))
}

/** Asserts a DataHub GraphQL error: HTTP 200, `data.<field>` null, the message and `BAD_REQUEST`. */
export function badRequest(body: Json, field: string): { message: string; code: number; type: string } {
  const error = body.errors?.[0]
  return {
    message: error?.message,
    code: error?.extensions?.code,
    type: `${error?.extensions?.type}${body.data?.[field] === null ? '' : ' (data not null)'}`,
  }
}
