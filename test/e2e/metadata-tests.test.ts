import type { CatalogServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { build, getJson, ingestExamples, type Json, postJson } from '../helpers/build.js'
import { loadExample, preJsonTransform } from '../helpers/examples.js'

const enc = encodeURIComponent
const DOCUMENTED = 'urn:li:test:datasets-documented-and-owned'
const CHARTS_ONLY = 'urn:li:test:charts-have-titles'
const HIVE_ONLY = 'urn:li:test:hive-datasets-have-tags'

/** "Datasets must have a description and an owner." */
const documentedAndOwned = {
  on: { types: ['dataset'] },
  rules: {
    and: [
      {
        or: [
          { property: 'datasetProperties.description', operator: 'exists' },
          { property: 'editableDatasetProperties.description', operator: 'exists' },
        ],
      },
      { property: 'ownership.owners.owner', operator: 'exists' },
    ],
  },
}

function testInfo(name: string, definition: unknown) {
  return {
    name,
    category: 'Documentation',
    description: `${name} (metadata test)`,
    definition: {
      type: 'JSON',
      json: typeof definition === 'string' ? definition : JSON.stringify(definition),
    },
  }
}

const propose = (app: CatalogServer, entityType: string, urn: string, aspectName: string, value: unknown) =>
  postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType,
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    },
  })

const ingestTest = (app: CatalogServer, urn: string, definition: unknown) =>
  propose(app, 'test', urn, 'testInfo', testInfo(urn.slice('urn:li:test:'.length), definition))

const evaluate = (app: CatalogServer, body: Record<string, unknown>, path = '/gms/test') =>
  postJson(app, `${path}?action=evaluate`, body)

/** Datasets of the bootstrap file with whether each has a description and an owner (last write wins). */
function bootstrapDatasets(): Map<string, { description: boolean; owner: boolean }> {
  const aspects = new Map<string, Map<string, Json>>()
  const put = (urn: string, aspect: string, value: Json) => {
    const m = aspects.get(urn) ?? new Map<string, Json>()
    m.set(aspect, value)
    aspects.set(urn, m)
  }
  for (const raw of loadExample('bootstrap')) {
    const r = preJsonTransform(raw) as Json
    if (r.proposedSnapshot) {
      const [record, snapshot] = Object.entries(r.proposedSnapshot)[0] as [string, Json]
      if (!record.endsWith('DatasetSnapshot')) continue
      for (const a of snapshot.aspects) {
        const [name, value] = Object.entries(a)[0] as [string, Json]
        const short = name.slice(name.lastIndexOf('.') + 1)
        put(snapshot.urn, short.charAt(0).toLowerCase() + short.slice(1), value)
      }
    } else if (r.entityType === 'dataset' && r.changeType === 'UPSERT') {
      put(r.entityUrn, r.aspectName, r.aspect.json ?? JSON.parse(r.aspect.value))
    }
  }
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== ''
  const out = new Map<string, { description: boolean; owner: boolean }>()
  for (const [urn, a] of aspects) {
    out.set(urn, {
      description:
        text(a.get('datasetProperties')?.description) ||
        text(a.get('editableDatasetProperties')?.description),
      owner: (a.get('ownership')?.owners ?? []).some((o: Json) => text(o.owner)),
    })
  }
  return out
}

const expectError = (t: Test, res: { status: number; body: Json }, status: number, pattern: RegExp) => {
  t.equal(res.status, status, `HTTP ${status}`)
  t.equal(res.body?.status, status)
  t.match(res.body?.message, pattern)
}

