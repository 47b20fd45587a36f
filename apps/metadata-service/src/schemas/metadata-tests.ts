import { type Static, Type } from 'typebox'

export const EvaluateBodySchema = Type.Object({
  urn: Type.String({ examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'] }),
  push: Type.Optional(
    Type.Boolean({ default: false, description: "store the results as the entity's testResults aspect" }),
  ),
  testUrns: Type.Optional(
    Type.Array(Type.String(), { description: 'evaluate only these tests (default: all)', maxItems: 1000 }),
  ),
})
export type EvaluateBody = Static<typeof EvaluateBodySchema>

const TestResultSchema = Type.Object({
  test: Type.String(),
  type: Type.Union([Type.Literal('SUCCESS'), Type.Literal('FAILURE')]),
  testDefinitionMd5: Type.Optional(Type.String()),
  lastComputed: Type.Optional(Type.Object({ time: Type.Integer(), actor: Type.String() })),
})

/** `{value: com.linkedin.test.TestResults}`. */
export const EvaluateResponseSchema = Type.Object({
  value: Type.Object({ passing: Type.Array(TestResultSchema), failing: Type.Array(TestResultSchema) }),
})
