/**
 * Each patch template against the results DataHub's templates give (the shapes of DataHub's
 * `*TemplateTest` cases and of the PATCH records in its golden ingestion files).
 */
import t from 'tap'
import { ValidationError } from '../errors.js'
import { Registry } from '../registry/registry.js'
import { applyPatch } from './apply.js'
import { parsePatchBody } from './parse-patch-body.js'
import { SYSTEM_ACTOR, TEMPLATES } from './templates.js'

const NOW = 1_700_000_000_000
type Json = Record<string, unknown>
const patch = (aspect: string, current: Json | undefined, body: unknown) =>
  applyPatch(aspect, current, parsePatchBody(body), { now: NOW, urn: 'urn:li:dataset:x' })
const esc = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1')

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)'
const field = (ds: string, f: string) => `urn:li:schemaField:(${ds},${f})`

t.test('every template names an aspect of the registry', async (t) => {
  const registry = new Registry()
  const missing = [...TEMPLATES.keys()].filter((a) => !registry.findAnyAspect(a))
  t.same(missing, [])
  t.ok(TEMPLATES.size >= 40, `${TEMPLATES.size} templates`)
})

t.test('globalTags: tags by tag', async (t) => {
  const a = 'urn:li:tag:a'
  const b = 'urn:li:tag:b'
  t.same(patch('globalTags', undefined, [{ op: 'add', path: `/tags/${a}`, value: { tag: a } }]), {
    tags: [{ tag: a }],
  })
  const current = { tags: [{ tag: a, context: 'old' }, { tag: b }] }
  t.same(
    patch('globalTags', current, [{ op: 'add', path: `/tags/${a}`, value: { tag: a } }]),
    { tags: [{ tag: a }, { tag: b }] },
    'adding an existing key replaces it in place',
  )
  t.same(patch('globalTags', current, [{ op: 'remove', path: `/tags/${b}` }]), {
    tags: [{ tag: a, context: 'old' }],
  })
  t.same(
    patch('globalTags', current, [{ op: 'remove', path: '/tags/urn:li:tag:absent' }]),
    current,
    'removing an absent key changes nothing',
  )
  t.same(
    patch('globalTags', { tags: [] }, [{ op: 'add', path: `/tags/${esc('urn:li:tag:a/b~c')}/`, value: {} }]),
    { tags: [{ tag: 'urn:li:tag:a/b~c' }] },
    '~1 and ~0 escapes; the key field comes back from the key (an empty source is no key)',
  )
})

t.test('glossaryTerms: terms by urn, a default audit stamp', async (t) => {
  const term = 'urn:li:glossaryTerm:pii'
  t.same(patch('glossaryTerms', undefined, [{ op: 'add', path: `/terms/${term}`, value: { urn: term } }]), {
    terms: [{ urn: term }],
    auditStamp: { actor: SYSTEM_ACTOR, time: NOW },
  })
  t.same(
    patch('glossaryTerms', { terms: [{ urn: term }] }, [{ op: 'remove', path: `/terms/${term}` }]),
    { terms: [], auditStamp: { actor: SYSTEM_ACTOR, time: NOW } },
    'the required audit stamp is filled in when missing',
  )
  t.same(
    patch('glossaryTerms', undefined, [{ op: 'add', path: `/terms/${term}`, value: [{ urn: term }] }]),
    { terms: [{ urn: term }], auditStamp: { actor: SYSTEM_ACTOR, time: NOW } },
    'an array at a key is spliced in',
  )
})

