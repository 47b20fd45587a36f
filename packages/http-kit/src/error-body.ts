import { CatalogError, statusOf } from '@catalog/core'
import { Type } from 'typebox'

/** DataHub's Rest.li error body; the HTTP status always equals `status`. */
export interface RestliErrorBody {
  exceptionClass: string
  message?: string
  status: number
}

export const RESTLI_EXCEPTION = 'com.linkedin.restli.server.RestLiServiceException'

/** Builds the error body. `message` is omitted when there is none, as Rest.li does. */
export function restliError(
  status: number,
  message?: string,
  exceptionClass = RESTLI_EXCEPTION,
): RestliErrorBody {
  return { exceptionClass, ...(message ? { message } : {}), status }
}

interface FastifyLikeError {
  statusCode?: number
  code?: string
  message: string
  validation?: Array<{
    keyword: string
    instancePath: string
    params: Record<string, unknown>
    message?: string
  }>
  validationContext?: string
}

/**
 * Maps any thrown error to a status and body: domain errors by kind, fastify's own errors
 * (bad JSON 400, body too large 413, schema validation 400) by their status, the rest to a
 * 500 that names no internals.
 */
export function toRestliError(err: unknown): RestliErrorBody {
  if (err instanceof CatalogError) return restliError(statusOf(err), err.message)
  const e = err as FastifyLikeError
  if (e.validation && e.validation.length > 0) return restliError(400, describeValidation(e))
  // fastify's message says it ("Request body is too large").
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return restliError(413, e.message)
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return restliError(415, e.message)
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return restliError(e.statusCode, e.message)
  }
  return restliError(500, 'Internal server error')
}

function describeValidation(e: FastifyLikeError): string {
  const where = e.validationContext === 'querystring' ? 'query parameter' : 'parameter'
  return (e.validation ?? [])
    .slice(0, 5)
    .map((v) => {
      if (v.keyword === 'required') {
        const prefix = v.instancePath ? `${v.instancePath.slice(1).replace(/\//g, '.')}.` : ''
        return `Parameter '${prefix}${String(v.params.missingProperty)}' is required`
      }
      const path = v.instancePath ? v.instancePath.slice(1).replace(/\//g, '.') : '(body)'
      return `Invalid ${where} '${path}': ${v.message ?? v.keyword}`
    })
    .join('; ')
}

/** The error body as a schema, for route docs. */
export const RestliErrorSchema = Type.Object(
  { exceptionClass: Type.String(), message: Type.Optional(Type.String()), status: Type.Integer() },
  { description: 'Rest.li error body; the HTTP status equals `status`' },
)
