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
