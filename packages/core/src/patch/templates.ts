import type { ArrayRule } from './array-map.js'
import { fineGrainedToArray, fineGrainedToMap } from './fine-grained.js'
import { formsToArray, formsToMap } from './forms.js'
import type { TreeObject } from './tree.js'

/**
 * What DataHub does in code for a PATCH of one aspect (its `*Template` classes): the value a
 * patch starts from when the aspect is absent, which arrays are addressed by key, and any
 * reshaping beyond that. Facts from DataHub's `entity-registry/.../aspect/patch/template/`.
 */
export interface PatchTemplate {
  /** The starting value of an absent aspect; undefined where DataHub has no sensible default. */
  readonly defaults?: (now: number) => Record<string, unknown>
  readonly arrays: readonly ArrayRule[]
  readonly transform?: (root: TreeObject, now: number) => void
  readonly rebase?: (root: TreeObject, now: number) => void
}

/** The actor of the audit stamps DataHub puts in default aspects. */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system'

const stamp = (now: number) => ({ actor: SYSTEM_ACTOR, time: now })
const strings = (field: string, at?: string[]): ArrayRule => ({ field, keys: [], ...(at ? { at } : {}) })
const byKey = (field: string, ...keys: string[]): ArrayRule => ({ field, keys })
const edges = (field: string): ArrayRule => byKey(field, 'destinationUrn')
const plain = (defaults: Record<string, unknown> = {}): PatchTemplate => ({
  defaults: () => structuredClone(defaults),
  arrays: [],
})

/** DataHub keys tags, terms and owners by their attribution source too: a missing source is "". */
const SOURCE = 'attribution\u241fsource'
const TAGS = byKey('tags', 'tag', SOURCE)
const TERMS = byKey('terms', 'urn', SOURCE)

/** glossaryTerms carries a required (deprecated) audit stamp: a patch fills it in when absent. */
function ensureAuditStamp(holder: TreeObject, now: number): void {
  if (!holder.has('auditStamp'))
    holder.set('auditStamp', new Map<string, string | number>(Object.entries(stamp(now))))
}

/** The glossaryTerms objects of each schema field, for their audit stamp. */
function fieldTerms(root: TreeObject): TreeObject[] {
  const info = root.get('editableSchemaFieldInfo')
  const fields = info instanceof Map ? [...info.values()] : Array.isArray(info) ? info : []
  const out: TreeObject[] = []
  for (const field of fields) {
    const terms = field instanceof Map ? field.get('glossaryTerms') : undefined
    if (terms instanceof Map) out.push(terms)
  }
  return out
}

