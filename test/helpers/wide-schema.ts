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

/**
 * A `schemaMetadata` named `name` of `count` fields made by `field(i, pad)`, with a padding sized
 * so that its JSON text is about `chars` characters.
 */
export function paddedSchema(
  name: string,
  count: number,
  chars: number,
  field: (i: number, pad: string) => unknown,
) {
  const bare = JSON.stringify(field(count - 1, '')).length + 1
  const pad = 'x'.repeat(Math.max(0, Math.floor(chars / count) - bare - 8))
  return schemaMetadata(
    Array.from({ length: count }, (_, i) => field(i, pad)),
    name,
  )
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
