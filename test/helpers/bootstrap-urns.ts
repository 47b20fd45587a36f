/** URNs of DataHub's bootstrap example (`loadExample('bootstrap')`) that tests assert on. */

export const ds = (platform: string, name: string) =>
  `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`
export const KAFKA = ds('kafka', 'SampleKafkaDataset')
export const HDFS = ds('hdfs', 'SampleHdfsDataset')
export const HIVE = ds('hive', 'SampleHiveDataset')
export const LOGGING = ds('hive', 'logging_events')
export const CREATED = ds('hive', 'fct_users_created')
export const DELETED = ds('hive', 'fct_users_deleted')
export const TASK_123 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)'
export const TASK_456 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_456)'
