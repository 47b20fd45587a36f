import t from 'tap'
import { adminWrite, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'

/** Lifecycle stages as DataHub serves them: the bootstrapped stages, stages of one's own, and an asset's stage. */

const TERM = 'urn:li:glossaryTerm:revenue'
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,stages,PROD)'
const SET =
  'mutation($urn: String!, $stage: String) { setLifecycleStage(urn: $urn, lifecycleStageUrn: $stage) }'
const STATUS = `query($urn: String!) { glossaryTerm(urn: $urn) { status { removed lifecycleStage { urn name hideInSearch }
  lifecycleLastUpdated { time actor } } } }`
const stage = (id: string) => `urn:li:lifecycleStageType:${id}`

t.test('the stages, and a term taken through them', async (t) => {
  const { app } = await build(t)
  const listed = await gql(
    app,
    '{ listLifecycleStages { urn name description entityTypes hideInSearch allowedPreviousStages } }',
  )
  t.notOk(listed.errors, 'no errors')
  t.same(
    listed.data.listLifecycleStages.map((s: { urn: string }) => s.urn),
    ['ARCHIVED', 'DEPRECATED', 'DRAFT', 'IN_REVIEW', 'PUBLISHED', 'REJECTED', 'UNPUBLISHED'].map(stage),
    "DataHub's bootstrapped stages",
  )
  t.same(
    listed.data.listLifecycleStages.find((s: { urn: string }) => s.urn === stage('IN_REVIEW')),
    {
      urn: stage('IN_REVIEW'),
      name: 'In Review',
      description: null,
      entityTypes: ['document', 'glossaryTerm'],
      hideInSearch: true,
      allowedPreviousStages: [stage('DRAFT'), stage('REJECTED')],
    },
  )

  // A stage of one's own, for every entity type.
  await ingestAspect(app, 'lifecycleStageType', stage('CERTIFIED'), 'lifecycleStageTypeInfo', {
    name: 'Certified',
    description: 'Checked by the data council',
    settings: { hideInSearch: false },
    created: { time: 1, actor: 'urn:li:corpuser:datahub' },
    lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' },
  })
  const withMine = (await gql(app, '{ listLifecycleStages { urn name entityTypes } }')).data
    .listLifecycleStages
  t.same(
    withMine.find((s: { urn: string }) => s.urn === stage('CERTIFIED')),
    {
      urn: stage('CERTIFIED'),
      name: 'Certified',
      entityTypes: null,
    },
  )

  await ingestAspect(app, 'glossaryTerm', TERM, 'glossaryTermInfo', {
    name: 'Revenue',
    definition: 'Money in',
    termSource: 'INTERNAL',
  })
  const before = Date.now()
  t.same((await gql(app, SET, { urn: TERM, stage: stage('DRAFT') })).data, { setLifecycleStage: true })
  const draft = (await gql(app, STATUS, { urn: TERM })).data.glossaryTerm.status
  t.same(draft.lifecycleStage, { urn: stage('DRAFT'), name: 'Draft', hideInSearch: true })
  t.equal(draft.removed, false)
  t.equal(draft.lifecycleLastUpdated.actor, 'urn:li:corpuser:datahub')
  t.ok(draft.lifecycleLastUpdated.time >= before, 'stamped now')

  // IN_REVIEW may follow DRAFT; ARCHIVED may not (the stage stays, as DataHub's transition hook does).
  await gql(app, SET, { urn: TERM, stage: stage('IN_REVIEW') })
  t.equal(
    (await gql(app, STATUS, { urn: TERM })).data.glossaryTerm.status.lifecycleStage.urn,
    stage('IN_REVIEW'),
  )
  t.same((await gql(app, SET, { urn: TERM, stage: stage('ARCHIVED') })).data, { setLifecycleStage: true })
  t.equal(
    (await gql(app, STATUS, { urn: TERM })).data.glossaryTerm.status.lifecycleStage.urn,
    stage('IN_REVIEW'),
    'a transition its policy does not allow is not made',
  )
  // No stage: the term is active again.
  await gql(app, SET, { urn: TERM, stage: null })
  const cleared = (await restAspects(app, TERM)).status?.value
  t.equal(cleared.lifecycleStage, undefined, 'cleared')
  t.equal(cleared.removed, false)
  t.ok(cleared.lifecycleLastUpdated, 'the clearing is stamped too')
  await gql(app, SET, { urn: TERM, stage: stage('ARCHIVED') })
  t.equal(
    (await gql(app, STATUS, { urn: TERM })).data.glossaryTerm.status.lifecycleStage.urn,
    stage('ARCHIVED'),
    'from no stage',
  )

  // Refusals write nothing.
  await ingestAspect(app, 'dataset', DATASET, 'datasetProperties', { name: 'stages', customProperties: {} })
  const statusBefore = (await restAspects(app, DATASET)).status
  const wrongType = await gql(app, SET, { urn: DATASET, stage: stage('DRAFT') })
  t.equal(
    wrongType.errors?.[0]?.message,
    `Lifecycle stage '${stage('DRAFT')}' does not apply to entity type 'dataset'. Allowed entity types: [document, glossaryTerm]`,
  )
  const missing = await gql(app, SET, { urn: DATASET, stage: stage('NOPE') })
  t.equal(
    missing.errors?.[0]?.message,
    `Lifecycle stage '${stage('NOPE')}' does not exist. Use listLifecycleStages to discover available stages.`,
  )
  t.same((await restAspects(app, DATASET)).status, statusBefore, 'nothing written')
  t.same(
    (await gql(app, SET, { urn: DATASET, stage: stage('CERTIFIED') })).data,
    { setLifecycleStage: true },
    'a stage for every type',
  )
  const none = await gql(app, SET, { urn: 'urn:li:glossaryTerm:none', stage: stage('DRAFT') })
  t.equal(none.errors?.[0]?.message, 'Entity urn:li:glossaryTerm:none does not exist')
})