t.test('ownership: owners by owner then type', async (t) => {
  const jdoe = 'urn:li:corpuser:jdoe'
  const eng = 'urn:li:corpGroup:eng'
  const fresh = patch('ownership', undefined, [
    { op: 'add', path: `/owners/${jdoe}/DATAOWNER`, value: { owner: jdoe, type: 'DATAOWNER' } },
  ])
  t.same(fresh, {
    owners: [{ owner: jdoe, type: 'DATAOWNER' }],
    lastModified: { time: NOW, actor: SYSTEM_ACTOR },
  })
  const current = {
    owners: [
      { owner: jdoe, type: 'DATAOWNER' },
      { owner: eng, type: 'TECHNICAL_OWNER' },
      { owner: jdoe, type: 'TECHNICAL_OWNER' },
    ],
    lastModified: { time: 1, actor: jdoe },
  }
  t.same(
    patch('ownership', current, [{ op: 'remove', path: `/owners/${jdoe}` }]).owners,
    [{ owner: eng, type: 'TECHNICAL_OWNER' }],
    'removing /owners/<urn> removes every type',
  )
  t.same(
    patch('ownership', current, [{ op: 'remove', path: `/owners/${jdoe}/TECHNICAL_OWNER` }]).owners,
    [
      { owner: jdoe, type: 'DATAOWNER' },
      { owner: eng, type: 'TECHNICAL_OWNER' },
    ],
    'removing one type keeps the others',
  )
  t.same(
    patch('ownership', current, [
      { op: 'add', path: '/owners/urn:li:corpuser:new/BUSINESS_OWNER//', value: {} },
    ]).owners,
    [
      ...current.owners.slice(0, 1),
      current.owners[2],
      current.owners[1],
      { owner: 'urn:li:corpuser:new', type: 'BUSINESS_OWNER' },
    ],
    'owners group by owner (first occurrence order); new keys come last, key fields from the path',
  )
})

t.test(
  'tags, terms and owners are keyed by attribution source too, as the newest SDK sends them',
  async (t) => {
    const tag = 'urn:li:tag:pii'
    const term = 'urn:li:glossaryTerm:ssn'
    const jdoe = 'urn:li:corpuser:jdoe'
    const source = 'urn:li:platformResource:ingestion'
    const attribution = { time: 5, actor: 'urn:li:corpuser:datahub', source }
    const tags = patch('globalTags', { tags: [{ tag }] }, [
      { op: 'add', path: `/tags/${tag}/${source}`, value: { tag, attribution } },
      { op: 'add', path: `/tags/${tag}/`, value: { tag, context: 'by hand' } },
    ])
    t.same(
      tags,
      {
        tags: [
          { tag, context: 'by hand' },
          { tag, attribution },
        ],
      },
      'one entry per (tag, source): the unattributed one is replaced in place, the attributed one added',
    )
    t.same(
      patch('globalTags', tags, [{ op: 'remove', path: `/tags/${tag}/${source}` }]),
      { tags: [{ tag, context: 'by hand' }] },
      'removing /tags/<urn>/<source> keeps the other sources',
    )
    t.same(
      patch('globalTags', tags, [{ op: 'remove', path: `/tags/${tag}` }]),
      { tags: [] },
      'a shorter path removes all',
    )
    t.same(
      patch('globalTags', tags, [{ op: 'add', path: `/tags/${tag}`, value: { tag } }]),
      { tags: [{ tag }] },
      'an older client adding /tags/<urn> replaces every source of that tag with its element',
    )

    t.same(
      patch('glossaryTerms', { terms: [{ urn: term }], auditStamp: { time: 1, actor: jdoe } }, [
        { op: 'add', path: `/terms/${term}/${source}`, value: { urn: term, attribution } },
        { op: 'remove', path: `/terms/${term}/` },
      ]).terms,
      [{ urn: term, attribution }],
      'terms: (urn, source) keys; removing the empty source keeps the attributed entry',
    )

    const typeUrn = 'urn:li:ownershipType:steward'
    const owners = patch('ownership', { owners: [{ owner: jdoe, type: 'DATAOWNER' }] }, [
      {
        op: 'add',
        path: `/owners/${jdoe}/DATAOWNER/${typeUrn}/`,
        value: { owner: jdoe, type: 'DATAOWNER', typeUrn },
      },
      {
        op: 'add',
        path: `/owners/${jdoe}/TECHNICAL_OWNER//${source}`,
        value: { owner: jdoe, type: 'TECHNICAL_OWNER', attribution },
      },
    ]).owners
    t.same(
      owners,
      [
        { owner: jdoe, type: 'DATAOWNER' },
        { owner: jdoe, type: 'DATAOWNER', typeUrn },
        { owner: jdoe, type: 'TECHNICAL_OWNER', attribution },
      ],
      'owners: (owner, type, typeUrn, source) keys; an entry per typeUrn and per source',
    )
    t.same(
      patch('ownership', { owners }, [{ op: 'remove', path: `/owners/${jdoe}/DATAOWNER` }]).owners,
      [{ owner: jdoe, type: 'TECHNICAL_OWNER', attribution }],
      'removing /owners/<urn>/<type> removes every typeUrn and source of that type',
    )
    t.same(
      patch(
        'ownership',
        { owners },
        {
          patch: [{ op: 'remove', path: `/owners/${jdoe}/${source}` }],
          arrayPrimaryKeys: { owners: ['owner', 'attribution\u241fsource', 'type', 'typeUrn'] },
        },
      ).owners,
      [
        { owner: jdoe, type: 'DATAOWNER' },
        { owner: jdoe, type: 'DATAOWNER', typeUrn },
      ],
      'the SDK reorders the keys with arrayPrimaryKeys to remove one source of every type',
    )
  },
)

