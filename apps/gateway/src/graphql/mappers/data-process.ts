import { parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  browsePaths,
  customProperties,
  deprecation,
  editableDescription,
  fineGrainedLineages,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  lazyAspect,
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

/** `DataTransformLogic` (each transform's query statement) of a data job; null when absent. */
function dataTransformLogic(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  return {
    transforms: (Array.isArray(v.transforms) ? v.transforms : []).map((t) => {
      const query = (t as AspectValue | null)?.queryStatement as AspectValue | undefined
      return {
        queryStatement:
          typeof query?.value === 'string'
            ? { value: query.value, language: str(query.language) ?? 'SQL' }
            : null,
      }
    }),
  }
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
    dataTransformLogic: lazyAspect(e.urn, 'dataTransformLogic', dataTransformLogic),
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
