import t from 'tap'
import { restReadCheck } from './read-requirements.js'

const ALICE = 'urn:li:corpuser:alice'
const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)'
const enc = encodeURIComponent
const check = (method: string, route: string, url: string, body?: unknown, query?: unknown) =>
  restReadCheck(
    method,
    route,
    url,
    new URLSearchParams(url.split('?')[1] ?? '').get('action') ?? undefined,
    query ?? {},
    body,
    ALICE,
  )

t.test('the batch /entitiesV2 needs READ of every URN; malformed ones are left to the route', async (t) => {
  const batch = check('GET', '/entitiesV2', `/entitiesV2?ids=List(${enc(A)},${enc(B)},not-a-urn)`)
  t.same(
    batch?.requirements.map((r) => r.resource),
    [A, B],
  )
  t.same(batch?.requirements[0]?.anyOf, [
    'VIEW_ENTITY_PAGE',
    'GET_ENTITY_PRIVILEGE',
    'EDIT_ENTITY',
    'DELETE_ENTITY',
  ])
  t.equal(batch?.message, `User is unauthorized to get entities [${A}, ${B}, not-a-urn]`)
  t.equal(check('GET', '/entitiesV2', '/entitiesV2?ids=List(nope)'), undefined)
})

t.test('the read actions and what each needs', async (t) => {
  const needs = (url: string, route: string, body: unknown) => {
    const c = check('POST', route, url, body)
    return c && { anyOf: c.requirements.map((r) => [r.anyOf, r.resource]), message: c.message }
  }
  t.same(needs('/usageStats?action=queryRange', '/usageStats', { resource: A }), {
    anyOf: [[['VIEW_DATASET_USAGE', 'MANAGE_SYSTEM_OPERATIONS'], A]],
    message: 'User is unauthorized to query usage.',
  })
  t.same(
    needs('/relationships?action=getLineage', '/relationships', { urn: B })?.message,
    `User is unauthorized to get entity lineage: ${B}`,
  )
  t.same(needs('/entities?action=exists', '/entities', { urn: 'urn:li:dataHubAccessToken:x' })?.anyOf, [
    [
      [
        'MANAGE_ACCESS_TOKENS',
        'EXISTS_ENTITY',
        'EDIT_ENTITY',
        'DELETE_ENTITY',
        'VIEW_ENTITY_PAGE',
        'SEARCH_PRIVILEGE',
      ],
      'urn:li:dataHubAccessToken:x',
    ],
  ])
  t.same(needs('/aspects?action=getCount', '/aspects', { aspect: 'datasetKey' })?.anyOf, [
    [['GET_COUNTS_PRIVILEGE'], undefined],
  ])
  t.equal(
    needs('/entities?action=exists', '/entities', { urn: 'nope' }),
    undefined,
    'the route answers a bad URN',
  )
  t.equal(needs('/aspects?action=ingestProposal', '/aspects', {}), undefined, 'writes are not reads')
})

t.test('OpenAPI: HEAD asks EXISTS, GET asks READ', async (t) => {
  const path = `/openapi/v3/entity/dataset/${enc(A)}`
  t.same(check('HEAD', '/openapi/v3/entity/*', path)?.requirements[0]?.anyOf, [
    'EXISTS_ENTITY',
    'EDIT_ENTITY',
    'DELETE_ENTITY',
    'VIEW_ENTITY_PAGE',
    'SEARCH_PRIVILEGE',
  ])
  t.same(check('GET', '/openapi/v3/entity/*', path)?.requirements[0]?.anyOf, [
    'VIEW_ENTITY_PAGE',
    'GET_ENTITY_PRIVILEGE',
    'EDIT_ENTITY',
    'DELETE_ENTITY',
  ])
})