t.test('metadata tests over the bootstrap datasets', async (t) => {
  const { app, store } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const datasets = bootstrapDatasets()
  const good = [...datasets].filter(([, d]) => d.description && d.owner).map(([u]) => u)
  const bad = [...datasets].filter(([, d]) => !(d.description && d.owner)).map(([u]) => u)
  t.ok(good.length > 0 && bad.length > 0, `${good.length} documented and owned, ${bad.length} not`)

  t.equal((await ingestTest(app, DOCUMENTED, documentedAndOwned)).status, 200)
  t.equal(
    (
      await ingestTest(app, CHARTS_ONLY, {
        on: { types: ['chart'] },
        rules: { property: 'chartInfo.title', operator: 'exists' },
      })
    ).status,
    200,
  )
  t.equal(
    (
      await ingestTest(app, HIVE_ONLY, {
        on: {
          types: ['dataset'],
          conditions: {
            property: 'urn',
            operator: 'starts_with',
            values: ['urn:li:dataset:(urn:li:dataPlatform:hive,'],
          },
        },
        rules: { property: 'globalTags.tags.tag', operator: 'exists' },
      })
    ).status,
    200,
  )

  t.test('"documented and owned" passes and fails on the right datasets', async (t) => {
    for (const [urn, d] of datasets) {
      const { status, body } = await evaluate(app, { urn, testUrns: [DOCUMENTED] })
      t.equal(status, 200)
      const want = d.description && d.owner ? 'passing' : 'failing'
      t.same(
        body.value[want].map((r: Json) => [r.test, r.type]),
        [[DOCUMENTED, want === 'passing' ? 'SUCCESS' : 'FAILURE']],
        `${urn}: ${want}`,
      )
      t.same(body.value[want === 'passing' ? 'failing' : 'passing'], [])
    }
  })

  t.test('an owner is needed too', async (t) => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,documented.but.orphan,PROD)'
    await propose(app, 'dataset', urn, 'datasetProperties', { description: 'Has words, has no owner' })
    let { body } = await evaluate(app, { urn, testUrns: [DOCUMENTED] })
    t.same(
      body.value.failing.map((r: Json) => r.test),
      [DOCUMENTED],
    )
    await propose(app, 'dataset', urn, 'ownership', {
      owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
      lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
    })
    ;({ body } = await evaluate(app, { urn, testUrns: [DOCUMENTED] }))
    t.same(
      body.value.passing.map((r: Json) => r.test),
      [DOCUMENTED],
      'passes once owned',
    )
  })

  t.test('tests that do not apply are in neither list', async (t) => {
    const kafka = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'
    const { body } = await evaluate(app, { urn: kafka })
    const all = [...body.value.passing, ...body.value.failing].map((r: Json) => r.test)
    t.same(all, [DOCUMENTED], 'not the chart test, not the hive-only test')
    const hive = await evaluate(app, {
      urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)',
    })
    t.same(
      hive.body.value.passing.map((r: Json) => r.test),
      [HIVE_ONLY],
      'SampleHiveDataset has tags',
    )
    t.same(
      hive.body.value.failing.map((r: Json) => r.test),
      [DOCUMENTED],
      'and no description',
    )
  })

  t.test('push stores testResults and the IsPassing / IsFailing relationships', async (t) => {
    for (const urn of [...good, ...bad]) {
      const { status } = await evaluate(app, { urn, push: true, testUrns: [DOCUMENTED] })
      t.equal(status, 200)
    }
    const [passer, failer] = [good[0] as string, bad[0] as string]
    const read = await getJson(app, `/entitiesV2/${enc(passer)}?aspects=List(testResults)`)
    const stored = read.body.aspects.testResults.value
    t.same(
      stored.passing.map((r: Json) => [r.test, r.type]),
      [[DOCUMENTED, 'SUCCESS']],
    )
    t.same(stored.failing, [])
    t.match(stored.passing[0].testDefinitionMd5, /^[0-9a-f]{32}$/)
    const failed = await getJson(app, `/entitiesV2/${enc(failer)}?aspects=List(testResults)`)
    t.same(
      failed.body.aspects.testResults.value.failing.map((r: Json) => r.test),
      [DOCUMENTED],
    )

    const incoming = async (type: string) =>
      (
        await store.relationships({
          urn: DOCUMENTED,
          direction: 'INCOMING',
          types: [type],
          start: 0,
          count: 100,
        })
      ).relationships
        .map((r) => r.entity)
        .sort()
    t.same(await incoming('IsPassing'), [...good].sort(), 'IsPassing from every passing dataset')
    t.same(await incoming('IsFailing'), [...bad].sort(), 'IsFailing from every failing dataset')

    await evaluate(app, { urn: passer, push: true, testUrns: [HIVE_ONLY] })
    const merged = (await getJson(app, `/entitiesV2/${enc(passer)}?aspects=List(testResults)`)).body.aspects
      .testResults.value
    t.same(
      [...merged.passing, ...merged.failing].map((r: Json) => r.test).sort(),
      [DOCUMENTED, HIVE_ONLY].sort(),
      'pushing some tests keeps the stored results of the others',
    )
    const noPush = await evaluate(app, { urn: failer })
    t.equal(noPush.status, 200)
    const unchanged = (await getJson(app, `/entitiesV2/${enc(failer)}?aspects=List(testResults)`)).body
      .aspects.testResults.value
    t.same(
      unchanged.failing.map((r: Json) => r.test),
      [DOCUMENTED],
      'without push nothing is stored',
    )
  })

  t.test('a deleted test is not run, and a test has no status aspect to soft-delete it', async (t) => {
    const urn = 'urn:li:test:retired'
    await ingestTest(app, urn, {
      on: { types: ['dataset'] },
      rules: { property: 'status.removed', operator: 'is_false' },
    })
    const ran = async () => {
      const { body } = await evaluate(app, { urn: good[0] })
      return [...body.value.passing, ...body.value.failing].some((r: Json) => r.test === urn)
    }
    t.ok(await ran(), 'runs while it exists')
    const status = await propose(app, 'test', urn, 'status', { removed: true })
    t.equal(status.status, 422, "like DataHub's model, the test entity has no status aspect")
    const deleted = await postJson(app, '/aspects?action=ingestProposal', {
      proposal: { entityType: 'test', entityUrn: urn, changeType: 'DELETE', aspectName: 'testInfo' },
    })
    t.equal(deleted.status, 200)
    t.notOk(await ran(), 'not run once its testInfo is deleted')
  })

  t.test('/test and /api/gms/test answer too', async (t) => {
    for (const path of ['/test', '/api/gms/test']) {
      const { status, body } = await evaluate(app, { urn: good[0], testUrns: [DOCUMENTED] }, path)
      t.equal(status, 200, path)
      t.equal(body.value.passing[0]?.test, DOCUMENTED)
    }
  })

  t.test('evaluate bad input', async (t) => {
    expectError(t, await evaluate(app, {}), 400, /Parameter 'urn' is required/)
    expectError(t, await evaluate(app, { urn: 'not-a-urn' }), 400, /Invalid urn/)
    expectError(
      t,
      await evaluate(app, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,no.such.table,PROD)' }),
      404,
      /does not exist/,
    )
    expectError(
      t,
      await evaluate(app, { urn: good[0], testUrns: ['urn:li:corpuser:jdoe'] }),
      400,
      /not a test urn/,
    )
    expectError(
      t,
      await evaluate(app, { urn: good[0], testUrns: ['urn:li:test:nope'] }),
      404,
      /Test urn:li:test:nope does not exist/,
    )
  })
})