t.test(
  'upstreamLineage: upstreams by dataset, fine-grained lineage by operation, downstream, query, upstream',
  async (t) => {
    // The shape of the dbt golden PATCH records.
    const result = patch('upstreamLineage', undefined, [
      {
        op: 'add',
        path: `/upstreams/${esc(DS2)}`,
        value: { auditStamp: { time: 1, actor: 'urn:li:corpuser:unknown' }, dataset: DS2, type: 'COPY' },
      },
      {
        op: 'add',
        path: `/fineGrainedLineages/NONE/${esc(field(DS, 'id'))}/NONE/${esc(field(DS2, 'id'))}`,
        value: { confidenceScore: 0.9 },
      },
      {
        op: 'add',
        path: `/fineGrainedLineages/NONE/${esc(field(DS, 'id'))}/NONE/${esc(field(DS2, 'key'))}`,
        value: { confidenceScore: 0.8 },
      },
    ])
    t.same(
      result,
      {
        upstreams: [
          { auditStamp: { time: 1, actor: 'urn:li:corpuser:unknown' }, dataset: DS2, type: 'COPY' },
        ],
        fineGrainedLineages: [
          {
            downstreams: [field(DS, 'id')],
            upstreams: [field(DS2, 'id'), field(DS2, 'key')],
            upstreamType: 'FIELD_SET',
            downstreamType: 'FIELD',
            confidenceScore: 0.8,
            transformOperation: 'NONE',
          },
        ],
      },
      'one entry per downstream; the lowest confidence wins',
    )

    const current = {
      upstreams: [{ dataset: DS2, type: 'TRANSFORMED' }],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          upstreams: [field(DS2, 'a')],
          downstreamType: 'FIELD',
          downstreams: [field(DS, 'a')],
          transformOperation: 'IDENTITY',
          query: 'urn:li:query:q1',
        },
      ],
    }
    t.same(
      patch('upstreamLineage', current, [
        {
          op: 'remove',
          path: `/fineGrainedLineages/IDENTITY/${esc(field(DS, 'a'))}/urn:li:query:q1/${esc(field(DS2, 'a'))}`,
        },
      ]),
      { upstreams: current.upstreams, fineGrainedLineages: [] },
      'removing the last upstream removes the entry',
    )
    t.same(
      patch('upstreamLineage', current, [{ op: 'remove', path: `/upstreams/${esc(DS2)}` }])
        .fineGrainedLineages,
      [{ ...current.fineGrainedLineages[0], confidenceScore: 1 }],
      'an untouched entry keeps its members (score defaults to 1.0)',
    )
    t.throws(
      () =>
        patch(
          'upstreamLineage',
          {
            upstreams: [],
            fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', downstreams: [] }],
          },
          [{ op: 'add', path: `/upstreams/${esc(DS2)}`, value: { dataset: DS2, type: 'COPY' } }],
        ),
      { constructor: ValidationError, message: /not exactly one downstream/ },
    )
  },
)

