/** ML model, model group and deployment aspects, and the model-card aspects (`com.linkedin.ml.metadata.*`). */
import { Type } from '@sinclair/typebox'
import { Enum, Opt, TimeStamp, Union, UrnString } from '../schema-kit.js'
import type { AspectSpec, RelationshipField } from '../types.js'
import {
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  DESCRIPTION_SEARCH,
  EXTERNAL_URL_SEARCH,
  externalReference,
  nameSearch,
  VersionTag,
} from './records.js'

const ML = 'com.linkedin.ml.metadata.'

/** `com.linkedin.ml.metadata.MLModelLineageInfo` members. */
const lineageInfo = {
  trainingJobs: Opt(Type.Array(UrnString())),
  downstreamJobs: Opt(Type.Array(UrnString())),
}
const LINEAGE_INFO_RELATIONSHIPS: readonly RelationshipField[] = [
  {
    path: 'trainingJobs/*',
    name: 'TrainedBy',
    entityTypes: ['dataJob', 'dataProcessInstance'],
    isLineage: true,
  },
  {
    path: 'downstreamJobs/*',
    name: 'UsedBy',
    entityTypes: ['dataJob', 'dataProcessInstance'],
    isLineage: true,
    isUpstream: false,
  },
]

/** `HyperParameterValueType`: `union[string, int, float, double, boolean]`. */
const HyperParameterValue = Union(
  'HyperParameterValueType: {"string"|"int"|"float"|"double"|"boolean": value}',
)

/** `MLHyperParam` / `MLMetric`. */
const NamedValue = Type.Object({
  name: Type.String(),
  description: Opt(Type.String()),
  value: Opt(Type.String()),
  createdAt: Opt(Type.Integer()),
})

const mlModelProperties: AspectSpec = {
  name: 'mlModelProperties',
  record: `${ML}MLModelProperties`,
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    ...lineageInfo,
    name: Opt(Type.String()),
    description: Opt(Type.String()),
    /** Deprecated: use `created`. */
    date: Opt(Type.Integer()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    version: Opt(VersionTag),
    type: Opt(Type.String()),
    /** Deprecated: use `hyperParams`. */
    hyperParameters: Opt(Type.Record(Type.String(), HyperParameterValue)),
    hyperParams: Opt(Type.Array(NamedValue)),
    trainingMetrics: Opt(Type.Array(NamedValue)),
    onlineMetrics: Opt(Type.Array(NamedValue)),
    mlFeatures: Opt(Type.Array(UrnString())),
    tags: Opt(Type.Array(Type.String())),
    deployments: Opt(Type.Array(UrnString())),
    groups: Opt(Type.Array(UrnString())),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    { ...nameSearch(), queryByDefault: true },
    DESCRIPTION_SEARCH,
    { path: 'type', fieldName: 'type', type: 'TEXT_PARTIAL' },
  ],
  relationships: [
    ...LINEAGE_INFO_RELATIONSHIPS,
    { path: 'mlFeatures/*', name: 'Consumes', entityTypes: ['mlFeature'], isLineage: true },
    { path: 'deployments/*', name: 'DeployedTo', entityTypes: ['mlModelDeployment'] },
    { path: 'groups/*', name: 'MemberOf', entityTypes: ['mlModelGroup'], isLineage: true, isUpstream: false },
  ],
}

const mlModelGroupProperties: AspectSpec = {
  name: 'mlModelGroupProperties',
  record: `${ML}MLModelGroupProperties`,
  schema: Type.Object({
    ...customProperties,
    ...lineageInfo,
    ...externalReference,
    name: Opt(Type.String()),
    description: Opt(Type.String()),
    /** Deprecated: use `created`. */
    createdAt: Opt(Type.Integer()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    version: Opt(VersionTag),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    { ...nameSearch(), queryByDefault: true },
    DESCRIPTION_SEARCH,
  ],
  relationships: LINEAGE_INFO_RELATIONSHIPS,
}

const mlModelDeploymentProperties: AspectSpec = {
  name: 'mlModelDeploymentProperties',
  record: `${ML}MLModelDeploymentProperties`,
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    description: Opt(Type.String()),
    createdAt: Opt(Type.Integer()),
    version: Opt(VersionTag),
    status: Opt(
      Enum([
        'OUT_OF_SERVICE',
        'CREATING',
        'UPDATING',
        'ROLLING_BACK',
        'IN_SERVICE',
        'DELETING',
        'FAILED',
        'UNKNOWN',
      ]),
    ),
    configuration: Opt(Type.Record(Type.String(), HyperParameterValue)),
  }),
  searchable: [...CUSTOM_PROPERTIES_SEARCH, ...EXTERNAL_URL_SEARCH, DESCRIPTION_SEARCH],
}

