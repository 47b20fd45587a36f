import type { FastifyReply, FastifyRequest } from 'fastify'

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)

/** Why a GraphQL request's `query` / `operationName` are unusable, or undefined when they are fine. */
function problemOf(params: unknown): string | undefined {
  if (!isObject(params)) return undefined // left to the route's schema ("body must be object")
  const { query, operationName } = params
  if (query === undefined || query === null || query === '') return 'The request has no query'
  if (typeof query !== 'string') return `The query must be a string, not ${typeof query}`
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return `The operationName must be a string, not ${typeof operationName}`
  }
  return undefined
}

/**
 * `preValidation` hook of the GraphQL route: a request without a usable `query` string (`{}`,
 * `{"query": 5}`) is answered as a GraphQL validation error over HTTP 200, in DataHub's error
 * shape, instead of reaching mercurius (which answers such requests 400 or 500).
 */
export async function checkGraphqlRequest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const problem = problemOf(request.method === 'GET' ? request.query : request.body)
  if (!problem) return
  await reply.code(200).send({
    data: null,
    errors: [
      {
        message: problem,
        extensions: { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' },
      },
    ],
  })
}