t.test('dataJobInputOutput: edges by destinationUrn, the key coming back from the path', async (t) => {
  const result = patch('dataJobInputOutput', undefined, [
    { op: 'add', path: `/inputDatasetEdges/${esc(DS)}`, value: { destinationUrn: DS } },
    { op: 'add', path: `/outputDatasetEdges/${esc(DS2)}`, value: {} },
    { op: 'add', path: `/inputDatasetFields/${esc(field(DS, 'a'))}`, value: field(DS, 'a') },
  ])
  t.same(result, {
    inputDatajobEdges: [],
    inputDatasetEdges: [{ destinationUrn: DS }],
    outputDatasetEdges: [{ destinationUrn: DS2 }],
    fineGrainedLineages: [],
    inputDatasetFields: [field(DS, 'a')],
    outputDatasetFields: [],
    inputDatajobs: [],
    inputDatasets: [],
    outputDatasets: [],
  })
})

t.test('siblings, domains: string arrays keyed by value, duplicates collapse', async (t) => {
  t.same(
    patch('siblings', { siblings: [DS, DS], primary: true }, [
      { op: 'add', path: `/siblings/${esc(DS2)}`, value: DS2 },
    ]),
    {
      siblings: [DS, DS2],
      primary: true,
    },
  )
  t.same(patch('siblings', undefined, [{ op: 'add', path: `/siblings/${esc(DS)}`, value: DS }]), {
    siblings: [DS],
    primary: false,
  })
  t.same(
    patch('domains', { domains: ['urn:li:domain:a'] }, [{ op: 'remove', path: '/domains/urn:li:domain:a' }]),
    {
      domains: [],
    },
  )
})

t.test('institutionalMemory: elements by url', async (t) => {
  const url = 'https://wiki.example.com/runbook'
  const element = { url, description: 'Runbook', createStamp: { time: 1, actor: 'urn:li:corpuser:jdoe' } }
  const added = patch('institutionalMemory', undefined, [
    { op: 'add', path: `/elements/${esc(url)}`, value: element },
  ])
  t.same(added, { elements: [element] })
  t.same(patch('institutionalMemory', added, [{ op: 'remove', path: `/elements/${esc(url)}` }]), {
    elements: [],
  })
})

t.test('editableSchemaMetadata: fields by fieldPath, their tags and terms by key', async (t) => {
  const tag = 'urn:li:tag:pii'
  const term = 'urn:li:glossaryTerm:email'
  const result = patch('editableSchemaMetadata', undefined, [
    { op: 'add', path: `/editableSchemaFieldInfo/${esc('a.b/c')}/globalTags/tags/${tag}`, value: { tag } },
    { op: 'add', path: `/editableSchemaFieldInfo/x/glossaryTerms/terms/${term}`, value: { urn: term } },
    { op: 'add', path: '/editableSchemaFieldInfo/x/description', value: 'x field' },
  ])
  t.same(result, {
    created: { actor: SYSTEM_ACTOR, time: NOW },
    lastModified: { actor: SYSTEM_ACTOR, time: NOW },
    editableSchemaFieldInfo: [
      { globalTags: { tags: [{ tag }] }, fieldPath: 'a.b/c' },
      {
        glossaryTerms: { terms: [{ urn: term }], auditStamp: { actor: SYSTEM_ACTOR, time: NOW } },
        description: 'x field',
        fieldPath: 'x',
      },
    ],
  })
  t.same(
    patch('editableSchemaMetadata', result, [
      { op: 'remove', path: `/editableSchemaFieldInfo/${esc('a.b/c')}/globalTags/tags/${tag}` },
    ]).editableSchemaFieldInfo,
    [{ globalTags: { tags: [] }, fieldPath: 'a.b/c' }, (result.editableSchemaFieldInfo as Json[])[1]],
  )
})

