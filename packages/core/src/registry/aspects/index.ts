/**
 * Every non-key aspect the catalog knows, as DataHub's PDL defines it: record name, TypeBox
 * schema, time-series flag, `@Searchable` and `@Relationship` annotations. Key aspects are
 * derived from the entity specs elsewhere.
 */
import type { AspectSpec } from '../types.js'
import { ACCESS_TOKEN_ASPECTS } from './access-token.js'
import { CHART_DASHBOARD_ASPECTS } from './chart-dashboard.js'
import { COMMON_ASPECTS } from './common.js'
import { DATAJOB_ASPECTS } from './datajob.js'
import { DATASET_ASPECTS } from './dataset.js'
import { GLOSSARY_ASPECTS } from './glossary.js'
import { GOVERNANCE_ASPECTS } from './governance.js'
import { IDENTITY_ASPECTS } from './identity.js'
import { MISC_ASPECTS } from './misc.js'
import { ML_ASPECTS } from './ml.js'
import { ML_MODEL_ASPECTS } from './ml-model.js'
import { SCHEMA_ASPECTS } from './schema.js'
import { TIMESERIES_ASPECTS } from './timeseries.js'

export const ASPECTS: readonly AspectSpec[] = [
  ...COMMON_ASPECTS,
  ...GOVERNANCE_ASPECTS,
  ...DATASET_ASPECTS,
  ...SCHEMA_ASPECTS,
  ...TIMESERIES_ASPECTS,
  ...IDENTITY_ASPECTS,
  ...CHART_DASHBOARD_ASPECTS,
  ...GLOSSARY_ASPECTS,
  ...ML_ASPECTS,
  ...ML_MODEL_ASPECTS,
  ...DATAJOB_ASPECTS,
  ...MISC_ASPECTS,
  ...ACCESS_TOKEN_ASPECTS,
]
