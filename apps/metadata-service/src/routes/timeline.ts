import { InvalidInputError } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema, urnFromPath } from '@catalog/http-kit'
import { Type } from 'typebox'
import { ChangeTransactionSchema, TimelineQuerySchema } from '../schemas/timeline.js'
import { parseCategories } from '../services/timeline/categories.js'
import type { TimelineService } from '../services/timeline/timeline-service.js'

/** DataHub serves the same controller at both prefixes (v1 is deprecated but still mapped). */
const PREFIXES = ['/openapi/v2/timeline/v1/', '/openapi/timeline/v1/'] as const

function strings(value: unknown): string[] {
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map(String)
}

function long(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  if (!/^-?\d+$/.test(value.trim())) {
    throw new InvalidInputError(
      `Failed to convert value of type 'java.lang.String' to required type 'long'; For input string: "${value}"`,
    )
  }
  return Number(value.trim())
}

/** Spring's String → boolean: true/on/yes/1 and false/off/no/0, any case. */
function bool(value: string | undefined): boolean {
  if (value === undefined || value === '') return false
  const v = value.trim().toLowerCase()
  if (['true', 'on', 'yes', '1'].includes(v)) return true
  if (['false', 'off', 'no', '0'].includes(v)) return false
  throw new InvalidInputError(`Invalid boolean value [${value}]`)
}

/** `GET /openapi/v2/timeline/v1/{urn}` (and the v1 path the `datahub timeline` CLI calls). */
export async function timelineRoutes(
  app: CatalogServer,
  { timeline }: { readonly timeline: TimelineService },
): Promise<void> {
  for (const prefix of PREFIXES) {
    app.get(
      `${prefix}*`,
      {
        schema: {
          summary: 'Semantic change history of an entity, one transaction per write time, oldest first',
          tags: ['timeline'],
          querystring: TimelineQuerySchema,
          response: { 200: Type.Array(ChangeTransactionSchema), 400: RestliErrorSchema },
        },
      },
      async (request) => {
        const q = request.query
        return timeline.timeline({
          urn: urnFromPath(request.url, prefix),
          categories: parseCategories(strings(q.categories)),
          startTime: long(strings(q.startTime).at(-1), -1),
          endTime: long(strings(q.endTime).at(-1), 0),
          raw: bool(strings(q.raw).at(-1)),
        })
      },
    )
  }
}