t.test('datasetProperties: customProperties by key, tags as strings', async (t) => {
  t.same(
    patch('datasetProperties', undefined, [{ op: 'add', path: '/lastModified', value: { time: 5 } }]),
    {
      tags: [],
      customProperties: {},
      lastModified: { time: 5 },
    },
    'the golden records: a field added to an absent aspect starts from the default',
  )
  const current = { name: 't', customProperties: { a: '1', 'b/c': '2' } }
  t.same(
    patch('datasetProperties', current, [
      { op: 'add', path: '/customProperties/d', value: '4' },
      { op: 'remove', path: '/customProperties/b~1c' },
      { op: 'add', path: '/tags/x', value: 'x' },
    ]),
    { name: 't', customProperties: { a: '1', d: '4' }, tags: ['x'] },
  )
})

t.test('dashboardInfo and chartInfo: edges by destinationUrn, defaults with system stamps', async (t) => {
  const stamp = { actor: SYSTEM_ACTOR, time: NOW }
  t.same(patch('dashboardInfo', undefined, [{ op: 'add', path: '/lastRefreshed', value: 17 }]), {
    title: '',
    description: '',
    lastModified: { created: stamp, lastModified: stamp },
    chartEdges: [],
    datasetEdges: [],
    datasets: [],
    charts: [],
    lastRefreshed: 17,
    dashboards: [],
  })
  const chart = 'urn:li:chart:(looker,c1)'
  t.same(
    patch(
      'chartInfo',
      { title: 'c', description: '', lastModified: { created: stamp, lastModified: stamp } },
      [{ op: 'add', path: `/inputEdges/${esc(DS)}`, value: { destinationUrn: DS } }],
    ),
    {
      title: 'c',
      description: '',
      lastModified: { created: stamp, lastModified: stamp },
      inputEdges: [{ destinationUrn: DS }],
      inputs: [],
    },
  )
  t.same(
    patch(
      'dashboardInfo',
      { title: 'd', description: '', lastModified: { created: stamp, lastModified: stamp }, charts: [chart] },
      [{ op: 'remove', path: `/charts/${esc(chart)}` }],
    ).charts,
    [],
  )
})

