import { CatalogError, statusOf } from '@catalog/core'
import type { FastifyBaseLogger } from 'fastify'
import { type ExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql'

/** DataHub's `DataHubGraphQLErrorCode`, plus 401 for a failed authentication. */
type ErrorType = 'BAD_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'CONFLICT' | 'SERVER_ERROR'

interface Extensions {
  readonly code: number
  readonly type: ErrorType
  readonly classification: 'DataFetchingException' | 'ValidationError'
}

/** A root field of DataHub's schema this server does not answer yet (its message names the field). */
export class NotServedError extends Error {
  override readonly name = 'NotServedError'
}

/** The message DataHub gives an error it cannot explain. */
export const UNKNOWN_ERROR = 'An unknown error occurred.'

/** Fastify and mercurius errors that DataHub answers with a bare 400 (no body). */
const BARE_400 = new Set([
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'MER_ERR_GQL_PERSISTED_QUERY_NOT_FOUND',
])

function extensionsOf(err: unknown, classification: Extensions['classification']): Extensions {
  if (err instanceof CatalogError) {
    switch (err.kind) {
      case 'unauthorized':
        return { code: 401, type: 'UNAUTHORIZED', classification }
      case 'forbidden':
        return { code: 403, type: 'UNAUTHORIZED', classification }
      case 'not-found':
        return { code: 404, type: 'NOT_FOUND', classification }
      case 'conflict':
        return { code: 409, type: 'CONFLICT', classification }
      default:
        return statusOf(err) < 500 && err.kind !== 'overloaded'
          ? { code: 400, type: 'BAD_REQUEST', classification }
          : { code: 500, type: 'SERVER_ERROR', classification }
    }
  }
  if (err instanceof NotServedError) return { code: 500, type: 'SERVER_ERROR', classification }
  if (classification === 'ValidationError') return { code: 400, type: 'BAD_REQUEST', classification }
  return { code: 500, type: 'SERVER_ERROR', classification }
}

/** One error as DataHub writes it: message, locations, path, `extensions {code, type, classification}`. */
function shape(
  error: GraphQLError,
  classification: Extensions['classification'],
  log: FastifyBaseLogger,
): GraphQLFormattedError {
  const original = error.originalError
  let message = error.message
  if (
    original &&
    !(original instanceof CatalogError) &&
    !(original instanceof GraphQLError) &&
    !(original instanceof NotServedError)
  ) {
    // A bug, not bad input: say nothing of internals.
    log.error({ err: original, path: error.path }, 'graphql resolver failed')
    message = UNKNOWN_ERROR
  } else if (original instanceof CatalogError && statusOf(original) >= 500) {
    log.warn({ err: original, path: error.path }, 'graphql backend failure')
  }
  return {
    message,
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
    extensions: { ...extensionsOf(original, classification) },
  }
}

/** A request-validation error (parse, validation, depth, method) as a GraphQLError: its message is for the caller. */
function asGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err
  return new GraphQLError((err as Error)?.message ?? String(err))
}

/**
 * Mercurius error formatter, answering as DataHub's GraphQL controller does: HTTP 200 with
 * `{data, errors}` for validation and resolver errors, every error carrying
 * `extensions {code, type, classification}`; 401 with an `UNAUTHORIZED` error when
 * authentication failed; a bare 400 for unparseable JSON (a missing or non-string query is
 * answered before, see `request-check.ts`); the error's own
 * status for other request-level failures (413, 415, 405, 503).
 */
export function formatGraphqlErrors(
  execution: ExecutionResult & { readonly errors: readonly GraphQLError[] },
  context: {
    readonly reply?: { readonly log: FastifyBaseLogger }
    readonly app: { readonly log: FastifyBaseLogger }
  },
): { statusCode: number; response: ExecutionResult } {
  const log = context.reply?.log ?? context.app.log
  const first = execution.errors[0]
  const nested = (first?.originalError as { errors?: unknown } | undefined)?.errors
  if (Array.isArray(nested)) {
    // Parse, validation, limit and variable errors (200), or a mutation sent with GET (405): nothing ran.
    const status = (first?.originalError as { statusCode?: number } | undefined)?.statusCode
    const errors = nested.map((e) => shape(asGraphQLError(e), 'ValidationError', log))
    return {
      statusCode: status === 405 ? 405 : 200,
      response: { data: null, errors: errors as unknown as GraphQLError[] },
    }
  }
  if (execution.data === undefined && first && !first.originalError) {
    // graphql-js refused the request itself (unknown or missing operation name): nothing ran.
    const errors = execution.errors.map((e) => shape(e, 'ValidationError', log))
    return { statusCode: 200, response: { data: null, errors: errors as unknown as GraphQLError[] } }
  }
  if (execution.data === undefined && first) {
    // Failed before execution: authentication, body parsing, method, size.
    const original = first.originalError ?? first
    const status =
      original instanceof CatalogError
        ? statusOf(original)
        : ((original as { statusCode?: number }).statusCode ?? 500)
    const code = (original as { code?: string }).code
    if (status === 400 && code && BARE_400.has(code)) {
      return { statusCode: 400, response: undefined as unknown as ExecutionResult }
    }
    const error =
      original instanceof CatalogError || status >= 500
        ? shape(first, 'DataFetchingException', log)
        : {
            message: first.message,
            extensions: { code: status, type: 'BAD_REQUEST', classification: 'DataFetchingException' },
          }
    return { statusCode: status, response: { data: null, errors: [error] as unknown as GraphQLError[] } }
  }
  const errors = execution.errors.map((e) => shape(e, 'DataFetchingException', log))
  return {
    statusCode: 200,
    response: { data: execution.data ?? null, errors: errors as unknown as GraphQLError[] },
  }
}