t.test('every operator, and/or/not, on one dataset', async (t) => {
  const { app } = await build(t)
  const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)'
  await propose(app, 'dataset', DS, 'datasetProperties', {
    name: 'orders',
    description: 'All orders of 2024',
    customProperties: { team: 'sales', rows: '1500' },
  })
  await propose(app, 'dataset', DS, 'status', { removed: false })
  await propose(app, 'dataset', DS, 'globalTags', {
    tags: [{ tag: 'urn:li:tag:PII' }, { tag: 'urn:li:tag:Gold' }],
  })
  const cases: Array<[string, unknown, 'SUCCESS' | 'FAILURE']> = [
    ['exists', { property: 'datasetProperties.description', operator: 'exists' }, 'SUCCESS'],
    ['exists-missing', { property: 'ownership.owners.owner', operator: 'exists' }, 'FAILURE'],
    [
      'equals',
      { property: 'datasetProperties.customProperties.team', operator: 'equals', values: ['ops', 'sales'] },
      'SUCCESS',
    ],
    [
      'equals-not',
      { property: 'datasetProperties.customProperties.team', operator: 'equals', values: ['ops'] },
      'FAILURE',
    ],
    [
      'equals-in-list',
      { property: 'globalTags.tags.tag', operator: 'equals', value: 'urn:li:tag:Gold' },
      'SUCCESS',
    ],
    [
      'contains-any',
      { property: 'datasetProperties.description', operator: 'contains_any', values: ['2023', '2024'] },
      'SUCCESS',
    ],
    [
      'starts-with',
      { property: 'urn', operator: 'starts_with', values: ['urn:li:dataset:(urn:li:dataPlatform:kafka'] },
      'FAILURE',
    ],
    [
      'regex',
      { property: 'datasetProperties.name', operator: 'regex_match', values: ['^ord[a-z]+$'] },
      'SUCCESS',
    ],
    [
      'regex-not',
      { property: 'datasetProperties.name', operator: 'regex_match', values: ['^ORD'] },
      'FAILURE',
    ],
    [
      'greater',
      { property: 'datasetProperties.customProperties.rows', operator: 'greater_than', values: [1000] },
      'SUCCESS',
    ],
    [
      'less',
      { property: 'datasetProperties.customProperties.rows', operator: 'less_than', values: ['1000'] },
      'FAILURE',
    ],
    ['is-false', { property: 'status.removed', operator: 'is_false' }, 'SUCCESS'],
    ['is-true', { property: 'status.removed', operator: 'is_true' }, 'FAILURE'],
    ['entity-type', { property: 'entityType', operator: 'equals', values: ['dataset'] }, 'SUCCESS'],
    ['not', { not: { property: 'ownership.owners.owner', operator: 'exists' } }, 'SUCCESS'],
    [
      'or',
      {
        or: [
          { property: 'status.removed', operator: 'is_true' },
          { property: 'globalTags.tags.tag', operator: 'exists' },
        ],
      },
      'SUCCESS',
    ],
    [
      'and',
      {
        and: [
          { property: 'status.removed', operator: 'is_false' },
          { property: 'datasetProperties.uri', operator: 'exists' },
        ],
      },
      'FAILURE',
    ],
  ]
  for (const [id, rules] of cases) {
    const res = await ingestTest(app, `urn:li:test:${id}`, { on: { types: ['dataset'] }, rules })
    t.equal(res.status, 200, `ingest ${id}`)
  }
  const { body } = await evaluate(app, { urn: DS, testUrns: cases.map(([id]) => `urn:li:test:${id}`) })
  const verdicts = new Map<string, string>()
  for (const r of [...body.value.passing, ...body.value.failing]) verdicts.set(r.test, r.type)
  for (const [id, , want] of cases) t.equal(verdicts.get(`urn:li:test:${id}`), want, `${id}: ${want}`)
})

