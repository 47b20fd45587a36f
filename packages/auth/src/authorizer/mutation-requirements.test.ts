import t from 'tap'
import { GRAPHQL_UNAUTHORIZED_MESSAGE, type MutationFacts, mutationCheck } from './mutation-requirements.js'

const ALICE = 'urn:li:corpuser:alice'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)'
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,lines,PROD)'
const facts = (stored: Record<string, Record<string, unknown>> = {}): MutationFacts => ({
  actor: ALICE,
  read: async (urn) => stored[urn],
})

t.test('entity edits: the specific privilege or EDIT_ENTITY, on the resource of the input', async (t) => {
  const tag = await mutationCheck('addTag', { input: { tagUrn: 'urn:li:tag:a', resourceUrn: DS } }, facts())
  t.same(tag.requirements, [{ anyOf: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'], resource: DS }])
  const col = await mutationCheck(
    'addTerm',
    {
      input: {
        termUrn: 'urn:li:glossaryTerm:t',
        resourceUrn: DS,
        subResource: 'id',
        subResourceType: 'DATASET_FIELD',
      },
    },
    facts(),
  )
  t.same(col.requirements, [{ anyOf: ['EDIT_DATASET_COL_GLOSSARY_TERMS', 'EDIT_ENTITY'], resource: DS }])
  const emptySub = await mutationCheck(
    'updateDescription',
    { input: { resourceUrn: DS, subResource: '' } },
    facts(),
  )
  t.same(
    emptySub.requirements,
    [{ anyOf: ['EDIT_ENTITY_DOCS', 'EDIT_ENTITY'], resource: DS }],
    'empty: the entity',
  )
  const batch = await mutationCheck(
    'batchAddOwners',
    { input: { owners: [], resources: [{ resourceUrn: DS }, { resourceUrn: DS2 }] } },
    facts(),
  )
  t.same(batch.requirements, [
    { anyOf: ['EDIT_ENTITY_OWNERS', 'EDIT_ENTITY'], resource: DS },
    { anyOf: ['EDIT_ENTITY_OWNERS', 'EDIT_ENTITY'], resource: DS2 },
  ])
  const domain = await mutationCheck('setDomain', { entityUrn: DS, domainUrn: 'urn:li:domain:d' }, facts())
  t.same(domain.requirements, [{ anyOf: ['EDIT_DOMAINS_PRIVILEGE', 'EDIT_ENTITY'], resource: DS }])
  const update = await mutationCheck(
    'updateDataset',
    { urn: DS, input: { globalTags: {}, editableProperties: {} } },
    facts(),
  )
  t.same(update.requirements, [
    { anyOf: ['EDIT_ENTITY_DOCS', 'EDIT_ENTITY'], resource: DS },
    { anyOf: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'], resource: DS },
  ])
  const missing = await mutationCheck('addLink', { input: {} }, facts())
  t.same(
    missing.requirements,
    [{ anyOf: ['EDIT_ENTITY_DOC_LINKS', 'EDIT_ENTITY'] }],
    'no URN: every resource',
  )
})

t.test('platform mutations, tokens and the fail-closed default', async (t) => {
  t.same((await mutationCheck('createTag', { input: { name: 'x' } }, facts())).requirements, [
    { anyOf: ['CREATE_TAGS', 'MANAGE_TAGS'] },
  ])
  t.same((await mutationCheck('createDomain', { input: { name: 'x' } }, facts())).requirements, [
    { anyOf: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'] },
  ])
  const assign = await mutationCheck('batchAssignRole', { input: { actors: [] } }, facts())
  t.same(assign.requirements, [{ anyOf: ['MANAGE_POLICIES'] }])
  t.match(assign.message, /^Unauthorized to assign roles\./)
  const own = await mutationCheck('createAccessToken', { input: { actorUrn: ALICE } }, facts())
  t.same(own.requirements, [{ anyOf: ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'] }])
  const other = await mutationCheck(
    'createAccessToken',
    { input: { actorUrn: 'urn:li:corpuser:bob' } },
    facts(),
  )
  t.same(other.requirements, [{ anyOf: ['MANAGE_ACCESS_TOKENS'] }])
  const token = 'urn:li:dataHubAccessToken:t1'
  const mine = await mutationCheck(
    'revokeAccessToken',
    { tokenId: 't1' },
    facts({ [token]: { ownerUrn: ALICE } }),
  )
  t.same(mine.requirements, [], 'its owner revokes a token')
  const theirs = await mutationCheck(
    'revokeAccessToken',
    { tokenId: 't1' },
    facts({ [token]: { ownerUrn: 'urn:li:corpuser:bob' } }),
  )
  t.same(theirs.requirements, [{ anyOf: ['MANAGE_ACCESS_TOKENS'] }])
  for (const name of ['createDataHubFile', 'toString', '__proto__', 'constructor']) {
    const check = await mutationCheck(name, {}, facts())
    t.same(check.requirements, [{ anyOf: ['MANAGE_POLICIES'] }], `${name}: no rule, fails closed`)
    t.equal(check.message ?? GRAPHQL_UNAUTHORIZED_MESSAGE, GRAPHQL_UNAUTHORIZED_MESSAGE)
  }
})

t.test('generic patches: EDIT_ENTITY, plus the privilege guarding system entities and aspects', async (t) => {
  const patch = (urn: string, aspectName: string) =>
    mutationCheck('patchEntity', { input: { urn, aspectName } }, facts())
  const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)'
  t.same((await patch(DS, 'datasetProperties')).requirements, [
    { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY'], resource: DS },
  ])
  const policy = await patch('urn:li:dataHubPolicy:p1', 'dataHubPolicyInfo')
  t.same(policy.requirements, [
    { anyOf: ['EDIT_ENTITY', 'EDIT_ENTITY'], resource: 'urn:li:dataHubPolicy:p1' },
    { anyOf: ['MANAGE_POLICIES'] },
  ])
  const roles = await patch(ALICE, 'roleMembership')
  t.same(roles.requirements[1], { anyOf: ['MANAGE_POLICIES'] }, 'assigning oneself a role')
  const secret = await patch('urn:li:dataHubSecret:S', 'dataHubSecretValue')
  t.same(secret.requirements[1], { anyOf: ['MANAGE_SECRETS'] })
  for (const odd of ['urn:li:constructor:x', 'urn:li:__proto__:x']) {
    t.same((await patch(odd, 'toString')).requirements.length, 1, `${odd}: no guard from Object's members`)
  }
  const many = await mutationCheck(
    'patchEntities',
    {
      input: [
        { urn: DS, aspectName: 'globalTags' },
        { urn: ALICE, aspectName: 'corpUserCredentials' },
      ],
    },
    facts(),
  )
  t.same(many.requirements.at(-1), { anyOf: ['MANAGE_USER_CREDENTIALS'] })
})
