import '@catalog/http-kit'
import { ForbiddenError } from '@catalog/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Authorizer } from '../authorizer/authorizer.js'
import { isPublicPath } from '../bearer-auth.js'
import { CORP_USER_CREDENTIALS_ASPECT } from './credential-records.js'

/** The snapshot-union key of the aspect in Rest.li answers. */
const UNION_KEY = 'com.linkedin.identity.CorpUserCredentials'
/** Case-insensitive marker, found in the aspect name and in its union key. */
const MARKER = 'corpusercredentials'
/** The marker in any case, tested without a lowercased copy of the whole answer. */
const MARKER_ANY_CASE = new RegExp(MARKER, 'i')
const NEEDED = [{ anyOf: ['MANAGE_USER_CREDENTIALS'] }] as const

export interface CredentialReadGuardOptions {
  readonly authorizer: Authorizer
}

/**
 * Keeps native users' `corpUserCredentials` from whoever lacks `MANAGE_USER_CREDENTIALS`, as
 * DataHub's `SensitiveAspectAuthUtil` does on every read surface: a read that names the aspect
 * (`/aspects/{urn}?aspect=corpUserCredentials`, an OpenAPI aspect path, `aspects=List(...)`)
 * answers 403; every other answer has the aspect left out (entity reads, batch reads, scrolls,
 * GraphQL). Answers without the aspect's name are not parsed.
 */
export const credentialReadGuard = fp(
  async (app: FastifyInstance, { authorizer }: CredentialReadGuardOptions) => {
    const actorOf = (request: FastifyRequest) => request.actor ?? 'urn:li:corpuser:__anonymous'
    const mayRead = async (request: FastifyRequest) => authorizer.authorize(actorOf(request), NEEDED)

    // Callback hooks: the root and system users, who may read everything, cost no promise.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.method !== 'GET' || authorizer.grantsEverything(actorOf(request))) return done()
      if (isPublicPath(request.url) || !namesCredentials(request.url)) return done()
      mayRead(request).then(
        (may) =>
          done(
            may
              ? undefined
              : new ForbiddenError(`User is unauthorized to read aspect ${CORP_USER_CREDENTIALS_ASPECT}`),
          ),
        done,
      )
    })

    app.addHook('onSend', (request, reply, payload, done) => {
      if (authorizer.grantsEverything(actorOf(request))) return done(null, payload)
      const text =
        typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? payload.toString('utf8')
            : undefined
      if (text === undefined || !MARKER_ANY_CASE.test(text)) return done(null, payload)
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return done(null, payload)
      mayRead(request).then((may) => done(null, may ? payload : withoutCredentials(text, payload)), done)
    })
  },
  { name: 'catalog-credential-read-guard' },
)

/** The answer without the aspect; an answer that is not JSON is left as it is. */
function withoutCredentials(text: string, payload: unknown): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return payload
  }
  return JSON.stringify(omitCredentials(parsed))
}

/** A copy of `value` without the aspect: object keys, and array entries naming or wrapping it. */
export function omitCredentials(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.filter((item) => !isCredentialEntry(item)).map(omitCredentials)
  }
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value)) {
    if (key === CORP_USER_CREDENTIALS_ASPECT || key === UNION_KEY) continue
    out[key] = omitCredentials(inner)
  }
  return out
}

/** `{"com.linkedin.identity.CorpUserCredentials": ...}` in a snapshot, or a row whose aspect name is it. */
function isCredentialEntry(item: unknown): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false
  const record = item as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length === 1 && keys[0] === UNION_KEY) return true
  return record.aspectName === CORP_USER_CREDENTIALS_ASPECT || record.aspect === CORP_USER_CREDENTIALS_ASPECT
}

/** Whether the path, or a query parameter naming aspects (`aspect`, `aspects`, `aspectNames`), names the aspect. */
function namesCredentials(url: string): boolean {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  if (safeDecode(path).toLowerCase().includes(MARKER)) return true
  if (q < 0) return false
  for (const [key, value] of new URLSearchParams(url.slice(q + 1))) {
    if (key.toLowerCase().startsWith('aspect') && value.toLowerCase().includes(MARKER)) return true
  }
  return false
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url)
  } catch {
    return url
  }
}
