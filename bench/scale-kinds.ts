import { datasetTable } from './scale-data.js'

/** A kind of request the scale benchmark times, with its target p95 and inputs. */
export interface Kind {
  readonly name: string
  readonly targetMs: number
  readonly action: 'search' | 'autocomplete'
  readonly inputs: readonly string[]
}

/** The scale benchmark's request kinds (issue 14's targets at a million datasets). */
export const scaleKinds: readonly Kind[] = [
  {
    name: '1 word',
    targetMs: 50,
    action: 'search',
    inputs: ['orders', 'customers', 'daily', 'payments', 'events', 'finance', 'snapshot', 'sales'],
  },
  {
    name: '2 words',
    targetMs: 50,
    action: 'search',
    inputs: ['daily customers', 'refunds finance', 'payment events', 'inventory snapshot', 'sales orders'],
  },
  {
    name: '3 words',
    targetMs: 50,
    action: 'search',
    inputs: [
      'marketing campaigns hourly',
      'sales orders daily',
      'raw customers growth',
      'finance team payments',
    ],
  },
  {
    name: 'exact field:value',
    targetMs: 20,
    action: 'search',
    // Fields the scale benchmark's datasets have (see scale-data.ts): column tags, the URN's
    // platform and origin, and one table's name (a single hit).
    inputs: [
      'fieldTags:PII',
      'platform:kafka',
      `name:${datasetTable(42)}`,
      'origin:DEV',
      'fieldTags:Gold',
      'platform:snowflake',
    ],
  },
  {
    name: 'autocomplete',
    targetMs: 20,
    action: 'autocomplete',
    inputs: ['dim_ord', 'daily_cu', 'fin', 'raw_pay', 'snap', 'hourly_se', 'cust', 'agg_inv'],
  },
]