t.test('malformed test definitions are refused with 422 when ingested', async (t) => {
  const { app } = await build(t)
  const cases: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"on": ', /not valid JSON/],
    ['no rules', { on: { types: ['dataset'] } }, /\/rules: is required/],
    [
      'no types',
      { on: { types: [] }, rules: { property: 'status.removed', operator: 'is_true' } },
      /\/on\/types: must be a non-empty list/,
    ],
    [
      'unknown type',
      { on: { types: ['spaceship'] }, rules: { property: 'status.removed', operator: 'is_true' } },
      /unknown entity type "spaceship"/,
    ],
    [
      'unknown operator',
      { on: { types: ['dataset'] }, rules: { property: 'status.removed', operator: 'is_maybe' } },
      /\/rules\/operator: must be one of/,
    ],
    [
      'unknown aspect',
      { on: { types: ['dataset'] }, rules: { property: 'warpDrive.speed', operator: 'exists' } },
      /has an aspect warpDrive/,
    ],
    [
      'missing values',
      { on: { types: ['dataset'] }, rules: { property: 'urn', operator: 'equals' } },
      /equals needs at least one value/,
    ],
    [
      'values not allowed',
      { on: { types: ['dataset'] }, rules: { property: 'urn', operator: 'exists', values: ['x'] } },
      /exists takes no values/,
    ],
    [
      'not a number',
      { on: { types: ['dataset'] }, rules: { property: 'urn', operator: 'greater_than', values: ['ten'] } },
      /takes exactly one number/,
    ],
    [
      'empty and',
      { on: { types: ['dataset'] }, rules: { and: [] } },
      /\/rules\/and: must be a non-empty list/,
    ],
    [
      'unknown member',
      { on: { types: ['dataset'] }, rules: { property: 'urn', operator: 'exists', weight: 3 } },
      /\/rules\/weight: unknown member/,
    ],
    [
      'nested quantifier',
      {
        on: { types: ['dataset'] },
        rules: { property: 'urn', operator: 'regex_match', values: ['^(a+)+$'] },
      },
      /could run away: .*nested quantifiers/,
    ],
    [
      'ambiguous alternation',
      {
        on: { types: ['dataset'] },
        rules: { property: 'urn', operator: 'regex_match', values: ['(a|aa)*b'] },
      },
      /could run away/,
    ],
    [
      'lookahead',
      { on: { types: ['dataset'] }, rules: { property: 'urn', operator: 'regex_match', values: ['(?=a)b'] } },
      /is not valid/,
    ],
    [
      'bad regex',
      {
        on: { types: ['dataset'] },
        rules: { property: 'urn', operator: 'regex_match', values: ['(unclosed'] },
      },
      /is not valid/,
    ],
    [
      'long regex',
      {
        on: { types: ['dataset'] },
        rules: { property: 'urn', operator: 'regex_match', values: ['a'.repeat(300)] },
      },
      /longer than 256/,
    ],
  ]
  for (const [name, definition, pattern] of cases) {
    const urn = `urn:li:test:${name.replace(/ /g, '-')}`
    const res = await ingestTest(app, urn, definition)
    t.equal(res.status, 422, `${name}: 422`)
    t.match(res.body.message, /com\.linkedin\.test\.TestInfo/)
    t.match(res.body.message, pattern, name)
    const stored = await getJson(app, `/aspects/${enc(urn)}?aspect=testInfo&version=0`)
    t.equal(stored.status, 404, `${name}: nothing stored`)
  }
  const ok = await ingestTest(app, 'urn:li:test:safe-regex', {
    on: { types: ['dataset'] },
    rules: {
      property: 'urn',
      operator: 'regex_match',
      values: ['^urn:li:dataset:\\((?:urn:li:dataPlatform:)(hive|kafka),[a-z_.]+,PROD\\)$'],
    },
  })
  t.equal(ok.status, 200, 'a safe regex with a literal alternation is accepted')
})