t.test('generic patch: arrayPrimaryKeys with composite and nested keys, forceGenericPatch', async (t) => {
  const current = {
    tags: [
      {
        tag: 'urn:li:tag:a',
        attribution: { source: 'urn:li:dataHubAction:x', time: 1, actor: 'urn:li:corpuser:a' },
      },
      { tag: 'urn:li:tag:b' },
    ],
  }
  const result = patch('globalTags', current, {
    patch: [
      { op: 'remove', path: '/tags/urn:li:dataHubAction:x/urn:li:tag:a' },
      { op: 'add', path: '/tags//urn:li:tag:c', value: { tag: 'urn:li:tag:c' } },
    ],
    arrayPrimaryKeys: { tags: ['attribution\u241fsource', 'tag'] },
  })
  t.same(
    result,
    { tags: [{ tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c' }] },
    'U+241F names a nested key field',
  )
  t.same(
    patch('globalTags', current, { patch: [{ op: 'remove', path: '/tags/0' }], forceGenericPatch: true }),
    { tags: [{ tag: 'urn:li:tag:b' }] },
    'forceGenericPatch: plain JSON Patch, arrays by index',
  )
  t.same(
    patch('operationalAspectWithoutTemplate', undefined, [{ op: 'add', path: '/a', value: 1 }]),
    { a: 1 },
    'an aspect without a template is patched from {}',
  )
})

t.test('versionProperties has no default: a patch needs an existing value', async (t) => {
  t.throws(() => patch('versionProperties', undefined, [{ op: 'add', path: '/isLatest', value: true }]), {
    constructor: ValidationError,
    message:
      'Patch not supported for aspect with name versionProperties. Default aspect is required because no aspect currently exists for urn urn:li:dataset:x',
  })
  t.same(
    patch('versionProperties', { isLatest: false }, [{ op: 'replace', path: '/isLatest', value: true }]),
    {
      isLatest: true,
    },
  )
})

t.test('propertyDefinition: allowed values keyed by their value, optional arrays stay absent', async (t) => {
  const current = {
    qualifiedName: 'io.x',
    valueType: 'urn:li:dataType:datahub.string',
    entityTypes: ['urn:li:entityType:datahub.dataset'],
    allowedValues: [{ value: { string: 'a' } }, { value: { string: 'b' } }],
  }
  t.same(patch('propertyDefinition', current, [{ op: 'remove', path: '/allowedValues/a' }]), {
    ...current,
    allowedValues: [{ value: { string: 'b' } }],
  })
})

t.test('the other templates: defaults and keys', async (t) => {
  const sp = 'urn:li:structuredProperty:io.retention'
  const term = 'urn:li:glossaryTerm:a'
  const cases: Array<[string, Json | undefined, unknown[], Json]> = [
    [
      'structuredProperties',
      undefined,
      [{ op: 'add', path: `/properties/${sp}`, value: { propertyUrn: sp, values: [{ double: 30 }] } }],
      { properties: [{ propertyUrn: sp, values: [{ double: 30 }] }] },
    ],
    [
      'documentation',
      {
        documentations: [
          { documentation: 'a', attribution: { source: 'urn:li:x', time: 1, actor: 'urn:li:corpuser:a' } },
        ],
      },
      [{ op: 'add', path: '/documentations/', value: { documentation: 'b' } }],
      {
        documentations: [
          { documentation: 'a', attribution: { source: 'urn:li:x', time: 1, actor: 'urn:li:corpuser:a' } },
          { documentation: 'b' },
        ],
      },
    ],
    [
      'dataProductProperties',
      undefined,
      [{ op: 'add', path: `/assets/${esc(DS)}`, value: { destinationUrn: DS } }],
      { assets: [{ destinationUrn: DS }] },
    ],
    [
      'glossaryRelatedTerms',
      undefined,
      [{ op: 'add', path: `/isRelatedTerms/${term}`, value: term }],
      { isRelatedTerms: [term], hasRelatedTerms: [], values: [], relatedTerms: [] },
    ],
    [
      'glossaryTermInfo',
      undefined,
      [{ op: 'add', path: '/name', value: 'A' }],
      { definition: '', termSource: 'INTERNAL', customProperties: {}, name: 'A' },
    ],
    [
      'glossaryNodeInfo',
      undefined,
      [{ op: 'add', path: '/name', value: 'N' }],
      { definition: '', customProperties: {}, name: 'N' },
    ],
    [
      'dataFlowInfo',
      undefined,
      [{ op: 'add', path: '/name', value: 'f' }],
      { customProperties: {}, name: 'f' },
    ],
    [
      'dataJobInfo',
      undefined,
      [{ op: 'add', path: '/customProperties/k', value: 'v' }],
      { customProperties: { k: 'v' } },
    ],
    ['status', undefined, [{ op: 'replace', path: '/removed', value: true }], { removed: true }],
    [
      'editableDatasetProperties',
      undefined,
      [{ op: 'add', path: '/description', value: 'd' }],
      { description: 'd' },
    ],
    [
      'formInfo',
      { name: 'f', actors: { users: ['urn:li:corpuser:a'] }, prompts: [{ id: 'p1', title: 'P1' }] },
      [
        { op: 'add', path: '/actors/users/urn:li:corpuser:b', value: 'urn:li:corpuser:b' },
        { op: 'remove', path: '/prompts/p1' },
      ],
      { name: 'f', actors: { users: ['urn:li:corpuser:a', 'urn:li:corpuser:b'], groups: [] }, prompts: [] },
    ],
    [
      'dataProcessInstanceInput',
      undefined,
      [{ op: 'add', path: `/inputEdges/${esc(DS)}`, value: { destinationUrn: DS } }],
      { inputs: [], inputEdges: [{ destinationUrn: DS }] },
    ],
    [
      'dataProcessInstanceOutput',
      { outputs: [DS] },
      [{ op: 'remove', path: `/outputs/${esc(DS)}` }],
      { outputs: [], outputEdges: [] },
    ],
    [
      'testResults',
      { passing: [{ test: 'urn:li:test:a', type: 'SUCCESS' }], failing: [] },
      [{ op: 'add', path: '/failing/urn:li:test:b', value: { type: 'FAILURE' } }],
      {
        passing: [{ test: 'urn:li:test:a', type: 'SUCCESS' }],
        failing: [{ type: 'FAILURE', test: 'urn:li:test:b' }],
      },
    ],
    [
      'businessAttributeInfo',
      { fieldPath: 'Email', name: 'Email' },
      [
        { op: 'add', path: '/globalTags/tags/urn:li:tag:pii/tag', value: 'urn:li:tag:pii' },
        { op: 'add', path: `/glossaryTerms/terms/${term}/urn`, value: term },
      ],
      {
        fieldPath: 'Email',
        name: 'Email',
        globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
        glossaryTerms: { terms: [{ urn: term }], auditStamp: { actor: SYSTEM_ACTOR, time: NOW } },
      },
    ],
    [
      'applications',
      { applications: ['urn:li:application:a'] },
      [
        { op: 'add', path: '/applications/urn:li:application:b', value: 'urn:li:application:b' },
        { op: 'remove', path: '/applications/urn:li:application:a' },
      ],
      { applications: ['urn:li:application:b'] },
    ],
  ]
  for (const [aspect, current, operations, expected] of cases) {
    t.same(patch(aspect, current, operations), expected, aspect)
  }
  const tested = new Set([
    ...cases.map((c) => c[0]),
    'globalTags',
    'glossaryTerms',
    'ownership',
    'upstreamLineage',
    'dataJobInputOutput',
    'siblings',
    'domains',
    'institutionalMemory',
    'editableSchemaMetadata',
    'datasetProperties',
    'dashboardInfo',
    'chartInfo',
    'versionProperties',
    'propertyDefinition',
    'forms',
  ])
  const plainEditable = [...TEMPLATES.entries()].filter(
    ([name, tpl]) => !tested.has(name) && tpl.arrays.length === 0 && !tpl.transform,
  )
  for (const [name] of plainEditable) {
    t.same(
      patch(name, undefined, [{ op: 'add', path: '/description', value: 'x' }]),
      { description: 'x' },
      name,
    )
    tested.add(name)
  }
  t.same(
    [...TEMPLATES.keys()].filter((name) => !tested.has(name)),
    [],
    'every template has a case',
  )
})

t.test('forms: one map of forms by URN and of prompts by id, split again by isComplete', async (t) => {
  const f1 = 'urn:li:form:one'
  const f2 = 'urn:li:form:two'
  t.same(
    patch('forms', undefined, [
      { op: 'add', path: `/forms/${f1}`, value: { urn: f1, isComplete: false, incompletePrompts: [] } },
    ]),
    { incompleteForms: [{ urn: f1, incompletePrompts: [], completedPrompts: [] }], completedForms: [] },
    'a new aspect starts from two empty lists',
  )
  const current = {
    incompleteForms: [
      { urn: f1, incompletePrompts: [{ id: 'p1' }, { id: 'p2' }], completedPrompts: [] },
      { urn: f2, incompletePrompts: [], completedPrompts: [] },
    ],
    completedForms: [],
    verifications: [{ form: f2, lastModified: { time: 1, actor: 'urn:li:corpuser:a' } }],
  }
  t.same(
    patch('forms', current, [
      { op: 'add', path: `/forms/${f1}/prompts/p1/isComplete`, value: true },
      { op: 'add', path: `/forms/${f2}/isComplete`, value: true },
      { op: 'remove', path: `/verifications/${f2}` },
    ]),
    {
      incompleteForms: [{ urn: f1, incompletePrompts: [{ id: 'p2' }], completedPrompts: [{ id: 'p1' }] }],
      completedForms: [{ urn: f2, incompletePrompts: [], completedPrompts: [] }],
      verifications: [],
    },
    'a prompt and a form move to their completed lists without knowing where they were',
  )
  t.same(
    patch('forms', current, [{ op: 'remove', path: `/forms/${f1}` }]).incompleteForms,
    [{ urn: f2, incompletePrompts: [], completedPrompts: [] }],
    'removing a form by URN',
  )
})
