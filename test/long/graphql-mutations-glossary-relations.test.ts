import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** addRelatedTerms, removeRelatedTerms, deleteGlossaryEntity. */

const term = (id: string) => `urn:li:glossaryTerm:${id}`
const NODE = 'urn:li:glossaryNode:finance'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,glossary_relations,PROD)'
const IDS = ['account', 'loan', 'savings', 'rate', 'fee']

async function seed(app: CatalogServer, ids: readonly string[] = IDS): Promise<void> {
  await ingestAspect(app, 'glossaryNode', NODE, 'glossaryNodeInfo', { name: 'Finance', definition: '' })
  for (const id of ids) {
    await ingestAspect(app, 'glossaryTerm', term(id), 'glossaryTermInfo', {
      name: id,
      definition: `${id} term`,
      termSource: 'INTERNAL',
      parentNode: NODE,
    })
  }
}

const RELATED = 'mutation($i: RelatedTermsInput!) { addRelatedTerms(input: $i) }'
const UNRELATED = 'mutation($i: RelatedTermsInput!) { removeRelatedTerms(input: $i) }'
const relate = (app: CatalogServer, urn: string, termUrns: string[], relationshipType = 'isA') =>
  gql(app, RELATED, { i: { urn, termUrns, relationshipType } })
const unrelate = (app: CatalogServer, urn: string, termUrns: string[], relationshipType = 'isA') =>
  gql(app, UNRELATED, { i: { urn, termUrns, relationshipType } })

/** The term's outgoing edges of one type, over GraphQL. */
async function edges(app: CatalogServer, urn: string, type: string): Promise<string[]> {
  const res = await gql(
    app,
    `query($u: String!) { glossaryTerm(urn: $u) { relationships(input: {types: ["${type}"], direction: OUTGOING}) {
      relationships { entity { urn } } } } }`,
    { u: urn },
  )
  return res.data.glossaryTerm.relationships.relationships
    .map((r: { entity: { urn: string } }) => r.entity.urn)
    .sort()
}

t.test('related terms are added and removed, stored and read back', async (t) => {
  const { app } = await build(t)
  await seed(app)
  t.same(await relate(app, term('loan'), [term('account'), term('rate')]), {
    data: { addRelatedTerms: true },
  })
  t.same(await relate(app, term('loan'), [term('fee')], 'hasA'), { data: { addRelatedTerms: true } })
  const stored = (await restAspects(app, term('loan'))).glossaryRelatedTerms
  t.same(stored?.value.isRelatedTerms, [term('account'), term('rate')])
  t.same(stored?.value.hasRelatedTerms, [term('fee')])
  t.same(await edges(app, term('loan'), 'IsA'), [term('account'), term('rate')], 'IsA edges')
  t.same(await edges(app, term('loan'), 'HasA'), [term('fee')], 'HasA edges')

  const version = stored?.version
  t.same(await relate(app, term('loan'), [term('account')]), { data: { addRelatedTerms: true } })
  t.equal(
    (await restAspects(app, term('loan'))).glossaryRelatedTerms?.version,
    version,
    'already related: nothing is written',
  )

  t.same(await unrelate(app, term('loan'), [term('account'), term('savings')]), {
    data: { removeRelatedTerms: true },
  })
  const after = (await restAspects(app, term('loan'))).glossaryRelatedTerms?.value
  t.same(after.isRelatedTerms, [term('rate')], 'the related one is removed, the unrelated one ignored')
  t.same(after.hasRelatedTerms, [term('fee')], 'the other list is kept')
  t.same(await edges(app, term('loan'), 'IsA'), [term('rate')])
})

t.test('concurrent addRelatedTerms calls on one term lose nothing', async (t) => {
  const { app } = await build(t)
  const ids = Array.from({ length: 10 }, (_, i) => `t${i}`)
  await seed(app, ['root', ...ids])
  const answers = await Promise.all(ids.map((id) => relate(app, term('root'), [term(id)])))
  t.ok(
    answers.every((a) => a.data?.addRelatedTerms === true),
    'every call succeeds',
  )
  const stored = (await restAspects(app, term('root'))).glossaryRelatedTerms?.value.isRelatedTerms
  t.same([...stored].sort(), ids.map(term).sort())
})

t.test('deleteGlossaryEntity removes the entity and every reference to it', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await relate(app, term('loan'), [term('account'), term('rate')])
  await ingestAspect(app, 'dataset', DS, 'glossaryTerms', {
    terms: [{ urn: term('account') }, { urn: term('fee') }],
    auditStamp: { time: 0, actor: 'urn:li:corpuser:datahub' },
  })
  t.same(await gql(app, `mutation { deleteGlossaryEntity(urn: "${term('account')}") }`), {
    data: { deleteGlossaryEntity: true },
  })
  const exists = async (urn: string) =>
    (await gql(app, 'query($u: String!) { entityExists(urn: $u) }', { u: urn })).data.entityExists
  t.equal(await exists(term('account')), false, 'the term is gone')
  t.same(
    (await restAspects(app, term('loan'))).glossaryRelatedTerms?.value.isRelatedTerms,
    [term('rate')],
    'related terms no longer name it',
  )
  t.same(
    (await restAspects(app, DS)).glossaryTerms?.value.terms,
    [{ urn: term('fee') }],
    'the asset keeps its other term',
  )

  t.same(await gql(app, `mutation { deleteGlossaryEntity(urn: "${NODE}") }`), {
    data: { deleteGlossaryEntity: true },
  })
  t.equal(await exists(NODE), false, 'the node is gone')
  const loan = (await restAspects(app, term('loan'))).glossaryTermInfo?.value
  t.equal(loan.parentNode, undefined, 'its children move to the root')
  t.equal(loan.definition, 'loan term', 'and keep the rest of their info')
})

