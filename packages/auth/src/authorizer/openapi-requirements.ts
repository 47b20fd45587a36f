import { parseUrn, splitUrnPath } from '@catalog/core'
import type { Requirement } from './authorizer.js'
import { writePrivileges } from './privileges.js'

const PREFIX = '/openapi/v3/entity/'
type Row = Record<string, unknown>
const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The URN and aspect a path addresses, as the OpenAPI routes read them; undefined when malformed. */
function splitTail(tail: string): { urn: string; aspect?: string } | undefined {
  try {
    return splitUrnPath(tail)
  } catch {
    return undefined
  }
}

function entityTypeOf(urn: string, fallback: string): string {
  try {
    return parseUrn(urn).entityType
  } catch {
    return fallback
  }
}

/**
 * What an OpenAPI v3 entity write needs: `POST`/`PATCH /openapi/v3/entity/{entityName}`
 * (a list of `{urn, <aspect>: …}`), and `POST`/`PATCH`/`DELETE
 * /openapi/v3/entity/{entityName}/{urn}[/{aspect}]`. Undefined for anything else.
 */
export function openApiWrites(
  method: string,
  route: string,
  rawPath: string,
  body: unknown,
): { requirements: Requirement[]; urns: string[]; operation: string } | undefined {
  if (!route.startsWith(PREFIX) || !['POST', 'PATCH', 'DELETE'].includes(method)) return undefined
  // The raw path, cut as the OpenAPI routes cut it, so both read the same URN.
  const rest = rawPath.slice(PREFIX.length)
  const slash = rest.indexOf('/')
  const entityName = slash < 0 ? rest : rest.slice(0, slash)
  const changeType = method === 'DELETE' ? 'DELETE' : 'UPSERT'
  const writes: { urn: string; aspect?: string }[] = []
  if (slash < 0) {
    if (method === 'DELETE' || !Array.isArray(body)) return undefined
    for (const item of body) {
      if (!isRow(item) || typeof item.urn !== 'string') continue
      const aspects = Object.keys(item).filter((k) => k !== 'urn')
      if (aspects.length === 0) writes.push({ urn: item.urn })
      for (const aspect of aspects) writes.push({ urn: item.urn, aspect })
    }
  } else {
    const tail = rest.slice(slash + 1)
    // batchGet and scroll are reads.
    if (method === 'POST' && (tail === 'batchGet' || tail === 'scroll')) return undefined
    const target = splitTail(tail)
    if (!target) return undefined
    writes.push(target)
  }
  if (writes.length === 0) return undefined
  const requirements = writes.flatMap((w) =>
    writePrivileges(entityTypeOf(w.urn, entityName), w.aspect, changeType).map((anyOf) => ({
      anyOf,
      resource: w.urn,
    })),
  )
  return {
    requirements,
    urns: [...new Set(writes.map((w) => w.urn))],
    operation: changeType === 'DELETE' ? 'DELETE' : 'UPDATE',
  }
}
