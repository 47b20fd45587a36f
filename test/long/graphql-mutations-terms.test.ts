import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { build, ingestExamples } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** addTerm(s), removeTerm, batchAddTerms, batchRemoveTerms, batchAddTags, batchRemoveTags. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const CHART = 'urn:li:chart:(looker,test-tags-terms-sample-chart)'
const FIELD = '[version=2.0].[type=boolean].field_bar'
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:kafka,no-such-dataset,PROD)'
const SAVING = 'urn:li:glossaryTerm:SavingAccount'
const CHECKING = 'urn:li:glossaryTerm:CheckingAccount'
const LEGACY = 'urn:li:tag:Legacy'
const PII = 'urn:li:tag:pii'

const TERMS = `query($urn: String!) { dataset(urn: $urn) {
  glossaryTerms { terms { term { urn } } }
  editableSchemaMetadata { editableSchemaFieldInfo { fieldPath glossaryTerms { terms { term { urn } } } tags { tags { tag { urn } } } } } } }`

async function setup(t: Test) {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  await ingestAspect(app, 'glossaryTerm', CHECKING, 'glossaryTermInfo', {
    definition: 'c',
    termSource: 'INTERNAL',
  })
  await ingestAspect(app, 'tag', PII, 'tagProperties', { name: 'pii' })
  return app
}

async function read(app: CatalogServer) {
  const d = (await gql(app, TERMS, { urn: DS })).data.dataset
  const field = d.editableSchemaMetadata?.editableSchemaFieldInfo?.[0]
  const urns = (list: Array<{ term?: { urn: string }; tag?: { urn: string } }> | undefined) =>
    list?.map((x) => x.term?.urn ?? x.tag?.urn)
  return {
    terms: urns(d.glossaryTerms?.terms),
    fieldTerms: urns(field?.glossaryTerms?.terms),
    fieldTags: urns(field?.tags?.tags),
  }
}

t.test('term mutations on the dataset and on a schema field', async (t) => {
  const app = await setup(t)
  t.same(await read(app), { terms: undefined, fieldTerms: undefined, fieldTags: undefined })
  t.same(await gql(app, `mutation { addTerm(input: {termUrn: "${SAVING}", resourceUrn: "${DS}"}) }`), {
    data: { addTerm: true },
  })
  t.same((await read(app)).terms, [SAVING])
  const rest = (await restAspects(app, DS)).glossaryTerms?.value
  t.same(rest.terms, [{ urn: SAVING }], 'REST shows the association')
  t.equal(rest.auditStamp.actor, ROOT_ACTOR, 'auditStamp is the caller')

  await gql(
    app,
    `mutation { addTerms(input: {termUrns: ["${SAVING}", "${CHECKING}"], resourceUrn: "${DS}"}) }`,
  )
  t.same((await read(app)).terms, [SAVING, CHECKING], 'an existing term is not added twice')
  await gql(app, `mutation { removeTerm(input: {termUrn: "${SAVING}", resourceUrn: "${DS}"}) }`)
  t.same((await read(app)).terms, [CHECKING])

  const onField = await gql(
    app,
    `mutation($f: String!) { addTerms(input: {termUrns: ["${SAVING}"], resourceUrn: "${DS}", subResource: $f, subResourceType: DATASET_FIELD}) }`,
    { f: FIELD },
  )
  t.same(onField, { data: { addTerms: true } })
  t.same((await read(app)).fieldTerms, [SAVING], 'the field term goes to editableSchemaMetadata')
  const esm = (await restAspects(app, DS)).editableSchemaMetadata?.value
  t.equal(esm.editableSchemaFieldInfo[0].fieldPath, FIELD)
  t.equal(esm.editableSchemaFieldInfo[0].glossaryTerms.auditStamp.actor, ROOT_ACTOR)
  await gql(
    app,
    `mutation($f: String!) { removeTerm(input: {termUrn: "${SAVING}", resourceUrn: "${DS}", subResource: $f, subResourceType: DATASET_FIELD}) }`,
    { f: FIELD },
  )
  t.same((await read(app)).fieldTerms, [])
  t.same((await read(app)).terms, [CHECKING], 'the top-level terms are untouched')
})

