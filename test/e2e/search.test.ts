import t from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'
import { loadExample, preJsonTransform } from '../helpers/examples.js'

/** Datasets of the bootstrap file, with what DataHub indexes for them, computed from the file. */
function bootstrapDatasets() {
  const out: Array<{ urn: string; platform: string; origin: string; tags: string[] }> = []
  for (const record of loadExample('bootstrap')) {
    const r = preJsonTransform(record) as Json
    const snapshot = r.proposedSnapshot?.['com.linkedin.metadata.snapshot.DatasetSnapshot']
    if (!snapshot) continue
    const [, platform, , origin] =
      /^urn:li:dataset:\((urn:li:dataPlatform:[^,]+),(.*),([A-Z]+)\)$/.exec(snapshot.urn) ?? []
    const tags = new Set<string>()
    for (const aspect of snapshot.aspects) {
      const [name, value] = Object.entries(aspect)[0] as [string, Json]
      if (name.endsWith('.GlobalTags')) for (const a of value.tags) tags.add(a.tag)
      if (name.endsWith('.SchemaMetadata'))
        for (const f of value.fields ?? []) for (const a of f.globalTags?.tags ?? []) tags.add(a.tag)
      if (name.endsWith('.EditableSchemaMetadata'))
        for (const f of value.editableSchemaFieldInfo ?? [])
          for (const a of f.globalTags?.tags ?? []) tags.add(a.tag)
    }
    out.push({ urn: snapshot.urn, platform: platform as string, origin: origin as string, tags: [...tags] })
  }
  return out
}