const stringList = Opt(Type.Array(Type.String()))

const intendedUse: AspectSpec = {
  name: 'intendedUse',
  record: `${ML}IntendedUse`,
  schema: Type.Object({
    primaryUses: stringList,
    primaryUsers: Opt(Type.Array(Enum(['ENTERPRISE', 'HOBBY', 'ENTERTAINMENT']))),
    outOfScopeUses: stringList,
  }),
}

const MLModelFactors = Type.Object({
  groups: stringList,
  instrumentation: stringList,
  environment: stringList,
})

const mlModelFactorPrompts: AspectSpec = {
  name: 'mlModelFactorPrompts',
  record: `${ML}MLModelFactorPrompts`,
  schema: Type.Object({
    relevantFactors: Opt(Type.Array(MLModelFactors)),
    evaluationFactors: Opt(Type.Array(MLModelFactors)),
  }),
}

const metrics: AspectSpec = {
  name: 'mlModelMetrics',
  record: `${ML}Metrics`,
  schema: Type.Object({ performanceMeasures: stringList, decisionThreshold: stringList }),
}

/** `com.linkedin.ml.metadata.BaseData`. */
const BaseData = Type.Object({
  dataset: UrnString(),
  motivation: Opt(Type.String()),
  preProcessing: stringList,
})

const evaluationData: AspectSpec = {
  name: 'mlModelEvaluationData',
  record: `${ML}EvaluationData`,
  schema: Type.Object({ evaluationData: Type.Array(BaseData) }),
}

const trainingData: AspectSpec = {
  name: 'mlModelTrainingData',
  record: `${ML}TrainingData`,
  schema: Type.Object({ trainingData: Type.Array(BaseData) }),
}

/** `ResultsType` is `union[string]`. */
const quantitativeAnalyses: AspectSpec = {
  name: 'mlModelQuantitativeAnalyses',
  record: `${ML}QuantitativeAnalyses`,
  schema: Type.Object({
    unitaryResults: Opt(Union('ResultsType: {"string": ...}')),
    intersectionalResults: Opt(Union('ResultsType: {"string": ...}')),
  }),
}

const ethicalConsiderations: AspectSpec = {
  name: 'mlModelEthicalConsiderations',
  record: `${ML}EthicalConsiderations`,
  schema: Type.Object({
    data: stringList,
    humanLife: stringList,
    mitigations: stringList,
    risksAndHarms: stringList,
    useCases: stringList,
  }),
}

const caveatsAndRecommendations: AspectSpec = {
  name: 'mlModelCaveatsAndRecommendations',
  record: `${ML}CaveatsAndRecommendations`,
  schema: Type.Object({
    caveats: Opt(
      Type.Object({
        needsFurtherTesting: Opt(Type.Boolean()),
        caveatDescription: Opt(Type.String()),
        groupsNotRepresented: stringList,
      }),
    ),
    recommendations: Opt(Type.String()),
    idealDatasetCharacteristics: stringList,
  }),
}

const sourceCode: AspectSpec = {
  name: 'sourceCode',
  record: `${ML}SourceCode`,
  schema: Type.Object({
    sourceCode: Type.Array(
      Type.Object({
        type: Enum([
          'ML_MODEL_SOURCE_CODE',
          'TRAINING_PIPELINE_SOURCE_CODE',
          'EVALUATION_PIPELINE_SOURCE_CODE',
        ]),
        sourceCodeUrl: Type.String(),
      }),
    ),
  }),
}

export const ML_MODEL_ASPECTS: readonly AspectSpec[] = [
  mlModelProperties,
  mlModelGroupProperties,
  mlModelDeploymentProperties,
  intendedUse,
  mlModelFactorPrompts,
  metrics,
  evaluationData,
  trainingData,
  quantitativeAnalyses,
  ethicalConsiderations,
  caveatsAndRecommendations,
  sourceCode,
]
