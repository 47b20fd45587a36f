/** Governance aspects: documentation, test results, structured properties, forms and cost. */
import { Type } from '@sinclair/typebox'
import { AuditStamp, Enum, Opt, Union, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { MetadataAttribution, open } from './records.js'

const documentation: AspectSpec = {
  name: 'documentation',
  record: 'com.linkedin.common.Documentation',
  schema: Type.Object({
    documentations: Type.Array(
      Type.Object({ documentation: Type.String(), attribution: Opt(MetadataAttribution) }),
    ),
  }),
}

const testResult = Type.Object({
  test: UrnString(),
  type: Enum(['SUCCESS', 'FAILURE']),
  testDefinitionMd5: Opt(Type.String()),
  lastComputed: Opt(AuditStamp),
})

const testResults: AspectSpec = {
  name: 'testResults',
  record: 'com.linkedin.test.TestResults',
  schema: Type.Object({ failing: Type.Array(testResult), passing: Type.Array(testResult) }),
  searchable: [
    {
      path: 'failing/*/test',
      fieldName: 'failingTests',
      type: 'URN',
      hasValuesFieldName: 'hasFailingTests',
      addToFilters: true,
    },
    {
      path: 'passing/*/test',
      fieldName: 'passingTests',
      type: 'URN',
      hasValuesFieldName: 'hasPassingTests',
      addToFilters: true,
    },
  ],
  relationships: [
    { path: 'failing/*/test', name: 'IsFailing', entityTypes: ['test'] },
    { path: 'passing/*/test', name: 'IsPassing', entityTypes: ['test'] },
  ],
}

/** Values are `union[string, double]`; assignments keep members not modelled here. */
const structuredProperties: AspectSpec = {
  name: 'structuredProperties',
  record: 'com.linkedin.structured.StructuredProperties',
  schema: Type.Object({
    properties: Type.Array(
      open({
        propertyUrn: UrnString(),
        values: Type.Array(Union('PrimitivePropertyValue: {"string": ...} or {"double": ...}')),
        created: Opt(AuditStamp),
        lastModified: Opt(AuditStamp),
        attribution: Opt(MetadataAttribution),
      }),
    ),
  }),
}

const formAssociation = open({ urn: UrnString() })

const forms: AspectSpec = {
  name: 'forms',
  record: 'com.linkedin.common.Forms',
  schema: open({
    incompleteForms: Type.Array(formAssociation),
    completedForms: Type.Array(formAssociation),
    verifications: Opt(Type.Array(open({ form: UrnString() }))),
  }),
  searchable: [
    { path: 'incompleteForms/*/urn', fieldName: 'incompleteForms', type: 'URN', queryByDefault: false },
    { path: 'completedForms/*/urn', fieldName: 'completedForms', type: 'URN', queryByDefault: false },
    { path: 'verifications/*/form', fieldName: 'verifiedForms', type: 'URN', queryByDefault: false },
  ],
}

/** `com.linkedin.common.Cost`: `cost` is `union[costId: double, costCode: string]` (Avro files add `fieldDiscriminator`). */
const cost: AspectSpec = {
  name: 'cost',
  record: 'com.linkedin.common.Cost',
  schema: Type.Object({
    costType: Enum(['ORG_COST_TYPE']),
    cost: Type.Object(
      {
        costId: Opt(Type.Number()),
        costCode: Opt(Type.String()),
        fieldDiscriminator: Opt(Enum(['costId', 'costCode'])),
      },
      { minProperties: 1 },
    ),
  }),
}

export const GOVERNANCE_ASPECTS: readonly AspectSpec[] = [
  documentation,
  testResults,
  structuredProperties,
  forms,
  cost,
]
