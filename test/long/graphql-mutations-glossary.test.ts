import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { build, ingestExamples } from '../helpers/build.js'
import { badRequest, gql, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** createGlossaryTerm, createGlossaryNode, updateParentNode, updateName. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const CHART = 'urn:li:chart:(looker,test-tags-terms-sample-chart)'
const SAVING = 'urn:li:glossaryTerm:SavingAccount'
const TERM = `query($urn: String!) { glossaryTerm(urn: $urn) { urn properties { name definition termSource }
  ownership { owners { owner { ... on CorpUser { urn } } } } } }`

t.test('glossary entities are created, moved and renamed', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  const node = await gql(
    app,
    'mutation { createGlossaryNode(input: {id: "banking", name: "Banking", description: "Money words"}) }',
  )
  t.same(node, { data: { createGlossaryNode: 'urn:li:glossaryNode:banking' } })
  t.same((await restAspects(app, 'urn:li:glossaryNode:banking')).glossaryNodeInfo?.value, {
    name: 'Banking',
    definition: 'Money words',
  })
  const term = await gql(
    app,
    'mutation { createGlossaryTerm(input: {id: "loan", name: "Loan", parentNode: "urn:li:glossaryNode:banking"}) }',
  )
  t.same(term, { data: { createGlossaryTerm: 'urn:li:glossaryTerm:loan' } })
  const read = await gql(app, TERM, { urn: 'urn:li:glossaryTerm:loan' })
  t.same(read.data.glossaryTerm.properties, { name: 'Loan', definition: '', termSource: 'INTERNAL' })
  t.same(
    read.data.glossaryTerm.ownership.owners,
    [{ owner: { urn: ROOT_ACTOR } }],
    'the creator owns the term',
  )
  t.equal(
    (await restAspects(app, 'urn:li:glossaryTerm:loan')).glossaryTermInfo?.value.parentNode,
    'urn:li:glossaryNode:banking',
  )

  t.same(
    await gql(
      app,
      `mutation { updateParentNode(input: {resourceUrn: "${SAVING}", parentNode: "urn:li:glossaryNode:banking"}) }`,
    ),
    { data: { updateParentNode: true } },
  )
  const saving = (await restAspects(app, SAVING)).glossaryTermInfo?.value
  t.equal(saving.parentNode, 'urn:li:glossaryNode:banking', 'the term moved under the node')
  t.ok(saving.definition, 'the rest of the info is kept')
  await gql(app, `mutation { updateParentNode(input: {resourceUrn: "${SAVING}"}) }`)
  t.equal(
    (await restAspects(app, SAVING)).glossaryTermInfo?.value.parentNode,
    undefined,
    'no parent: back to the root',
  )

  t.same(await gql(app, `mutation { updateName(input: {urn: "${SAVING}", name: "Savings account"}) }`), {
    data: { updateName: true },
  })
  t.equal((await gql(app, TERM, { urn: SAVING })).data.glossaryTerm.properties.name, 'Savings account')
  await gql(app, 'mutation { updateName(input: {urn: "urn:li:glossaryNode:banking", name: "Bank"}) }')
  t.equal((await restAspects(app, 'urn:li:glossaryNode:banking')).glossaryNodeInfo?.value.name, 'Bank')
  await gql(app, `mutation { updateDescription(input: {resourceUrn: "${DS}", description: "kept"}) }`)
  await gql(app, `mutation { updateName(input: {urn: "${DS}", name: "Friendly"}) }`)
  const editable = (
    await gql(app, `query { dataset(urn: "${DS}") { editableProperties { name description } } }`)
  ).data
  t.same(
    editable.dataset.editableProperties,
    { name: 'Friendly', description: 'kept' },
    'the dataset name; the description is kept',
  )
})

t.test('bad input: DataHub messages over HTTP 200, nothing written', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  await gql(app, 'mutation { createGlossaryNode(input: {id: "banking", name: "Banking"}) }')
  const before = { term: await snapshot(app, SAVING), chart: await snapshot(app, CHART) }
  const cases: Array<[string, string, string]> = [
    [
      'createGlossaryTerm',
      'mutation { createGlossaryTerm(input: {id: "SavingAccount", name: "x"}) }',
      'This Glossary Term already exists!',
    ],
    [
      'createGlossaryNode',
      'mutation { createGlossaryNode(input: {id: "banking", name: "x"}) }',
      'This Glossary Node already exists!',
    ],
    [
      'createGlossaryTerm',
      'mutation { createGlossaryTerm(input: {id: "new", name: "x", parentNode: "urn:li:glossaryNode:nope"}) }',
      'Failed to update urn:li:glossaryTerm:new. urn:li:glossaryNode:nope either does not exist or is not a glossaryNode.',
    ],
    [
      'updateParentNode',
      `mutation { updateParentNode(input: {resourceUrn: "${SAVING}", parentNode: "${SAVING}"}) }`,
      `Failed to update ${SAVING}. ${SAVING} either does not exist or is not a glossaryNode.`,
    ],
    [
      'updateParentNode',
      'mutation { updateParentNode(input: {resourceUrn: "urn:li:glossaryTerm:nope", parentNode: "urn:li:glossaryNode:banking"}) }',
      'Failed to update urn:li:glossaryTerm:nope. urn:li:glossaryTerm:nope does not exist.',
    ],
    [
      'updateParentNode',
      `mutation { updateParentNode(input: {resourceUrn: "${CHART}", parentNode: "urn:li:glossaryNode:banking"}) }`,
      `Failed to update parentNode. Unsupported resource type ${CHART} provided.`,
    ],
    [
      'updateName',
      'mutation { updateName(input: {urn: "urn:li:glossaryTerm:nope", name: "x"}) }',
      'Failed to update urn:li:glossaryTerm:nope. urn:li:glossaryTerm:nope does not exist.',
    ],
    [
      'updateName',
      `mutation { updateName(input: {urn: "${CHART}", name: "x"}) }`,
      `Failed to update name. Unsupported resource type ${CHART} provided.`,
    ],
  ]
  for (const [field, query, message] of cases) {
    t.same(badRequest(await gql(app, query), field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  t.equal(await snapshot(app, SAVING), before.term, 'the term is unchanged')
  t.equal(await snapshot(app, CHART), before.chart, 'the chart is unchanged')
  t.same(
    Object.keys(await restAspects(app, 'urn:li:glossaryTerm:new')),
    ['glossaryTermKey'],
    'no term was created (REST answers a missing entity with its key only)',
  )
})
