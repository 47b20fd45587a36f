import { type Answer, gql } from './actors.js'
import type { Built } from './build.js'

/** Calls as DataHub's frontend (`datahub-frontend`) makes them to GMS, for the sign-in tests. */

/** The system client the tests configure (`build(t, {auth: true, systemClient: CLIENT})`). */
export const CLIENT = { id: '__datahub_system', secret: 'frontend-system-secret-0123456789' }
export const BASIC = `Basic ${CLIENT.id}:${CLIENT.secret}`
export const ALICE = 'urn:li:corpuser:alice'

/** POST `/auth/<path>` as the frontend does; `authorization` null sends no credentials. */
export async function auth(
  b: Built,
  path: string,
  body: unknown,
  authorization: string | null = BASIC,
): Promise<Answer & { raw: string }> {
  const res = await b.app.inject({
    method: 'POST',
    url: `/auth/${path}`,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    payload: JSON.stringify(body),
  })
  return { status: res.statusCode, raw: res.body, body: res.body ? JSON.parse(res.body) : undefined }
}

export async function aspect(
  b: Built,
  urn: string,
  name: string,
): Promise<Record<string, unknown> | undefined> {
  const rows = (await b.store.latest([urn], [name])).get(urn) ?? []
  return rows[0]?.value as Record<string, unknown> | undefined
}

export async function inviteToken(b: Built, roleUrn?: string): Promise<string> {
  const answer = await gql(
    b.app,
    b.adminToken,
    'mutation($input: CreateInviteTokenInput!) { createInviteToken(input: $input) { inviteToken } }',
    {
      input: roleUrn ? { roleUrn } : {},
    },
  )
  return (answer.body as { data: { createInviteToken: { inviteToken: string } } }).data.createInviteToken
    .inviteToken
}

export const signUpBody = (token: string, over: Record<string, unknown> = {}) => ({
  userUrn: ALICE,
  fullName: 'Alice Liddell',
  email: 'alice@example.com',
  title: 'Data Scientist',
  password: 'correct horse',
  inviteToken: token,
  ...over,
})
