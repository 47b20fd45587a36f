const STAMP = { time: 0, actor: 'urn:li:corpuser:datahub' }

/** A string column tagged with a tag of its own name (`urn:li:tag:<name>`). */
export function taggedField(name: string, description: string) {
  return {
    fieldPath: name,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    description,
    globalTags: { tags: [{ tag: `urn:li:tag:${name}` }] },
  }
}

/** A hive `schemaMetadata` holding `fields`: the large aspect the heavy-write tests send. */
export function schemaMetadata(fields: readonly unknown[], schemaName = 'wide') {
  return {
    schemaName,
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    created: STAMP,
    lastModified: STAMP,
    hash: '',
    platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
    fields,
  }
}

/** A `batchIngest` body of one dataset snapshot: its properties (`name`, `description`) and `schema`. */
export function datasetSnapshotBody(urn: string, name: string, schema: unknown, description: string) {
  return {
    entities: [
      {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn,
            aspects: [
              { 'com.linkedin.dataset.DatasetProperties': { name, description } },
              { 'com.linkedin.schema.SchemaMetadata': schema },
            ],
          },
        },
      },
    ],
  }
}