t.test('bad input: DataHub messages over HTTP 200, nothing written', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await relate(app, term('loan'), [term('rate')])
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'ds', customProperties: {} })
  const watched = [term('loan'), term('account'), NODE, DS]
  const before = await Promise.all(watched.map((u) => snapshot(app, u)))
  const L = term('loan')
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    [
      'addRelatedTerms',
      RELATED,
      { i: { urn: term('nope'), termUrns: [L], relationshipType: 'isA' } },
      `Failed to update ${term('nope')}. ${term('nope')} either does not exist or is not a glossaryTerm.`,
    ],
    [
      'addRelatedTerms',
      RELATED,
      { i: { urn: NODE, termUrns: [L], relationshipType: 'isA' } },
      `Failed to update ${NODE}. ${NODE} either does not exist or is not a glossaryTerm.`,
    ],
    [
      'addRelatedTerms',
      RELATED,
      { i: { urn: L, termUrns: [term('account'), L], relationshipType: 'isA' } },
      `Failed to update ${L}. Tried to create related term with itself.`,
    ],
    [
      'addRelatedTerms',
      RELATED,
      { i: { urn: L, termUrns: [term('account'), NODE], relationshipType: 'hasA' } },
      `Failed to update ${L}. ${NODE} is not a glossaryTerm.`,
    ],
    [
      'addRelatedTerms',
      RELATED,
      { i: { urn: L, termUrns: [term('account'), term('nope')], relationshipType: 'isA' } },
      `Failed to update ${L}. ${term('nope')} does not exist.`,
    ],
    [
      'removeRelatedTerms',
      UNRELATED,
      { i: { urn: term('account'), termUrns: [L], relationshipType: 'isA' } },
      `Related Terms for this Urn do not exist: ${term('account')}`,
    ],
    [
      'removeRelatedTerms',
      UNRELATED,
      { i: { urn: DS, termUrns: [L], relationshipType: 'isA' } },
      `Failed to update ${DS}. ${DS} either does not exist or is not a glossaryTerm.`,
    ],
    [
      'deleteGlossaryEntity',
      'mutation($u: String!) { deleteGlossaryEntity(urn: $u) }',
      { u: term('nope') },
      `This urn does not exist: ${term('nope')}`,
    ],
    [
      'deleteGlossaryEntity',
      'mutation($u: String!) { deleteGlossaryEntity(urn: $u) }',
      { u: DS },
      `Failed to perform delete against glossary entity with urn ${DS}`,
    ],
  ]
  for (const [field, query, variables, message] of cases) {
    t.same(
      badRequest(await gql(app, query, variables), field),
      { message, code: 400, type: 'BAD_REQUEST' },
      message,
    )
  }
  const wrongEnum = await gql(app, RELATED, { i: { urn: L, termUrns: [], relationshipType: 'isOf' } })
  t.equal(
    wrongEnum.errors?.[0]?.extensions?.classification,
    'ValidationError',
    'an unknown relationship type',
  )
  t.same(await Promise.all(watched.map((u) => snapshot(app, u))), before, 'nothing changed')
})

t.test('a Reader may not edit the glossary; nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  for (const id of ['a', 'b']) {
    await adminWrite(built, term(id), 'glossaryTermInfo', {
      name: id,
      definition: '',
      termSource: 'INTERNAL',
    })
  }
  await adminWrite(built, term('a'), 'glossaryRelatedTerms', { isRelatedTerms: [term('b')] })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const input = { urn: term('a'), termUrns: [term('b')], relationshipType: 'hasA' }
  const calls: Record<string, [string, Record<string, unknown>]> = {
    addRelatedTerms: [RELATED, { i: input }],
    removeRelatedTerms: [UNRELATED, { i: { ...input, relationshipType: 'isA' } }],
    deleteGlossaryEntity: ['mutation($u: String!) { deleteGlossaryEntity(urn: $u) }', { u: term('b') }],
  }
  for (const [name, [query, variables]] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(
    await aspectOf(built, term('a'), 'glossaryRelatedTerms'),
    { isRelatedTerms: [term('b')] },
    'the relations are unchanged',
  )
  t.ok(await aspectOf(built, term('b'), 'glossaryTermInfo'), 'the term is still there')
  const admin = await gqlAs(built.app, built.adminToken, RELATED, { i: input })
  t.same(admin.body, { data: { addRelatedTerms: true } }, 'the admin may')
})
