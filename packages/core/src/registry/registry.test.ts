import { readFileSync } from 'node:fs'
import t from 'tap'
import { InvalidInputError, ValidationError } from '../errors.js'
import { fromModel, loadModel } from './model/load-model.js'
import { Registry } from './registry.js'

const registry = new Registry()
const model = loadModel().file

/** DataHub's entity registry at the model's commit: 71 entity types, 258 aspects (key aspects included). */
t.test('the registry holds every entity type and aspect of DataHub model', async (t) => {
  t.equal(registry.allEntities().length, 71, '71 of 71 entity types')
  t.equal(registry.allAspects().length, 258, '258 of 258 aspects')
  t.match(registry.source.commit, /^[0-9a-f]{40}$/, 'the DataHub commit is recorded')
  for (const e of model.entities) {
    const entity = registry.findEntity(e.name)
    if (!entity) {
      t.fail(`entity ${e.name}`)
      continue
    }
    for (const a of [e.keyAspect, ...e.aspects])
      t.ok(registry.findAspect(entity, a), `${e.name}.${a}`, { diagnostic: false })
  }
  const records = new Set(registry.allAspects().map((a) => a.record))
  t.equal(records.size, 258, 'record names are unique')
  const series = registry
    .allAspects()
    .filter((a) => a.timeseries)
    .map((a) => a.name)
    .sort()
  t.same(series, [
    'assertionRunEvent',
    'chartUsageStatistics',
    'dashboardUsageStatistics',
    'dataProcessInstanceRunEvent',
    'datahubIngestionCheckpoint',
    'datahubIngestionRunSummary',
    'datasetProfile',
    'datasetUsageStatistics',
    'documentUsageStatistics',
    'operation',
    'queryUsageStatistics',
  ])
})

t.test('annotations come from the model: search fields, edges, time-series fields', async (t) => {
  const dataset = registry.entity('dataset')
  const fields = registry.searchable(dataset).map((b) => b.field.fieldName)
  for (const f of ['id', 'platform', 'origin', 'name', 'description', 'tags', 'owners', 'fieldPaths'])
    t.ok(fields.includes(f), `dataset search field ${f}`)
  const edges = registry.edges(dataset, 'upstreamLineage', {
    upstreams: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', type: 'TRANSFORMED' }],
  })
  t.same(edges, [
    {
      type: 'DownstreamOf',
      destination: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)',
      isLineage: true,
      isUpstream: true,
    },
  ])
  const job = registry.entity('dataJob')
  t.same(
    registry
      .edges(job, 'dataJobKey', { flow: 'urn:li:dataFlow:(airflow,f,prod)', jobId: 'j' })
      .map((e) => e.type),
    ['IsPartOf'],
    'key aspects carry relationships too',
  )
  const usage = registry.findAnyAspect('datasetUsageStatistics')
  t.ok(usage?.timeseriesFields?.some((f) => f.name === 'userCounts.count'))
  t.same(registry.enumSymbols('com.linkedin.common.FabricType').includes('PROD'), true)
})

const ownership = (type: string) => ({
  owners: [{ owner: 'urn:li:corpuser:jdoe', type }],
  lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
})

