import { createServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { authorizeRest } from './authorize-rest.js'
import { Authorizer, type PolicySource } from './authorizer.js'
import type { PolicyInfo } from './policy-types.js'

const ALICE = 'urn:li:corpuser:alice'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)'

/** One policy, over a source with no memberships and no resource facts beyond the type. */
function authorizer(policies: PolicyInfo[]): Authorizer {
  const source: PolicySource = {
    policies: async () => policies,
    actor: async (urn) => ({ urn, groups: [], roles: [] }),
    resource: async (urn) => ({ type: 'dataset', urn, owners: [], domains: [], tags: [] }),
  }
  return new Authorizer(source)
}

async function app(t: Test, policies: PolicyInfo[], reads?: boolean) {
  const server = createServer()
  server.addHook('onRequest', async (request) => {
    request.actor = ALICE
  })
  await server.register(authorizeRest, {
    authorizer: authorizer(policies),
    ...(reads === undefined ? {} : { reads }),
  })
  server.get('/entities/*', async () => ({ value: {} }))
  server.post('/entities', async () => ({ value: { numEntities: 0 } }))
  t.teardown(() => server.close())
  return server
}

const viewAll: PolicyInfo = {
  type: 'METADATA',
  state: 'ACTIVE',
  privileges: ['VIEW_ENTITY_PAGE'],
  actors: { users: [ALICE] },
}

t.test('reads are checked by default, and not with reads off', async (t) => {
  const denied = await app(t, [])
  const entity = await denied.inject({ method: 'GET', url: `/entities/${encodeURIComponent(DS)}` })
  t.same([entity.statusCode, entity.json().message], [403, `User is unauthorized to get entity ${DS}`])
  const search = await denied.inject({
    method: 'POST',
    url: '/entities?action=search',
    payload: { input: '*' },
  })
  t.same([search.statusCode, search.json().message], [403, 'User is unauthorized to search.'])
  const malformed = await denied.inject({ method: 'GET', url: '/entities/not-a-urn' })
  t.equal(malformed.statusCode, 200, 'a URN the route cannot read is left to the route')

  const granted = await app(t, [viewAll])
  t.equal(
    (await granted.inject({ method: 'GET', url: `/entities/${encodeURIComponent(DS)}` })).statusCode,
    200,
  )
  t.equal(
    (await granted.inject({ method: 'POST', url: '/entities?action=search', payload: { input: '*' } }))
      .statusCode,
    200,
  )

  const off = await app(t, [], false)
  t.equal((await off.inject({ method: 'GET', url: `/entities/${encodeURIComponent(DS)}` })).statusCode, 200)
  t.equal(
    (await off.inject({ method: 'POST', url: '/entities?action=search', payload: { input: '*' } }))
      .statusCode,
    200,
    'reads off: searches are open to every authenticated caller',
  )
})

const TIMELINE = `/openapi/v2/timeline/v1/${encodeURIComponent(DS)}`

t.test(
  'the timeline needs the entity in view even with reads off, and its own privilege with reads on',
  async (t) => {
    const timelineApp = async (policies: PolicyInfo[], reads: boolean) => {
      const server = await app(t, policies, reads)
      server.get('/openapi/v2/timeline/v1/*', async () => [])
      return server
    }
    const off = await timelineApp([], false)
    const refused = await off.inject({ method: 'GET', url: TIMELINE })
    t.same(
      [refused.statusCode, refused.json().message],
      [403, `${ALICE} is unauthorized to view entity ${DS}`],
    )
    t.equal(
      (await (await timelineApp([viewAll], false)).inject({ method: 'GET', url: TIMELINE })).statusCode,
      200,
    )

    const on = await timelineApp([viewAll], true)
    const noTimeline = await on.inject({ method: 'GET', url: TIMELINE })
    t.same(
      [noTimeline.statusCode, noTimeline.json().message],
      [403, `${ALICE} is unauthorized to get the timeline for entity ${DS}`],
    )
    const both = await timelineApp(
      [{ ...viewAll, privileges: ['VIEW_ENTITY_PAGE', 'GET_TIMELINE_PRIVILEGE'] }],
      true,
    )
    t.equal((await both.inject({ method: 'GET', url: TIMELINE })).statusCode, 200)
  },
)

/** A token-shaped header whose payload says `type` (the signature is bearerAuth's business). */
const tokenOfType = (type: string) =>
  `Bearer x.${Buffer.from(JSON.stringify({ sub: ALICE, type })).toString('base64url')}.sig`

t.test('calls with a service token were authorized by the service that sent them', async (t) => {
  const denied = await app(t, [])
  const url = `/entities/${encodeURIComponent(DS)}`
  const service = await denied.inject({
    method: 'GET',
    url,
    headers: { authorization: tokenOfType('SERVICE') },
  })
  t.equal(service.statusCode, 200, 'a service token is not checked again')
  const personal = await denied.inject({
    method: 'GET',
    url,
    headers: { authorization: tokenOfType('PERSONAL') },
  })
  t.equal(personal.statusCode, 403, 'a personal token is')
  const garbled = await denied.inject({ method: 'GET', url, headers: { authorization: 'Bearer a.!!!.c' } })
  t.equal(garbled.statusCode, 403, 'so is anything else')
})

t.test('internal routes answer only service tokens', async (t) => {
  const server = await app(t, [{ ...viewAll, privileges: ['VIEW_ENTITY_PAGE', 'MANAGE_SYSTEM_OPERATIONS'] }])
  server.get('/internal/changes', async () => ({ head: 0, entries: [] }))
  const user = await server.inject({ method: 'GET', url: '/internal/changes?after=0' })
  t.same(
    [user.statusCode, user.json().message],
    [403, 'Unauthorized: internal routes answer only the catalog services'],
    'a user token is refused, whatever its privileges',
  )
  const service = await server.inject({
    method: 'GET',
    url: '/internal/changes?after=0',
    headers: { authorization: tokenOfType('SERVICE') },
  })
  t.equal(service.statusCode, 200)
})