t.test('batch terms and batch tags, including a field sub-resource', async (t) => {
  const app = await setup(t)
  const resources = `[{resourceUrn: "${DS}"}, {resourceUrn: "${CHART}"}, {resourceUrn: "${DS}", subResource: "${FIELD}", subResourceType: DATASET_FIELD}]`
  t.same(
    await gql(
      app,
      `mutation { batchAddTerms(input: {termUrns: ["${SAVING}", "${CHECKING}"], resources: ${resources}}) }`,
    ),
    { data: { batchAddTerms: true } },
  )
  t.same(
    await gql(
      app,
      `mutation { batchAddTags(input: {tagUrns: ["${LEGACY}", "${PII}"], resources: ${resources}}) }`,
    ),
    { data: { batchAddTags: true } },
  )
  t.same(await read(app), {
    terms: [SAVING, CHECKING],
    fieldTerms: [SAVING, CHECKING],
    fieldTags: [LEGACY, PII],
  })
  const chart = await restAspects(app, CHART)
  t.same(chart.glossaryTerms?.value.terms, [{ urn: SAVING }, { urn: CHECKING }])
  t.same(chart.globalTags?.value.tags, [{ tag: LEGACY }, { tag: PII }])

  await gql(app, `mutation { batchRemoveTerms(input: {termUrns: ["${SAVING}"], resources: ${resources}}) }`)
  await gql(app, `mutation { batchRemoveTags(input: {tagUrns: ["${PII}"], resources: ${resources}}) }`)
  t.same(await read(app), { terms: [CHECKING], fieldTerms: [CHECKING], fieldTags: [LEGACY] })
  t.same((await restAspects(app, CHART)).globalTags?.value.tags, [{ tag: LEGACY }])
})

t.test('bad input: DataHub messages over HTTP 200, nothing written', async (t) => {
  const app = await setup(t)
  const before = { ds: await snapshot(app, DS), chart: await snapshot(app, CHART) }
  const cases: Array<[string, string, string]> = [
    [
      'addTerm',
      `mutation { addTerm(input: {termUrn: "urn:li:glossaryTerm:nope", resourceUrn: "${DS}"}) }`,
      'Failed to validate label with urn urn:li:glossaryTerm:nope. Urn does not exist.',
    ],
    [
      'addTerm',
      `mutation { addTerm(input: {termUrn: "${LEGACY}", resourceUrn: "${DS}"}) }`,
      `Failed to validate label with urn ${LEGACY}. Urn type does not match entity type glossaryTerm..`,
    ],
    [
      'addTerm',
      `mutation { addTerm(input: {termUrn: "${SAVING}", resourceUrn: "${MISSING}"}) }`,
      `Failed to update resource with urn ${MISSING}. Entity does not exist.`,
    ],
    [
      'batchAddTerms',
      `mutation { batchAddTerms(input: {termUrns: ["${SAVING}"], resources: [{resourceUrn: "${CHART}"}, {resourceUrn: "${MISSING}"}]}) }`,
      `Failed to update resource with urn ${MISSING}. Entity does not exist.`,
    ],
    [
      'batchAddTags',
      `mutation { batchAddTags(input: {tagUrns: ["${LEGACY}", "urn:li:tag:nope"], resources: [{resourceUrn: "${CHART}"}]}) }`,
      'Failed to validate label with urn urn:li:tag:nope. Urn does not exist.',
    ],
    [
      'batchAddTags',
      `mutation { batchAddTags(input: {tagUrns: ["${LEGACY}"], resources: [{resourceUrn: "${CHART}"}, {resourceUrn: "${DS}", subResource: "nope", subResourceType: DATASET_FIELD}]}) }`,
      `Failed to update ${DS} & field nope. Field nope does not exist.`,
    ],
  ]
  for (const [field, query, message] of cases) {
    t.same(badRequest(await gql(app, query), field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  const malformed = await gql(
    app,
    `mutation { addTerm(input: {termUrn: "SavingAccount", resourceUrn: "${DS}"}) }`,
  )
  t.same(
    { code: malformed.errors[0].extensions.code, data: malformed.data },
    { code: 400, data: { addTerm: null } },
  )
  t.equal(await snapshot(app, DS), before.ds, 'the dataset is unchanged')
  t.equal(await snapshot(app, CHART), before.chart, 'the chart is unchanged')
})