t.test('search over the DataHub example data', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap', 'sampleBq')
  const datasets = bootstrapDatasets()

  t.test('sample finds the sample datasets, as the smoke test expects', async (t) => {
    const { status, body } = await postJson(app, '/entities?action=search', {
      input: 'sample',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.equal(status, 200)
    t.ok(body.value.numEntities >= 3)
    t.ok(body.value.entities.length >= 3)
    for (const name of ['SampleKafkaDataset', 'SampleHdfsDataset', 'SampleHiveDataset'])
      t.ok(
        body.value.entities.some((u: string) => u.includes(`,${name},`)),
        `${name} is found`,
      )
    t.same(body.value.metadata.urns, body.value.entities)
    t.equal(body.value.metadata.matches.length, body.value.entities.length)
    t.ok(body.value.metadata.matches[0].matchedFields.length > 0, 'matchedFields are given')
    t.equal(body.value.from, 0)
    t.equal(body.value.pageSize, 10)
  })

  t.test('covid finds the BigQuery datasets', async (t) => {
    const { body } = await postJson(app, '/entities?action=search', {
      input: 'covid',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.ok(body.value.numEntities >= 1)
    t.ok(body.value.entities.every((u: string) => u.includes('dataPlatform:bigquery')))
    const across = await postJson(app, '/entities?action=searchAcrossEntities', {
      input: 'covid',
      entities: [],
      start: 0,
      count: 10,
    })
    t.equal(across.status, 200)
    t.equal(
      across.body.value.numEntities,
      body.value.numEntities,
      'searchAcrossEntities gives the same count',
    )
  })

  t.test('tags:Legacy finds exactly the datasets tagged Legacy', async (t) => {
    const expected = datasets.filter((d) => d.tags.includes('urn:li:tag:Legacy')).map((d) => d.urn)
    t.ok(expected.length >= 1, 'the data has Legacy datasets')
    const { body } = await postJson(app, '/entities?action=search', {
      input: 'tags:Legacy',
      entity: 'dataset',
      start: 0,
      count: 100,
    })
    t.same(new Set(body.value.entities), new Set(expected))
    t.equal(body.value.numEntities, expected.length)
  })

  t.test('facets count platforms and origins over all hits', async (t) => {
    const { body } = await postJson(app, '/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 1,
    })
    const all = [...datasets]
    for (const record of loadExample('sampleBq')) {
      const urn = (record as Json).proposedSnapshot?.[
        'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot'
      ]?.urn
      if (urn && !all.some((d) => d.urn === urn)) {
        const m = /^urn:li:dataset:\((urn:li:dataPlatform:[^,]+),(.*),([A-Z]+)\)$/.exec(
          urn,
        ) as RegExpExecArray
        all.push({ urn, platform: m[1] as string, origin: m[3] as string, tags: [] })
      }
    }
    const count = (key: 'platform' | 'origin') => {
      const m: Record<string, number> = {}
      for (const d of all) m[d[key]] = (m[d[key]] ?? 0) + 1
      return m
    }
    t.equal(body.value.numEntities, all.length)
    const agg = (name: string) => body.value.metadata.aggregations.find((a: Json) => a.name === name)
    t.same(agg('platform').aggregations, count('platform'))
    t.same(agg('origin').aggregations, count('origin'))
    t.equal(agg('origin').displayName, 'Environment')
    t.equal(agg('platform').displayName, 'Platform')
    const meta = body.value.metadata.searchResultMetadatas.find((a: Json) => a.name === 'platform')
    t.same(meta.aggregations, count('platform'), 'the spec form carries the same counts')
    const hive = agg('platform').filterValues.find((v: Json) => v.value === 'urn:li:dataPlatform:hive')
    t.same(hive, {
      value: 'urn:li:dataPlatform:hive',
      entity: 'urn:li:dataPlatform:hive',
      facetCount: count('platform')['urn:li:dataPlatform:hive'],
      filtered: false,
    })

    const filtered = await postJson(app, '/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 10,
      filter: {
        or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive', condition: 'EQUAL' }] }],
      },
    })
    t.equal(filtered.body.value.numEntities, count('platform')['urn:li:dataPlatform:hive'])
    const fv = filtered.body.value.metadata.aggregations.find((a: Json) => a.name === 'platform').filterValues
    t.same(fv, [
      {
        value: 'urn:li:dataPlatform:hive',
        entity: 'urn:li:dataPlatform:hive',
        facetCount: count('platform')['urn:li:dataPlatform:hive'],
        filtered: true,
      },
    ])
  })

  t.test('ML features and other entity types are searchable', async (t) => {
    const { body } = await postJson(app, '/entities?action=search', {
      input: 'user',
      entity: 'mlFeature',
      start: 0,
      count: 50,
    })
    t.ok(body.value.entities.some((u: string) => u.includes('user_features')))
    const all = await postJson(app, '/entities?action=search', {
      input: '*',
      entity: 'mlPrimaryKey',
      start: 0,
      count: 50,
    })
    t.equal(all.body.value.numEntities, 7)
  })
})

t.test(
  'soft delete hides an entity from search, browse and autocomplete at once; restore shows it',
  async (t) => {
    const { app } = await build(t)
    await ingestExamples(app, 'bootstrap')
    const hive = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
    const visible = async () => {
      const s = await postJson(app, '/entities?action=search', {
        input: 'SampleHive',
        entity: 'dataset',
        start: 0,
        count: 10,
      })
      const b = await postJson(app, '/entities?action=browse', {
        path: '/prod/hive',
        entity: 'dataset',
        start: 0,
        limit: 50,
      })
      const a = await postJson(app, '/entities?action=autocomplete', {
        query: 'SampleHiv',
        entity: 'dataset',
        limit: 10,
      })
      return {
        search: s.body.value.entities.includes(hive),
        browse: b.body.value.entities.some((e: Json) => e.urn === hive),
        autocomplete: a.body.value.entities.some((e: Json) => e.urn === hive),
      }
    }
    t.same(await visible(), { search: true, browse: true, autocomplete: true })
    const setRemoved = async (removed: boolean) => {
      const res = await postJson(app, '/aspects?action=ingestProposal', {
        proposal: {
          entityType: 'dataset',
          entityUrn: hive,
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: JSON.stringify({ removed }), contentType: 'application/json' },
        },
      })
      t.equal(res.status, 200)
    }
    await setRemoved(true)
    t.same(
      await visible(),
      { search: false, browse: false, autocomplete: false },
      'hidden right after the ingest returns',
    )
    const withRemoved = await postJson(app, '/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 50,
      filter: { or: [{ and: [{ field: 'removed', value: 'true' }] }] },
    })
    t.same(withRemoved.body.value.entities, [hive], 'a filter naming removed finds it')
    const entity = await postJson(app, '/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 50,
      searchFlags: { includeSoftDeleted: true },
    })
    t.ok(entity.body.value.entities.includes(hive), 'includeSoftDeleted finds it')
    await setRemoved(false)
    t.same(
      await visible(),
      { search: true, browse: true, autocomplete: true },
      'shown again right after the restore',
    )
  },
)

t.test('a search right after an ingest sees it; a deleted entity leaves the index', async (t) => {
  const { app } = await build(t)
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:kafka,fresh.topic_of_zebras,PROD)'
  const ingest = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: {
        value: JSON.stringify({ description: 'Zebras crossing the topic' }),
        contentType: 'application/json',
      },
    },
  })
  t.equal(ingest.status, 200)
  const found = await postJson(app, '/entities?action=search', {
    input: 'zebras',
    entity: 'dataset',
    start: 0,
    count: 10,
  })
  t.same(found.body.value.entities, [urn])
  const del = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'datasetKey' },
  })
  t.equal(del.status, 200)
  const gone = await postJson(app, '/entities?action=search', {
    input: '*',
    entity: 'dataset',
    start: 0,
    count: 10,
  })
  t.same(gone.body.value.entities, [])
})

