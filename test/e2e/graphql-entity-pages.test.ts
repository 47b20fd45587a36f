import t from 'tap'
import { buildEntityPages, gql, HDFS, HIVE, PG_BOOK, TRINO_BOOK } from '../helpers/entity-pages-data.js'

/**
 * The entity fields DataHub's entity pages read, on datasets: containers, domain, siblings,
 * structured properties, health, the time series (profiles, operations, usage) and
 * relationships, over DataHub's bootstrap example and golden files.
 */

t.test('entity pages over DataHub example data', async (t) => {
  const app = await buildEntityPages(t)

  t.test('dataset: containers, domain, structured properties, health', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { dataset(urn: $u) {
        container { urn properties { name } }
        parentContainers { count containers { urn properties { name description } subTypes { typeNames } platform { urn } } }
        domain { associatedUrn domain { urn id properties { name } } }
        structuredProperties { properties { structuredProperty { urn } associatedUrn values { ... on StringValue { stringValue } } } }
        siblings { isPrimary } forms { completedForms { associatedUrn } } health { type status } } }`,
      { u: HIVE },
    )
    t.same(data.dataset, {
      container: { urn: 'urn:li:container:SCHEMA', properties: { name: 'datahub_schema' } },
      parentContainers: {
        count: 2,
        containers: [
          {
            urn: 'urn:li:container:SCHEMA',
            properties: { name: 'datahub_schema', description: 'The Root DataHub Schema' },
            subTypes: { typeNames: ['Schema'] },
            platform: { urn: 'urn:li:dataPlatform:hive' },
          },
          {
            urn: 'urn:li:container:DATABASE',
            properties: { name: 'datahub_db', description: 'The Root DataHub DB' },
            subTypes: { typeNames: ['Database'] },
            platform: { urn: 'urn:li:dataPlatform:hive' },
          },
        ],
      },
      domain: {
        associatedUrn: HIVE,
        domain: { urn: 'urn:li:domain:Engineering', id: 'Engineering', properties: { name: 'Engineering' } },
      },
      structuredProperties: {
        properties: [
          {
            structuredProperty: { urn: 'urn:li:structuredProperty:io.acryl.test.classification' },
            associatedUrn: HIVE,
            values: [{ stringValue: 'Sensitive' }],
          },
        ],
      },
      siblings: null,
      forms: null,
      // The bootstrap's Great Expectations assertion on it, whose latest run succeeded.
      health: [{ type: 'ASSERTIONS', status: 'PASS' }],
    })
  })

  t.test('dataset: profiles, operations and usage from the time series', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { dataset(urn: $u) {
        latest: datasetProfiles(limit: 1) { timestampMillis rowCount columnCount partitionSpec { type partition }
          fieldProfiles { fieldPath uniqueCount uniqueProportion nullCount sampleValues } }
        older: datasetProfiles(endTimeMillis: 1770000000000) { timestampMillis rowCount }
        operations { timestampMillis operationType lastUpdatedTimestamp partition actor }
        usageStats(range: ALL) { buckets { bucket duration resource metrics { totalSqlQueries uniqueUserCount } }
          aggregations { uniqueUserCount totalSqlQueries users { user { urn } count } fields { fieldName count } } } } }`,
      { u: HIVE },
    )
    t.same(data.dataset.latest, [
      {
        timestampMillis: 1774223999999,
        rowCount: 4500,
        columnCount: 2,
        partitionSpec: { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' },
        fieldProfiles: [
          {
            fieldPath: 'field_foo',
            uniqueCount: 2,
            uniqueProportion: 0.00044,
            nullCount: 0,
            sampleValues: ['true', 'false'],
          },
          {
            fieldPath: 'field_bar',
            uniqueCount: 2,
            uniqueProportion: 0.00044,
            nullCount: 0,
            sampleValues: ['false'],
          },
        ],
      },
    ])
    t.same(
      data.dataset.older,
      [{ timestampMillis: 1765263085714, rowCount: 3500 }],
      'the range bounds the profiles',
    )
    t.same(data.dataset.operations, [
      {
        timestampMillis: 1751821714285,
        operationType: 'INSERT',
        lastUpdatedTimestamp: 1629097200001,
        partition: 'FULL_TABLE_SNAPSHOT',
        actor: null,
      },
      {
        timestampMillis: 1742860800000,
        operationType: 'UPDATE',
        lastUpdatedTimestamp: 1625097200000,
        partition: 'FULL_TABLE_SNAPSHOT',
        actor: null,
      },
    ])
    t.same(data.dataset.usageStats, {
      buckets: [
        {
          bucket: 1747267200000,
          duration: 'DAY',
          resource: HIVE,
          metrics: { totalSqlQueries: 2, uniqueUserCount: 1 },
        },
      ],
      aggregations: {
        uniqueUserCount: 1,
        totalSqlQueries: 2,
        users: [{ user: { urn: 'urn:li:corpuser:unknown' }, count: 2 }],
        fields: [
          { fieldName: 'field_bar', count: 10 },
          { fieldName: 'field_foo', count: 45 },
        ],
      },
    })
  })

  t.test('a field whose aspect is absent answers null or empty', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { dataset(urn: $u) { container { urn } parentContainers { count containers { urn } }
        domain { associatedUrn } siblings { isPrimary } browsePathV2 { path { name } } structuredProperties { properties { associatedUrn } }
        forms { completedForms { associatedUrn } } health { type } datasetProfiles { timestampMillis } operations { timestampMillis }
        usageStats(range: ALL) { buckets { bucket } } } }`,
      { u: HDFS },
    )
    t.same(data.dataset, {
      container: null,
      parentContainers: { count: 0, containers: [] },
      domain: null,
      siblings: null,
      // Not absent: DataHub's default browsePathsV2 for a dataset name without folders.
      browsePathV2: { path: [{ name: 'Default' }] },
      structuredProperties: null,
      forms: null,
      health: [],
      datasetProfiles: [],
      operations: [],
      usageStats: { buckets: [] },
    })
  })

  t.test('relationships: types, direction, paging, entity types', async (t) => {
    const rel = (input: string) =>
      `relationships(input: ${input}) { start count total relationships { type direction entity { urn type } } }`
    const data = await gql(
      app,
      `query($u: String!, $c: String!) {
        dataset(urn: $u) { out: ${rel('{types: ["IsPartOf", "DownstreamOf"], direction: OUTGOING}')}
          page: ${rel('{types: ["IsPartOf", "DownstreamOf"], direction: OUTGOING, start: 1, count: 1}')}
          containers: ${rel('{types: ["IsPartOf", "DownstreamOf"], direction: OUTGOING, relatedEntityTypes: ["container"]}')} }
        container(urn: $c) { ${rel('{types: ["IsPartOf"], direction: INCOMING}')} } }`,
      { u: HIVE, c: 'urn:li:container:SCHEMA' },
    )
    const downstreamOf = {
      type: 'DownstreamOf',
      direction: 'OUTGOING',
      entity: { urn: HDFS, type: 'DATASET' },
    }
    const partOf = {
      type: 'IsPartOf',
      direction: 'OUTGOING',
      entity: { urn: 'urn:li:container:SCHEMA', type: 'CONTAINER' },
    }
    t.same(data.dataset.out, { start: 0, count: 2, total: 2, relationships: [downstreamOf, partOf] })
    t.same(data.dataset.page, { start: 1, count: 1, total: 2, relationships: [partOf] })
    t.same(data.dataset.containers.relationships, [partOf], 'relatedEntityTypes keeps containers only')
    t.same(data.container.relationships, {
      start: 0,
      count: 1,
      total: 1,
      relationships: [{ type: 'IsPartOf', direction: 'INCOMING', entity: { urn: HIVE, type: 'DATASET' } }],
    })
  })

  t.test('siblings', async (t) => {
    const data = await gql(
      app,
      `query($a: String!, $b: String!) { a: dataset(urn: $a) { siblings { isPrimary siblings { urn type } } }
        b: dataset(urn: $b) { siblings { isPrimary siblings { urn } } } }`,
      { a: TRINO_BOOK, b: PG_BOOK },
    )
    t.same(data.a.siblings, { isPrimary: true, siblings: [{ urn: PG_BOOK, type: 'DATASET' }] })
    t.same(data.b.siblings, { isPrimary: false, siblings: [{ urn: TRINO_BOOK }] })
  })
})
