import { ML_FEATURE_DATA_TYPES } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  customProperties,
  deprecation,
  editableDescription,
  enumValue,
  globalTags,
  glossaryTerms,
  institutionalMemory,
  type Mapped,
  num,
  optionalStamp,
  ownership,
  refs,
  status,
  str,
  versionTag,
} from './common.js'
import { type EntityMapping, existsField } from './types.js'
import { versionProperties } from './version-set.js'

const COMMON = ['ownership', 'status', 'deprecation', 'institutionalMemory', 'globalTags', 'glossaryTerms']

/** Ownership, status, deprecation, links, tags and terms: mapped the same for every ML entity. */
function common(e: LoadedEntity, editable: string): Mapped {
  const a = e.aspects
  const tags = globalTags(a.globalTags, e.urn)
  return {
    urn: e.urn,
    ownership: ownership(a.ownership, e.urn),
    status: status(a.status),
    deprecation: deprecation(a.deprecation),
    institutionalMemory: institutionalMemory(a.institutionalMemory, e.urn),
    tags,
    globalTags: tags,
    glossaryTerms: glossaryTerms(a.glossaryTerms, e.urn),
    editableProperties: editableDescription(a[editable]),
    exists: existsField(e),
  }
}

/** `MLFeatureProperties` / `MLPrimaryKeyProperties`. */
function featureProperties(p: AspectValue, urn: string): Mapped {
  return {
    description: str(p.description),
    dataType: enumValue(p.dataType, ML_FEATURE_DATA_TYPES),
    version: versionTag(p.version),
    sources: refs(p.sources, ['dataset']),
    customProperties: customProperties(p.customProperties, urn),
  }
}

function mapFeature(e: LoadedEntity, propsAspect: string, editable: string, legacyField: string): Mapped {
  const props = e.aspects[propsAspect]
  const properties = props ? featureProperties(props, e.urn) : null
  return {
    ...common(e, editable),
    name: e.key.name,
    featureNamespace: e.key.featureNamespace,
    description: str(props?.description),
    dataType: enumValue(props?.dataType, ML_FEATURE_DATA_TYPES),
    properties,
    [legacyField]: properties,
  }
}

function mapFeatureTable(e: LoadedEntity): Mapped {
  const props = e.aspects.mlFeatureTableProperties
  const properties = props
    ? {
        description: str(props.description),
        mlFeatures: refs(props.mlFeatures, ['mlFeature']),
        mlPrimaryKeys: refs(props.mlPrimaryKeys, ['mlPrimaryKey']),
        customProperties: customProperties(props.customProperties, e.urn),
      }
    : null
  return {
    ...common(e, 'editableMlFeatureTableProperties'),
    name: e.key.name,
    platform: { urn: e.key.platform },
    description: str(props?.description),
    properties,
    featureTableProperties: properties,
  }
}

function namedValues(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v.map((p: AspectValue) => ({
    name: str(p?.name),
    description: str(p?.description),
    value: str(p?.value),
    createdAt: num(p?.createdAt),
  }))
}

/** The aspects of a model's card (intended use, factors, metrics, data, analyses, ethics, caveats, code, cost). */
const MODEL_CARD = [
  'intendedUse',
  'mlModelFactorPrompts',
  'mlModelMetrics',
  'mlModelEvaluationData',
  'mlModelTrainingData',
  'mlModelQuantitativeAnalyses',
  'mlModelEthicalConsiderations',
  'mlModelCaveatsAndRecommendations',
  'sourceCode',
  'cost',
]

/** A list of strings, or null when absent. */
const strings = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.filter((x) => typeof x === 'string') : null

/** A record's string-list members (absent record: null). */
function stringLists(v: AspectValue | undefined, names: readonly string[]): Mapped | null {
  return v ? Object.fromEntries(names.map((n) => [n, strings(v[n])])) : null
}

/** `[BaseData]` of a model's training or evaluation data; null when absent. */
function baseData(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v.flatMap((d) => {
    const data = d as AspectValue | null
    return typeof data?.dataset === 'string'
      ? [
          {
            dataset: data.dataset,
            motivation: str(data.motivation),
            preProcessing: strings(data.preProcessing),
          },
        ]
      : []
  })
}

/** A `ResultsType` (a union of a string): `StringBox`. */
function results(v: unknown): Mapped | null {
  const value = typeof v === 'string' ? v : str((v as AspectValue | null)?.string)
  return value !== null ? { __typename: 'StringBox', stringValue: value } : null
}

