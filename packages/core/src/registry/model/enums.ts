import { loadModel } from './load-model.js'

function symbols(name: string): readonly string[] {
  const decl = loadModel().file.types[name]
  return decl?.kind === 'enum' ? decl.symbols : []
}

/** `com.linkedin.chart.ChartType` symbols (GraphQL `ChartType`). */
export const CHART_TYPES: readonly string[] = symbols('com.linkedin.chart.ChartType')

/** `com.linkedin.common.MLFeatureDataType` symbols (GraphQL `MLFeatureDataType`). */
export const ML_FEATURE_DATA_TYPES: readonly string[] = symbols('com.linkedin.common.MLFeatureDataType')
