import {
  corpUserUrn,
  type InviteTokenService,
  type NativeUserService,
  SESSION_TOKEN_TTL_MS,
  type SsoSettingsReader,
  type TokenService,
} from '@catalog/auth'
import { CatalogError, UnauthorizedError } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type Static, Type } from 'typebox'

/** Every field optional: DataHub answers a missing one with an empty 400, checked in the handler. */
const Field = Type.Optional(Type.Unknown())
const SessionBodySchema = Type.Object({ userId: Field })
const SignUpBodySchema = Type.Object({
  userUrn: Field,
  fullName: Field,
  email: Field,
  title: Field,
  password: Field,
  inviteToken: Field,
})
const ResetBodySchema = Type.Object({ userUrn: Field, password: Field, resetToken: Field })
const VerifyBodySchema = Type.Object({ userUrn: Field, password: Field })

export interface AuthServiceRoutesOptions {
  readonly tokens: TokenService
  /** Native users and invite tokens, on the metadata store (see `nativeAuthServices`). */
  readonly users: NativeUserService
  readonly invites: InviteTokenService
  /** The stored SSO settings (`globalSettingsInfo.sso`); absent: there are none. */
  readonly sso?: SsoSettingsReader
  /** False with CATALOG_AUTH=off: every caller acts as the root user and may call these. */
  readonly enabled: boolean
  readonly sessionTtlMs?: number
}

const schema = (summary: string, body: unknown) => ({
  summary,
  description:
    "DataHub GMS's endpoint for its frontend; only the system client (`Authorization: Basic <id>:<secret>`) may call it.",
  tags: ['auth'],
  body,
})

/**
 * DataHub GMS's `/auth/*` endpoints that DataHub's frontend (`datahub-frontend`) calls to sign
 * users in: session tokens, native sign-up, password verification and reset. Bodies, statuses
 * and empty error bodies are DataHub's (`AuthServiceController`).
 */
export async function authServiceRoutes(app: CatalogServer, opts: AuthServiceRoutesOptions): Promise<void> {
  const { tokens, users, invites } = opts
  const systemOnly = (request: FastifyRequest) => {
    if (!opts.enabled || (request.actor !== undefined && request.actor === tokens.systemClientActor)) return
    throw new UnauthorizedError(`${request.actor ?? 'anonymous'} unauthorized to perform this action.`)
  }

  app.post(
    '/auth/generateSessionTokenForUser',
    { schema: schema('Mint a session token for a user', SessionBodySchema) },
    async (request, reply) => {
      systemOnly(request)
      const { userId } = request.body as Static<typeof SessionBodySchema>
      if (typeof userId !== 'string' || userId.length === 0) return empty(reply, 400)
      const urn = corpUserUrnOr(userId)
      if (urn === undefined) return empty(reply, 400)
      const denial = await users.sessionDenial(urn)
      if (denial) return reply.code(403).send({ loginDenialReason: denial })
      return { accessToken: tokens.sessionToken(urn, opts.sessionTtlMs ?? SESSION_TOKEN_TTL_MS) }
    },
  )

  app.post(
    '/auth/signUp',
    { schema: schema('Create a native user with an invite token', SignUpBodySchema) },
    async (request, reply) => {
      systemOnly(request)
      const body = request.body as Static<typeof SignUpBodySchema>
      const { userUrn, fullName, email, password, inviteToken, title } = body
      if (
        ![userUrn, fullName, email, password, inviteToken].every(isText) ||
        (title != null && !isText(title))
      ) {
        return empty(reply, 400)
      }
      const urn = corpUserUrnOr(userUrn as string)
      if (urn === undefined || users.isReserved(urn) || password === '') return empty(reply, 400)
      if (!(await invites.isValid(inviteToken as string))) return empty(reply, 400)
      return guarded(reply, request, async () => {
        await users.createNativeUser({
          userUrn: urn,
          fullName: fullName as string,
          email: email as string,
          ...(isText(title) ? { title } : {}),
          password: password as string,
        })
        return { isNativeUserCreated: true }
      })
    },
  )

  app.post(
    '/auth/resetNativeUserCredentials',
    { schema: schema('Set a native user password with a reset token', ResetBodySchema) },
    async (request, reply) => {
      systemOnly(request)
      const { userUrn, password, resetToken } = request.body as Static<typeof ResetBodySchema>
      if (![userUrn, password, resetToken].every(isText)) return empty(reply, 400)
      return guarded(reply, request, async () => {
        await users.resetCredentials(userUrn as string, password as string, resetToken as string)
        return { areNativeUserCredentialsReset: true }
      })
    },
  )

  app.post(
    '/auth/verifyNativeUserCredentials',
    { schema: schema("Check a native user's password", VerifyBodySchema) },
    async (request, reply) => {
      systemOnly(request)
      const { userUrn, password } = request.body as Static<typeof VerifyBodySchema>
      if (![userUrn, password].every(isText)) return empty(reply, 400)
      return guarded(reply, request, async () => {
        const matches = await users.doesPasswordMatch(userUrn as string, password as string)
        const denial = matches ? await users.sessionDenial(userUrn as string) : 'INVALID_CREDENTIALS'
        return { doesPasswordMatch: matches, ...(denial ? { loginDenialReason: denial } : {}) }
      })
    },
  )

  // DataHub lets any authenticated caller ask (no system-client check) and ignores the body.
  app.post(
    '/auth/getSsoSettings',
    {
      schema: {
        summary: 'The stored SSO settings for the frontend',
        description:
          "DataHub GMS's endpoint for its frontend: `globalSettingsInfo.sso` with the OIDC client secret decrypted; an empty 404 when no SSO is configured (this catalog configures none itself).",
        tags: ['auth'],
      },
    },
    async (request, reply) => {
      const sso = opts.sso
      if (!sso) return empty(reply, 404)
      return guarded(reply, request, async () => (await sso.response()) ?? empty(reply, 404))
    },
  )
}

function isText(value: unknown): value is string {
  return typeof value === 'string'
}

function corpUserUrnOr(idOrUrn: string): string | undefined {
  try {
    return corpUserUrn(idOrUrn)
  } catch {
    return undefined
  }
}

function empty(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).send()
}

/** DataHub answers any failure of the service with an empty 500 (the reason goes to the log). */
async function guarded(
  reply: FastifyReply,
  request: FastifyRequest,
  run: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof CatalogError && (err.kind === 'unavailable' || err.kind === 'overloaded')) throw err
    request.log.warn({ err: err instanceof Error ? err.message : String(err) }, `${request.url} refused`)
    return empty(reply, 500)
  }
}