const table: Record<string, PatchTemplate> = {
  // common
  globalTags: { defaults: () => ({ tags: [] }), arrays: [TAGS] },
  glossaryTerms: {
    defaults: (now) => ({ terms: [], auditStamp: stamp(now) }),
    arrays: [TERMS],
    transform: ensureAuditStamp,
    rebase: ensureAuditStamp,
  },
  ownership: {
    defaults: (now) => ({ owners: [], lastModified: { time: now, actor: SYSTEM_ACTOR } }),
    arrays: [byKey('owners', 'owner', 'type', 'typeUrn', SOURCE)],
  },
  domains: { defaults: () => ({ domains: [] }), arrays: [strings('domains')] },
  applications: { defaults: () => ({ applications: [] }), arrays: [strings('applications')] },
  siblings: { defaults: () => ({ siblings: [], primary: false }), arrays: [strings('siblings')] },
  status: plain({ removed: false }),
  structuredProperties: {
    defaults: () => ({ properties: [] }),
    arrays: [byKey('properties', 'propertyUrn')],
  },
  institutionalMemory: { defaults: () => ({ elements: [] }), arrays: [byKey('elements', 'url')] },
  documentation: {
    defaults: () => ({ documentations: [] }),
    arrays: [byKey('documentations', SOURCE)],
  },
  versionProperties: { arrays: [] },
  // business attributes keep their tags and terms in their info
  businessAttributeInfo: {
    arrays: [
      { at: ['globalTags'], ...TAGS },
      { at: ['glossaryTerms'], ...TERMS },
    ],
    transform: (root, now) => {
      const terms = root.get('glossaryTerms')
      if (terms instanceof Map) ensureAuditStamp(terms, now)
    },
    rebase: (root, now) => {
      const terms = root.get('glossaryTerms')
      if (terms instanceof Map) ensureAuditStamp(terms, now)
    },
  },
  // datasets
  datasetProperties: { defaults: () => ({ tags: [], customProperties: {} }), arrays: [strings('tags')] },
  editableDatasetProperties: plain(),
  editableSchemaMetadata: {
    defaults: (now) => ({ created: stamp(now), lastModified: stamp(now), editableSchemaFieldInfo: [] }),
    arrays: [
      {
        field: 'editableSchemaFieldInfo',
        keys: ['fieldPath'],
        nested: [
          { at: ['globalTags'], ...TAGS },
          { at: ['glossaryTerms'], ...TERMS },
        ],
      },
    ],
    transform: (root, now) => {
      for (const terms of fieldTerms(root)) ensureAuditStamp(terms, now)
    },
    rebase: (root, now) => {
      for (const terms of fieldTerms(root)) ensureAuditStamp(terms, now)
    },
  },
  upstreamLineage: {
    defaults: () => ({ upstreams: [], fineGrainedLineages: [] }),
    arrays: [byKey('upstreams', 'dataset')],
    transform: fineGrainedToMap,
    rebase: fineGrainedToArray,
  },
  // jobs and flows
  dataJobInputOutput: {
    defaults: () => ({
      inputDatajobEdges: [],
      inputDatasetEdges: [],
      outputDatasetEdges: [],
      fineGrainedLineages: [],
      inputDatasetFields: [],
      outputDatasetFields: [],
      inputDatajobs: [],
      inputDatasets: [],
      outputDatasets: [],
    }),
    arrays: [
      edges('inputDatajobEdges'),
      edges('inputDatasetEdges'),
      edges('outputDatasetEdges'),
      strings('inputDatasetFields'),
      strings('outputDatasetFields'),
    ],
    transform: fineGrainedToMap,
    rebase: fineGrainedToArray,
  },
  dataJobInfo: plain({ customProperties: {} }),
  editableDataJobProperties: plain(),
  dataFlowInfo: plain({ customProperties: {} }),
  editableDataFlowProperties: plain(),
  // charts and dashboards
  chartInfo: {
    defaults: (now) => ({
      description: '',
      title: '',
      lastModified: { created: stamp(now), lastModified: stamp(now) },
      inputEdges: [],
      inputs: [],
    }),
    arrays: [edges('inputEdges'), strings('inputs')],
  },
  editableChartProperties: plain(),
  dashboardInfo: {
    defaults: (now) => ({
      title: '',
      description: '',
      lastModified: { created: stamp(now), lastModified: stamp(now) },
      chartEdges: [],
      datasetEdges: [],
      datasets: [],
      charts: [],
    }),
    arrays: [
      edges('datasetEdges'),
      edges('chartEdges'),
      edges('dashboards'),
      strings('datasets'),
      strings('charts'),
    ],
  },
  editableDashboardProperties: plain(),
  // products, domains, containers, applications
  dataProductProperties: { defaults: () => ({ assets: [] }), arrays: [edges('assets')] },
  domainProperties: plain(),
  editableContainerProperties: plain(),
  applicationProperties: plain(),
  // glossary
  glossaryTermInfo: plain({ definition: '', termSource: 'INTERNAL', customProperties: {} }),
  glossaryNodeInfo: plain({ definition: '', customProperties: {} }),
  glossaryRelatedTerms: {
    defaults: () => ({}),
    arrays: [
      strings('isRelatedTerms'),
      strings('hasRelatedTerms'),
      strings('values'),
      strings('relatedTerms'),
    ],
  },
  // forms and structured properties
  forms: {
    defaults: () => ({ incompleteForms: [], completedForms: [] }),
    arrays: [],
    transform: formsToMap,
    rebase: formsToArray,
  },
  formInfo: {
    defaults: () => ({ name: '' }),
    arrays: [byKey('prompts', 'id'), strings('users', ['actors']), strings('groups', ['actors'])],
  },
  propertyDefinition: {
    defaults: () => ({ qualifiedName: '', valueType: 'urn:li:dataType:datahub.string', entityTypes: [] }),
    arrays: [
      strings('entityTypes'),
      { ...strings('allowedPlatforms'), optional: true },
      { ...byKey('allowedValues', 'value\u241f*'), optional: true },
    ],
  },
  // ML
  editableMlFeatureProperties: plain(),
  editableMlFeatureTableProperties: plain(),
  editableMlModelGroupProperties: plain(),
  editableMlModelProperties: plain(),
  editableMlPrimaryKeyProperties: plain(),
  // process instances and tests
  dataProcessInstanceInput: {
    defaults: () => ({ inputs: [], inputEdges: [] }),
    arrays: [strings('inputs'), edges('inputEdges')],
  },
  dataProcessInstanceOutput: {
    defaults: () => ({ outputs: [], outputEdges: [] }),
    arrays: [strings('outputs'), edges('outputEdges')],
  },
  testResults: {
    defaults: () => ({ failing: [], passing: [] }),
    arrays: [byKey('passing', 'test'), byKey('failing', 'test')],
  },
}

/** Patch templates by aspect name. Any other aspect is patched as plain JSON, starting from `{}`. */
export const TEMPLATES: ReadonlyMap<string, PatchTemplate> = new Map(Object.entries(table))