t.test('bad input gets 400 with the DataHub error body and changes nothing', async (t) => {
  const { app, search } = await build(t)
  await ingestExamples(app, 'browse')
  await search.sync.fresh()
  const before = await search.index.stats()
  const ok = { input: 'browse', entity: 'dataset', start: 0, count: 10 }
  const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['unknown entity', 'search', { ...ok, entity: 'nope' }, /Unknown entity: nope/],
    [
      'unknown filter field',
      'search',
      { ...ok, filter: { or: [{ and: [{ field: 'nope', value: 'x' }] }] } },
      /Unknown filter field 'nope'/,
    ],
    [
      'unknown condition',
      'search',
      { ...ok, filter: { or: [{ and: [{ field: 'origin', value: 'PROD', condition: 'ROUGHLY' }] }] } },
      /Unknown filter condition 'ROUGHLY'/,
    ],
    ['negative start', 'search', { ...ok, start: -1 }, /start/],
    ['count above the maximum', 'search', { ...ok, count: 10_001 }, /count/],
    ['unbalanced quote', 'search', { ...ok, input: '"browse' }, /unbalanced quote/],
    ['unbalanced parenthesis', 'search', { ...ok, input: '(browse' }, /unbalanced parenthesis/],
    ['field without value', 'search', { ...ok, input: 'origin:' }, /has no value/],
    ['unknown field in field:value', 'search', { ...ok, input: 'nope:x' }, /unknown field 'nope'/],
    ['missing input', 'search', { entity: 'dataset', start: 0, count: 10 }, /Parameter 'input' is required/],
    [
      'autocomplete limit above the maximum',
      'autocomplete',
      { query: 'b', entity: 'dataset', limit: 10_001 },
      /limit/,
    ],
    [
      'autocomplete unknown entity',
      'autocomplete',
      { query: 'b', entity: 'nope', limit: 10 },
      /Unknown entity/,
    ],
    [
      'autocomplete unknown field',
      'autocomplete',
      { query: 'b', entity: 'dataset', limit: 10, field: 'nope' },
      /Unknown autocomplete field/,
    ],
    [
      'browse unknown entity',
      'browse',
      { path: '/prod', entity: 'nope', start: 0, limit: 10 },
      /Unknown entity/,
    ],
    ['browse negative start', 'browse', { path: '/prod', entity: 'dataset', start: -5, limit: 10 }, /start/],
    [
      'searchAcrossEntities unknown entity',
      'searchAcrossEntities',
      { input: 'x', entities: ['dataset', 'nope'], start: 0, count: 10 },
      /Unknown entity: nope/,
    ],
  ]
  for (const [name, action, body, message] of cases) {
    const res = await postJson(app, `/entities?action=${action}`, body)
    t.equal(res.status, 400, `${name}: 400`)
    t.equal(res.body.status, 400, `${name}: status in the body`)
    t.equal(
      res.body.exceptionClass,
      'com.linkedin.restli.server.RestLiServiceException',
      `${name}: exceptionClass`,
    )
    t.match(res.body.message, message, `${name}: message`)
    t.notOk('stackTrace' in res.body, `${name}: no stack trace`)
  }
  t.same(await search.index.stats(), before, 'the index is unchanged')
  const after = await postJson(app, '/entities?action=search', ok)
  t.equal(after.body.value.numEntities, 3, 'and still answers')
})

t.test('filter and list actions, count 0, paging and sorting', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const kafka = { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }] }
  const filtered = await postJson(app, '/entities?action=filter', {
    entity: 'dataset',
    filter: kafka,
    start: 0,
    count: 10,
  })
  t.equal(filtered.status, 200)
  t.same(filtered.body.value.entities, ['urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'])
  const list = await postJson(app, '/entities?action=list', { entity: 'dataset', start: 0, count: 3 })
  t.equal(list.status, 200)
  t.equal(list.body.value.entities.length, 3)
  t.same([list.body.value.start, list.body.value.count, list.body.value.total], [0, 3, 7])
  const next = await postJson(app, '/entities?action=list', { entity: 'dataset', start: 3, count: 10 })
  t.equal(next.body.value.entities.length, 4)
  t.notOk(
    next.body.value.entities.some((u: string) => list.body.value.entities.includes(u)),
    'pages do not overlap',
  )
  const facetsOnly = await postJson(app, '/entities?action=search', {
    input: '*',
    entity: 'dataset',
    start: 0,
    count: 0,
  })
  t.same(facetsOnly.body.value.entities, [])
  t.equal(facetsOnly.body.value.numEntities, 7)
  t.ok(facetsOnly.body.value.metadata.aggregations.length > 0, 'facets without a page')
  const sorted = await postJson(app, '/entities?action=search', {
    input: '*',
    entity: 'dataset',
    start: 0,
    count: 10,
    sortCriteria: [{ field: 'id', order: 'DESCENDING' }],
  })
  const ids = sorted.body.value.entities.map((u: string) => u.split(',')[1])
  t.same(ids, [...ids].sort().reverse(), 'sorted by id, descending')
})
