import { restGet } from './client.js'

/** Versions probed at most per aspect (the UI shows the newest ones). */
export const MAX_VERSIONS = 25

interface AspectAnswer {
  version: number
  aspect: Record<string, unknown>
}

/** The names of the aspects an entity has, from the OpenAPI v3 entity read. */
export async function aspectNames(urn: string, entityType: string): Promise<string[]> {
  const body = await restGet<Record<string, unknown>>(
    `/openapi/v3/entity/${encodeURIComponent(entityType)}/${encodeURIComponent(urn)}`,
  )
  return body
    ? Object.keys(body)
        .filter((k) => k !== 'urn')
        .sort()
    : []
}

/** One version of an aspect (0 = latest, 1..N older) as its value, or null when there is none. */
export async function aspectVersion(urn: string, aspect: string, version: number): Promise<unknown | null> {
  const body = await restGet<AspectAnswer>(
    `/aspects/${encodeURIComponent(urn)}?aspect=${encodeURIComponent(aspect)}&version=${version}`,
  )
  if (!body) return null
  // The value comes wrapped in its record's class name: `{ "com.linkedin...": {...} }`.
  const values = Object.values(body.aspect)
  return values.length === 1 ? values[0] : body.aspect
}

/** The version numbers an aspect has: 0 (latest) then 1, 2, ... while they exist. */
export async function aspectVersions(urn: string, aspect: string): Promise<number[]> {
  const found: number[] = []
  for (let v = 0; v < MAX_VERSIONS; v++) {
    if ((await aspectVersion(urn, aspect, v)) === null) break
    found.push(v)
  }
  return found
}
