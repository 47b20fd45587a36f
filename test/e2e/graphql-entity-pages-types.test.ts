import t from 'tap'
import {
  buildEntityPages,
  FLOW,
  gql,
  HIVE,
  INSTANCE,
  ingestAspect,
  JOB,
  PRODUCT,
  SALES,
} from '../helpers/entity-pages-data.js'

/**
 * Entity pages of data flows, data jobs, notebooks, containers, domains, data products and
 * glossary nodes: their typed roots and fields, privileges, and unknown URNs, over DataHub's
 * bootstrap example and golden files (Airbyte, CSV enricher, business glossary).
 */

t.test('entity pages over DataHub example data', async (t) => {
  const app = await buildEntityPages(t)

  t.test('dataFlow', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { dataFlow(urn: $u) { urn type orchestrator flowId cluster platform { urn name }
        properties { name description project externalUrl customProperties { key value } }
        dataPlatformInstance { urn type instanceId platform { urn } }
        browsePathV2 { path { name entity { urn type } } } status { removed } ownership { owners { type } } exists
        relationships(input: {types: ["IsPartOf"], direction: INCOMING}) { total relationships { entity { urn } } } } }`,
      { u: FLOW },
    )
    const flow = data.dataFlow
    t.match(flow, {
      urn: FLOW,
      type: 'DATA_FLOW',
      orchestrator: 'airbyte',
      flowId: 'test-instance.66666666-6666-6666-6666-666666666666',
      cluster: 'PROD',
      platform: { urn: 'urn:li:dataPlatform:airbyte', name: 'airbyte' },
      properties: {
        name: 'MySQL to Postgres Connection',
        description: 'Airbyte connection from Test MySQL Source to Test Postgres Destination',
        project: null,
        externalUrl:
          'http://localhost:8000/workspaces/12345678-1234-1234-1234-123456789012/connections/66666666-6666-6666-6666-666666666666',
      },
      dataPlatformInstance: {
        urn: INSTANCE,
        type: 'DATA_PLATFORM_INSTANCE',
        instanceId: 'test-instance',
        platform: { urn: 'urn:li:dataPlatform:airbyte' },
      },
      browsePathV2: { path: [{ name: INSTANCE, entity: { urn: INSTANCE, type: 'DATA_PLATFORM_INSTANCE' } }] },
      status: { removed: false },
      ownership: null,
      exists: true,
    })
    t.same(flow.properties.customProperties.length, 12)
    t.same(flow.properties.customProperties[0], {
      key: 'connection_id',
      value: '66666666-6666-6666-6666-666666666666',
    })
    t.same(flow.relationships, {
      total: 2,
      relationships: [
        { entity: { urn: JOB } },
        { entity: { urn: `urn:li:dataJob:(${FLOW},66666666-6666-6666-6666-666666666666_orders)` } },
      ],
    })
  })

  t.test('dataFlow of the bootstrap, enriched by the CSV enricher', async (t) => {
    const data = await gql(
      app,
      `{ dataFlow(urn: "urn:li:dataFlow:(airflow,dag_abc,PROD)") { properties { name } tags { tags { tag { urn } } }
        ownership { owners { owner { ... on CorpUser { urn } } type } } glossaryTerms { terms { term { urn } } } } }`,
    )
    t.same(data.dataFlow, {
      properties: { name: 'Users' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
      ownership: {
        owners: [
          { owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' },
          { owner: { urn: 'urn:li:corpuser:jdoe' }, type: 'TECHNICAL_OWNER' },
        ],
      },
      glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:CustomerAccount' } }] },
    })
  })

  t.test("notebook: the CSV enricher's, with info and content written", async (t) => {
    const NOTEBOOK = 'urn:li:notebook:(querybook,1234)'
    const stamps = {
      created: { time: 1, actor: 'urn:li:corpuser:jdoe' },
      lastModified: { time: 2, actor: 'urn:li:corpuser:jdoe' },
    }
    await ingestAspect(app, NOTEBOOK, 'notebookInfo', {
      title: 'Churn',
      description: 'Weekly churn',
      changeAuditStamps: stamps,
    })
    await ingestAspect(app, NOTEBOOK, 'notebookContent', {
      cells: [
        { type: 'TEXT_CELL', textCell: { cellId: 'c1', text: 'Why churn?', changeAuditStamps: stamps } },
        {
          type: 'QUERY_CELL',
          queryCell: { cellId: 'c2', cellTitle: 'q', rawQuery: 'SELECT 1', changeAuditStamps: stamps },
        },
      ],
    })
    const data = await gql(
      app,
      `{ notebook(urn: "urn:li:notebook:(querybook,1234)") { urn type tool notebookId platform { urn }
        info { title description changeAuditStamps { created { actor } lastModified { time } } }
        content { cells { type textCell { cellId text } queryChell { cellTitle rawQuery } chartCell { cellId } } }
        tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } } exists } }`,
    )
    t.same(data.notebook, {
      urn: NOTEBOOK,
      type: 'NOTEBOOK',
      tool: 'querybook',
      notebookId: '1234',
      platform: { urn: 'urn:li:dataPlatform:querybook' },
      info: {
        title: 'Churn',
        description: 'Weekly churn',
        changeAuditStamps: { created: { actor: 'urn:li:corpuser:jdoe' }, lastModified: { time: 2 } },
      },
      content: {
        cells: [
          {
            type: 'TEXT_CELL',
            textCell: { cellId: 'c1', text: 'Why churn?' },
            queryChell: null,
            chartCell: null,
          },
          {
            type: 'QUERY_CELL',
            textCell: null,
            queryChell: { cellTitle: 'q', rawQuery: 'SELECT 1' },
            chartCell: null,
          },
        ],
      },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
      glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:CustomerAccount' } }] },
      exists: true,
    })
  })

  t.test('dataJob', async (t) => {
    const data = await gql(
      app,
      `query($u: String!) { dataJob(urn: $u) { urn type jobId dataFlow { urn properties { name } } platform { urn }
        properties { name description } inputOutput { inputDatasets { urn } outputDatasets { urn } inputDatajobs { urn }
          fineGrainedLineages { upstreams { urn path } downstreams { urn path } } }
        browsePathV2 { path { name entity { urn type } } } domain { associatedUrn } parentContainers { count }
        relationships(input: {types: ["Consumes", "Produces"], direction: OUTGOING}) { total relationships { type entity { urn } } } } }`,
      { u: JOB },
    )
    const job = data.dataJob
    const mysql = 'urn:li:dataset:(urn:li:dataPlatform:mysql,source_db.customers,PROD)'
    const postgres = 'urn:li:dataset:(urn:li:dataPlatform:postgres,test.source_db.customers,PROD)'
    t.match(job, {
      urn: JOB,
      type: 'DATA_JOB',
      jobId: '66666666-6666-6666-6666-666666666666_customers',
      dataFlow: { urn: FLOW, properties: { name: 'MySQL to Postgres Connection' } },
      platform: { urn: 'urn:li:dataPlatform:airbyte' },
      properties: {
        name: 'customers',
        description: 'Airbyte sync for stream customers from Test MySQL Source to Test Postgres Destination',
      },
      inputOutput: {
        inputDatasets: [{ urn: mysql }],
        outputDatasets: [{ urn: postgres }],
        inputDatajobs: [],
      },
      browsePathV2: {
        path: [
          { name: INSTANCE, entity: { urn: INSTANCE, type: 'DATA_PLATFORM_INSTANCE' } },
          {
            name: 'test-instance.66666666-6666-6666-6666-666666666666',
            entity: { urn: FLOW, type: 'DATA_FLOW' },
          },
        ],
      },
      domain: null,
      parentContainers: { count: 0 },
      relationships: {
        total: 2,
        relationships: [
          { type: 'Consumes', entity: { urn: mysql } },
          { type: 'Produces', entity: { urn: postgres } },
        ],
      },
    })
    t.same(job.inputOutput.fineGrainedLineages[0], {
      upstreams: [{ urn: mysql, path: 'country' }],
      downstreams: [{ urn: postgres, path: 'country' }],
    })
  })

  t.test('container', async (t) => {
    const data = await gql(
      app,
      `{ container(urn: "urn:li:container:SCHEMA") { urn type platform { urn } properties { name description customProperties { key } }
        subTypes { typeNames } container { urn } parentContainers { count containers { urn } } editableProperties { description } exists }
        db: container(urn: "urn:li:container:DATABASE") { glossaryTerms { terms { term { urn } } } container { urn } } }`,
    )
    t.same(data.container, {
      urn: 'urn:li:container:SCHEMA',
      type: 'CONTAINER',
      platform: { urn: 'urn:li:dataPlatform:hive' },
      properties: { name: 'datahub_schema', description: 'The Root DataHub Schema', customProperties: [] },
      subTypes: { typeNames: ['Schema'] },
      container: { urn: 'urn:li:container:DATABASE' },
      parentContainers: { count: 1, containers: [{ urn: 'urn:li:container:DATABASE' }] },
      editableProperties: null,
      exists: true,
    })
    t.equal(data.db.container, null)
    t.ok(data.db.glossaryTerms.terms.length > 0, 'the CSV enricher gave the database terms')
  })

  t.test('domain and dataProduct', async (t) => {
    const data = await gql(
      app,
      `query($d: String!, $p: String!) {
        domain(urn: $d) { urn type id properties { name description createdOn { time actor { urn } } }
          parentDomains { count domains { urn } } ownership { owners { type } } }
        dataProduct(urn: $p) { urn type properties { name description numAssets externalUrl } domain { domain { urn properties { name } } } exists } }`,
      { d: SALES, p: PRODUCT },
    )
    t.same(data.domain, {
      urn: SALES,
      type: 'DOMAIN',
      id: 'sales',
      properties: {
        name: 'Sales',
        description: 'Everything sold',
        createdOn: { time: 1700000000000, actor: { urn: 'urn:li:corpuser:jdoe' } },
      },
      parentDomains: { count: 1, domains: [{ urn: 'urn:li:domain:Engineering' }] },
      ownership: null,
    })
    t.same(data.dataProduct, {
      urn: PRODUCT,
      type: 'DATA_PRODUCT',
      properties: { name: 'Orders', description: 'Order data', numAssets: 2, externalUrl: null },
      domain: { domain: { urn: SALES, properties: { name: 'Sales' } } },
      exists: true,
    })
  })

  t.test('glossaryNode', async (t) => {
    const data = await gql(
      app,
      `{ glossaryNode(urn: "urn:li:glossaryNode:Classification") { urn type properties { name description customProperties { key value } }
        ownership { owners { owner { ... on CorpUser { urn } } type } } institutionalMemory { elements { url description } }
        parentNodes { count nodes { urn } } exists } }`,
    )
    t.same(data.glossaryNode, {
      urn: 'urn:li:glossaryNode:Classification',
      type: 'GLOSSARY_NODE',
      properties: {
        name: 'Classification',
        description: 'A set of terms related to Data Classification',
        customProperties: [{ key: 'is_confidential', value: 'True' }],
      },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:mjames' }, type: 'DEVELOPER' }] },
      institutionalMemory: {
        elements: [
          {
            url: 'https://en.wikipedia.org/wiki/Classification',
            description: 'Wiki link for classification',
          },
        ],
      },
      parentNodes: { count: 0, nodes: [] },
      exists: true,
    })
  })

  t.test('the entities of a container and of a domain, from the search index', async (t) => {
    const page = 'start count total searchResults { entity { urn type } }'
    const data = await gql(
      app,
      `{ schema: container(urn: "urn:li:container:SCHEMA") { entities { ${page} } }
        db: container(urn: "urn:li:container:DATABASE") { entities(input: {query: "*", count: 5}) { ${page} } }
        none: container(urn: "urn:li:container:SCHEMA") { entities(input: {filters: [{field: "platform", values: ["urn:li:dataPlatform:kafka"]}]}) { total } }
        domain(urn: "urn:li:domain:Engineering") { entities { ${page} } } }`,
    )
    t.same(data.schema.entities, {
      start: 0,
      count: 1,
      total: 1,
      searchResults: [{ entity: { urn: HIVE, type: 'DATASET' } }],
    })
    t.same(data.db.entities.searchResults, [
      { entity: { urn: 'urn:li:container:SCHEMA', type: 'CONTAINER' } },
    ])
    t.equal(data.none.entities.total, 0, 'the input filters narrow the members')
    t.same(data.domain.entities.searchResults, [{ entity: { urn: HIVE, type: 'DATASET' } }])
  })

  t.test('parent nodes of glossary terms and nodes', async (t) => {
    await ingestAspect(app, 'urn:li:glossaryNode:Sub', 'glossaryNodeInfo', {
      definition: 'A sub-node',
      parentNode: 'urn:li:glossaryNode:Classification',
    })
    const data = await gql(
      app,
      `{ glossaryTerm(urn: "urn:li:glossaryTerm:Classification.Sensitive") { parentNodes { count nodes { urn properties { name } } } }
        glossaryNode(urn: "urn:li:glossaryNode:Sub") { properties { name description } parentNodes { count nodes { urn } } } }`,
    )
    t.same(data.glossaryTerm.parentNodes, {
      count: 1,
      nodes: [{ urn: 'urn:li:glossaryNode:Classification', properties: { name: 'Classification' } }],
    })
    t.same(data.glossaryNode, {
      properties: { name: 'Sub', description: 'A sub-node' },
      parentNodes: { count: 1, nodes: [{ urn: 'urn:li:glossaryNode:Classification' }] },
    })
  })

  t.test(
    'privileges: what the caller may do on the page (auth off: the root user, who may do all)',
    async (t) => {
      const fields =
        'canEditLineage canEditEmbed canEditQueries canManageEntity canManageChildren canEditTags'
      const data = await gql(
        app,
        `query($d: String!, $j: String!) { dataset(urn: $d) { privileges { ${fields} } }
        dataJob(urn: $j) { privileges { ${fields} } }
        glossaryNode(urn: "urn:li:glossaryNode:Classification") { privileges { ${fields} } }
        container(urn: "urn:li:container:SCHEMA") { privileges { ${fields} } } }`,
        { d: HIVE, j: JOB },
      )
      const none = {
        canEditLineage: null,
        canEditEmbed: null,
        canEditQueries: null,
        canManageEntity: null,
        canManageChildren: null,
        canEditTags: null,
      }
      // Every entity answers DataHub's common edits (`addCommonPrivileges`), its type's own on top.
      const common = { ...none, canEditLineage: true, canEditTags: true }
      t.same(data.dataset.privileges, { ...common, canEditEmbed: true, canEditQueries: true })
      t.same(data.dataJob.privileges, common)
      t.same(data.glossaryNode.privileges, { ...common, canManageEntity: true, canManageChildren: true })
      t.same(data.container.privileges, common, 'containers too')
    },
  )

  t.test('an unknown urn answers the key-derived object, as DataHub does', async (t) => {
    const missingJob = `urn:li:dataJob:(${FLOW},no_such_job)`
    const data = await gql(
      app,
      `query($j: String!) { dataJob(urn: $j) { urn jobId dataFlow { urn } properties { name } domain { associatedUrn } exists }
        container(urn: "urn:li:container:nope") { urn properties { name } parentContainers { count } exists }
        domain(urn: "urn:li:domain:nope") { id properties { name } }
        entity(urn: "urn:li:glossaryNode:nope") { urn type ... on GlossaryNode { properties { name } exists } } }`,
      { j: missingJob },
    )
    t.same(data, {
      dataJob: {
        urn: missingJob,
        jobId: 'no_such_job',
        dataFlow: { urn: FLOW },
        properties: null,
        domain: null,
        exists: false,
      },
      container: {
        urn: 'urn:li:container:nope',
        properties: null,
        parentContainers: { count: 0 },
        exists: false,
      },
      domain: { id: 'nope', properties: null },
      entity: { urn: 'urn:li:glossaryNode:nope', type: 'GLOSSARY_NODE', properties: null, exists: false },
    })
  })

  t.test('a wrong entity type for a typed root is refused', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: `{ dataJob(urn: "${FLOW}") { urn } }` },
    })
    const body = JSON.parse(res.body)
    t.equal(res.statusCode, 200)
    t.equal(body.data.dataJob, null)
    t.match(body.errors[0].message, /expected a dataJob urn/)
  })
})
