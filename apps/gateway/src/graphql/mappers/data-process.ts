import { parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  browsePaths,
  customProperties,
  deprecation,
  editableDescription,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  type Mapped,
  ownership,
  refs,
  status,
  str,
  subTypes,
} from './common.js'
import { type EntityMapping, existsField } from './types.js'

const COMMON = [
  'ownership',
  'status',
  'deprecation',
  'institutionalMemory',
  'globalTags',
  'glossaryTerms',
  'subTypes',
  'browsePaths',
]

/** `DataFlowProperties` / `DataJobProperties` (and the deprecated `info`) from a `*Info` aspect. */
function processProperties(info: AspectValue, urn: string, withProject: boolean): Mapped {
  return {
    name: str(info.name) ?? '',
    description: str(info.description),
    ...(withProject ? { project: str(info.project) } : {}),
    externalUrl: str(info.externalUrl),
    customProperties: customProperties(info.customProperties, urn),
  }
}

/** What data flows and data jobs share, as DataHub's DataFlowMapper and DataJobMapper. */
function common(e: LoadedEntity, editable: AspectValue | undefined): Mapped {
  const a = e.aspects
  const tags = globalTags(a.globalTags, e.urn)
  return {
    urn: e.urn,
    editableProperties: editableDescription(editable),
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    deprecation: deprecation(a.deprecation),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    tags,
    globalTags: tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    subTypes: subTypes(a.subTypes),
    browsePaths: browsePaths(a.browsePaths),
    exists: existsField(e),
  }
}

function mapDataFlow(e: LoadedEntity): Mapped {
  const info = e.aspects.dataFlowInfo
  const properties = info ? processProperties(info, e.urn, true) : null
  return {
    ...common(e, e.aspects.editableDataFlowProperties),
    orchestrator: e.key.orchestrator,
    flowId: e.key.flowId,
    cluster: e.key.cluster,
    platform: { urn: `urn:li:dataPlatform:${e.key.orchestrator}` },
    properties,
    info: properties,
  }
}

/** `SchemaFieldRef {urn: dataset, path: field}` of each `schemaField` URN; others are dropped. */
function fieldRefs(v: unknown): Mapped[] {
  if (!Array.isArray(v)) return []
  return v.flatMap((u) => {
    try {
      const parsed = typeof u === 'string' ? parseUrn(u) : undefined
      const [urn, path] = parsed?.entityType === 'schemaField' ? parsed.parts : []
      return urn !== undefined && path !== undefined ? [{ urn, path }] : []
    } catch {
      return []
    }
  })
}

/** `[FineGrainedLineage]`, as DataHub's FineGrainedLineagesMapper; null when absent. */
function fineGrainedLineages(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v
    .filter((l): l is AspectValue => l !== null && typeof l === 'object')
    .map((l) => ({
      upstreams: fieldRefs(l.upstreams),
      downstreams: fieldRefs(l.downstreams),
      query: str(l.query),
      transformOperation: str(l.transformOperation),
    }))
}

/** The orchestrator of a data job's flow, as its platform. */
function flowPlatform(flow: string | undefined): Mapped | null {
  try {
    const orchestrator = flow ? parseUrn(flow).parts[0] : undefined
    return orchestrator ? { urn: `urn:li:dataPlatform:${orchestrator}` } : null
  } catch {
    return null
  }
}

function mapDataJob(e: LoadedEntity): Mapped {
  const info = e.aspects.dataJobInfo
  const io = e.aspects.dataJobInputOutput
  const properties = info ? processProperties(info, e.urn, false) : null
  return {
    ...common(e, e.aspects.editableDataJobProperties),
    jobId: e.key.jobId,
    dataFlow: e.key.flow ? { urn: e.key.flow } : null,
    platform: flowPlatform(e.key.flow),
    properties,
    info: properties,
    inputOutput: io
      ? {
          inputDatasets: refs(io.inputDatasets, ['dataset']) ?? [],
          outputDatasets: refs(io.outputDatasets, ['dataset']) ?? [],
          inputDatajobs: refs(io.inputDatajobs, ['dataJob']) ?? [],
          fineGrainedLineages: fineGrainedLineages(io.fineGrainedLineages),
        }
      : null,
  }
}

export const DATA_FLOW_MAPPING: EntityMapping = {
  typeName: 'DataFlow',
  entityType: 'DATA_FLOW',
  aspects: [...COMMON, 'dataFlowInfo', 'editableDataFlowProperties'],
  map: mapDataFlow,
}

export const DATA_JOB_MAPPING: EntityMapping = {
  typeName: 'DataJob',
  entityType: 'DATA_JOB',
  aspects: [...COMMON, 'dataJobInfo', 'editableDataJobProperties', 'dataJobInputOutput'],
  map: mapDataJob,
}