/** The model-card fields of a model, as DataHub's MLModelMapper maps its card aspects; each null when absent. */
function modelCard(a: Readonly<Record<string, AspectValue>>): Mapped {
  const factors = (v: unknown) =>
    Array.isArray(v)
      ? v.map((f) => stringLists(f as AspectValue, ['groups', 'instrumentation', 'environment']))
      : null
  const caveats = a.mlModelCaveatsAndRecommendations
  const details = caveats?.caveats as AspectValue | undefined
  const cost = a.cost
  const costValue = cost?.cost as AspectValue | undefined
  return {
    intendedUse: a.intendedUse
      ? {
          primaryUses: strings(a.intendedUse.primaryUses),
          primaryUsers: strings(a.intendedUse.primaryUsers),
          outOfScopeUses: strings(a.intendedUse.outOfScopeUses),
        }
      : null,
    factorPrompts: a.mlModelFactorPrompts
      ? {
          relevantFactors: factors(a.mlModelFactorPrompts.relevantFactors),
          evaluationFactors: factors(a.mlModelFactorPrompts.evaluationFactors),
        }
      : null,
    metrics: stringLists(a.mlModelMetrics, ['performanceMeasures', 'decisionThreshold']),
    evaluationData: baseData(a.mlModelEvaluationData?.evaluationData),
    trainingData: baseData(a.mlModelTrainingData?.trainingData),
    quantitativeAnalyses: a.mlModelQuantitativeAnalyses
      ? {
          unitaryResults: results(a.mlModelQuantitativeAnalyses.unitaryResults),
          intersectionalResults: results(a.mlModelQuantitativeAnalyses.intersectionalResults),
        }
      : null,
    ethicalConsiderations: stringLists(a.mlModelEthicalConsiderations, [
      'data',
      'humanLife',
      'mitigations',
      'risksAndHarms',
      'useCases',
    ]),
    caveatsAndRecommendations: caveats
      ? {
          caveats: details
            ? {
                needsFurtherTesting:
                  typeof details.needsFurtherTesting === 'boolean' ? details.needsFurtherTesting : null,
                caveatDescription: str(details.caveatDescription),
                groupsNotRepresented: strings(details.groupsNotRepresented),
              }
            : null,
          recommendations: str(caveats.recommendations),
          idealDatasetCharacteristics: strings(caveats.idealDatasetCharacteristics),
        }
      : null,
    sourceCode: a.sourceCode
      ? {
          sourceCode: (Array.isArray(a.sourceCode.sourceCode) ? a.sourceCode.sourceCode : []).flatMap((u) => {
            const url = u as AspectValue | null
            return typeof url?.type === 'string' && typeof url.sourceCodeUrl === 'string'
              ? [{ type: url.type, sourceCodeUrl: url.sourceCodeUrl }]
              : []
          }),
        }
      : null,
    cost:
      cost && typeof cost.costType === 'string'
        ? {
            costType: cost.costType,
            costValue: {
              costId: typeof costValue?.costId === 'number' ? costValue.costId : null,
              costCode: str(costValue?.costCode),
            },
          }
        : null,
  }
}

function mapModel(e: LoadedEntity): Mapped {
  const p = e.aspects.mlModelProperties
  return {
    ...common(e, 'editableMlModelProperties'),
    name: e.key.name,
    platform: { urn: e.key.platform },
    origin: e.key.origin,
    versionProperties: versionProperties(e.aspects.versionProperties),
    ...modelCard(e.aspects),
    description: str(p?.description),
    properties: p
      ? {
          name: str(p.name) ?? e.key.name,
          description: str(p.description),
          date: num(p.date),
          created: optionalStamp(p.created),
          lastModified: optionalStamp(p.lastModified),
          version: str((p.version as AspectValue | undefined)?.versionTag),
          type: str(p.type),
          hyperParams: namedValues(p.hyperParams),
          trainingMetrics: namedValues(p.trainingMetrics),
          onlineMetrics: namedValues(p.onlineMetrics),
          mlFeatures: Array.isArray(p.mlFeatures) ? p.mlFeatures.filter((f) => typeof f === 'string') : null,
          tags: Array.isArray(p.tags) ? p.tags.filter((t) => typeof t === 'string') : null,
          // The spec reads `groups` as a list, possibly empty.
          groups: refs(p.groups, ['mlModelGroup']) ?? [],
          customProperties: customProperties(p.customProperties, e.urn),
          externalUrl: str(p.externalUrl),
        }
      : null,
  }
}

function mapModelGroup(e: LoadedEntity): Mapped {
  const p = e.aspects.mlModelGroupProperties
  return {
    ...common(e, 'editableMlModelGroupProperties'),
    name: e.key.name,
    platform: { urn: e.key.platform },
    origin: e.key.origin,
    description: str(p?.description),
    properties: p
      ? {
          name: str(p.name) ?? e.key.name,
          description: str(p.description),
          createdAt: num(p.createdAt),
          created: optionalStamp(p.created),
          lastModified: optionalStamp(p.lastModified),
          version: versionTag(p.version),
          customProperties: customProperties(p.customProperties, e.urn),
          externalUrl: str(p.externalUrl),
        }
      : null,
  }
}

export const ML_FEATURE_MAPPING: EntityMapping = {
  typeName: 'MLFeature',
  entityType: 'MLFEATURE',
  aspects: [...COMMON, 'mlFeatureProperties', 'editableMlFeatureProperties'],
  map: (e) => mapFeature(e, 'mlFeatureProperties', 'editableMlFeatureProperties', 'featureProperties'),
}

export const ML_PRIMARY_KEY_MAPPING: EntityMapping = {
  typeName: 'MLPrimaryKey',
  entityType: 'MLPRIMARY_KEY',
  aspects: [...COMMON, 'mlPrimaryKeyProperties', 'editableMlPrimaryKeyProperties'],
  map: (e) =>
    mapFeature(e, 'mlPrimaryKeyProperties', 'editableMlPrimaryKeyProperties', 'primaryKeyProperties'),
}

export const ML_FEATURE_TABLE_MAPPING: EntityMapping = {
  typeName: 'MLFeatureTable',
  entityType: 'MLFEATURE_TABLE',
  aspects: [...COMMON, 'mlFeatureTableProperties', 'editableMlFeatureTableProperties'],
  map: mapFeatureTable,
}

export const ML_MODEL_MAPPING: EntityMapping = {
  typeName: 'MLModel',
  entityType: 'MLMODEL',
  aspects: [...COMMON, 'mlModelProperties', 'editableMlModelProperties', 'versionProperties', ...MODEL_CARD],
  map: mapModel,
}

export const ML_MODEL_GROUP_MAPPING: EntityMapping = {
  typeName: 'MLModelGroup',
  entityType: 'MLMODEL_GROUP',
  aspects: [...COMMON, 'mlModelGroupProperties', 'editableMlModelGroupProperties'],
  map: mapModelGroup,
}