t.test('an asset in a stage hidden from search is found only when asked for', async (t) => {
  const { app } = await build(t)
  for (const [urn, name] of [
    [TERM, 'Revenue'],
    ['urn:li:glossaryTerm:revenue_net', 'Revenue net'],
  ] as const) {
    await ingestAspect(app, 'glossaryTerm', urn, 'glossaryTermInfo', {
      name,
      definition: 'Money',
      termSource: 'INTERNAL',
    })
  }
  const SEARCH = `query($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }`
  const found = async (input: Record<string, unknown>) =>
    (
      await gql(app, SEARCH, { input: { types: ['GLOSSARY_TERM'], query: 'revenue', ...input } })
    ).data.searchAcrossEntities.searchResults
      .map((r: { entity: { urn: string } }) => r.entity.urn)
      .sort()
  t.same(await found({}), [TERM, 'urn:li:glossaryTerm:revenue_net'], 'both, before any stage')
  await gql(app, SET, { urn: TERM, stage: stage('DRAFT') })
  t.same(await found({}), ['urn:li:glossaryTerm:revenue_net'], 'a draft is hidden')
  t.same(
    await found({ searchFlags: { includeHiddenLifecycleStages: true } }),
    [TERM, 'urn:li:glossaryTerm:revenue_net'],
    'unless hidden stages are asked for',
  )
  t.same(
    await found({ orFilters: [{ and: [{ field: 'lifecycleStage', values: [stage('DRAFT')] }] }] }),
    [TERM],
    'or filtered on',
  )
  await gql(app, SET, { urn: TERM, stage: stage('PUBLISHED') })
  t.same(await found({}), [TERM, 'urn:li:glossaryTerm:revenue_net'], 'published: shown again')
})

t.test('setting a stage needs EDIT_ENTITY on the asset', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, TERM, 'glossaryTermInfo', {
    name: 'Revenue',
    definition: 'Money in',
    termSource: 'INTERNAL',
  })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const refused = await gqlAs(built.app, await tokenFor(built, reader), SET, {
    urn: TERM,
    stage: stage('DRAFT'),
  })
  t.equal(refused.body.errors?.[0]?.extensions?.code, 403, 'a Reader has no EDIT_ENTITY')
  const admin = 'urn:li:corpuser:admin'
  await assignRole(built, admin, 'Admin')
  const allowed = await gqlAs(built.app, await tokenFor(built, admin), SET, {
    urn: TERM,
    stage: stage('DRAFT'),
  })
  t.same(allowed.body.data, { setLifecycleStage: true })
})