t.test('validation is as strict as DataHub and no stricter', async (t) => {
  const dataset = registry.entity('dataset')
  const aspect = (name: string) => registry.aspect(dataset, name)
  t.throws(() => registry.validateAspect(aspect('ownership'), ownership('BOGUS')), {
    constructor: ValidationError,
    message: /ERROR :: \/owners\/0\/type :: "BOGUS" is not an enum symbol/,
  })
  t.same(
    registry.validateAspect(aspect('ownership'), ownership('TECHNICAL_OWNER')),
    ownership('TECHNICAL_OWNER'),
  )
  const schema = {
    schemaName: '',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [],
  }
  t.same(registry.validateAspect(aspect('schemaMetadata'), schema), schema, 'no PDL length limits')
  t.same(
    registry.validateAspect(aspect('status'), { removed: true, somethingNew: 1, nothing: null }),
    { removed: true },
    'unknown and null members are dropped',
  )
  t.throws(() => registry.validateAspect(aspect('upstreamLineage'), { upstreams: [{ type: 'COPY' }] }), {
    message: /ERROR :: \/upstreams\/0\/dataset :: field is required/,
  })
  t.throws(
    () =>
      registry.validateAspect(aspect('schemaMetadata'), {
        ...schema,
        platformSchema: { 'com.linkedin.schema.NoSuchSchema': {} },
      }),
    { message: /\/platformSchema :: "com.linkedin.schema.NoSuchSchema" is not a member of the union/ },
  )
  t.same(
    registry.validateAspect(aspect('schemaMetadata'), {
      ...schema,
      platformSchema: { 'com.linkedin.pegasus2avro.schema.OtherSchema': { rawSchema: '' } },
    }).platformSchema,
    { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    'pegasus2avro member names are accepted and stored canonically',
  )
  t.same(
    registry.validateAspect(aspect('datasetProperties'), {
      description: { string: 'x' },
      tags: { array: ['a'] },
    }),
    { description: 'x', tags: ['a'] },
    'Avro-JSON wrappers are unwrapped where a plain value is expected',
  )
  t.throws(
    () =>
      registry.validateAspect(aspect('upstreamLineage'), {
        upstreams: [{ dataset: 'urn:li:chart:(looker,c)', type: 'COPY' }],
      }),
    { message: /\/upstreams\/0\/dataset :: urn type 'chart' is not allowed here, expected dataset/ },
    'typed URNs keep their entity type',
  )
  t.throws(
    () => registry.validateAspect(aspect('ownership'), { owners: [{ owner: 'jdoe', type: 'NONE' }] }),
    {
      message: /\/owners\/0\/owner :: Invalid urn 'jdoe'/,
    },
  )
  const cost = registry.findAnyAspect('cost')
  if (!cost) throw new Error('cost')
  t.same(
    registry.validateAspect(cost, {
      costType: 'ORG_COST_TYPE',
      cost: { costCode: 'c', fieldDiscriminator: 'costCode' },
    }),
    { costType: 'ORG_COST_TYPE', cost: { costCode: 'c' } },
    "an aliased union's Avro fieldDiscriminator is accepted",
  )
})

t.test('@UrnValidation checks entity types where DataHub declares it', async (t) => {
  const run = registry.findAnyAspect('assertionRunEvent')
  if (!run) throw new Error('assertionRunEvent')
  const value = {
    timestampMillis: 1,
    runId: 'r',
    asserteeUrn: 'urn:li:chart:(looker,c)',
    assertionUrn: 'urn:li:assertion:a',
    status: 'COMPLETE',
  }
  t.throws(() => registry.validateAspect(run, value), {
    message: /\/asserteeUrn :: urn type 'chart' is not allowed here, expected dataset/,
  })
  t.ok(
    registry.validateAspect(run, {
      ...value,
      asserteeUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)',
    }),
  )
})

t.test('URNs are checked against their key shape', async (t) => {
  t.same(registry.resolveUrn('urn:li:dataset:(urn:li:dataPlatform:hive,a.b,PROD)').key, {
    platform: 'urn:li:dataPlatform:hive',
    name: 'a.b',
    origin: 'PROD',
  })
  t.throws(() => registry.resolveUrn('urn:li:dataset:(urn:li:corpuser:x,a,PROD)'), InvalidInputError)
  t.throws(() => registry.resolveUrn('urn:li:dataset:(urn:li:dataPlatform:hive,a,NOPE)'), InvalidInputError)
  t.throws(() => registry.resolveUrn('urn:li:noSuchEntity:x'), ValidationError)
  for (const e of model.entities) t.ok(registry.findEntity(e.name)?.keyFields.length, `${e.name} has a key`)
})

t.test('startup: the model loads in well under a second', async (t) => {
  const start = performance.now()
  const file = JSON.parse(readFileSync(new URL('./model/datahub-model.json', import.meta.url), 'utf8'))
  const fresh = new Registry(fromModel(file))
  t.equal(fresh.allEntities().length, 71)
  t.ok(performance.now() - start < 1000, `loaded in ${Math.round(performance.now() - start)} ms`)
})
