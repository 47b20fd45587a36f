/** Words the search and scale benchmarks build dataset names and descriptions from. */

export const PLATFORMS = ['hive', 'kafka', 'snowflake', 'bigquery', 'postgres', 'mysql', 's3', 'redshift']
export const DOMAINS = [
  'sales',
  'marketing',
  'finance',
  'hr',
  'ops',
  'product',
  'growth',
  'risk',
  'supply',
  'support',
]
export const THINGS = [
  'orders',
  'customers',
  'payments',
  'invoices',
  'shipments',
  'sessions',
  'events',
  'users',
]
  .concat(['accounts', 'products', 'inventory', 'refunds', 'clicks', 'campaigns', 'leads', 'subscriptions'])
  .concat(['transactions', 'tickets', 'reviews', 'returns'])
export const KINDS = [
  'daily',
  'hourly',
  'raw',
  'clean',
  'agg',
  'fact',
  'dim',
  'snapshot',
  'history',
  'staging',
]
/** The first 26 column names; the search benchmark adds 8 more. */
export const COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'customer_id',
  'order_id',
  'amount',
  'currency',
  'status',
]
  .concat(['country', 'email', 'first_name', 'last_name', 'phone', 'address', 'city', 'zip', 'product_id'])
  .concat(['quantity', 'price', 'discount', 'tax', 'total', 'channel', 'campaign_id', 'session_id', 'device'])
