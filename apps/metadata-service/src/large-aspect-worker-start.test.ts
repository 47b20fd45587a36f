import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '@catalog/config'
import { LARGE_ASPECT_CHARS, largeAspectWorkerRunning } from '@catalog/core'
import t from 'tap'
import { build } from '../../../test/helpers/build.js'
import { openStore } from './store-factory.js'

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,wide,PROD)'

/** A schemaMetadata whose JSON text is at least `chars` characters. */
function schema(chars: number) {
  const stamp = { time: 0, actor: 'urn:li:corpuser:datahub' }
  const n = Math.ceil(chars / 100)
  return {
    schemaName: 'wide',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    created: stamp,
    lastModified: stamp,
    hash: '',
    platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
    fields: Array.from({ length: n }, (_, i) => ({
      fieldPath: `column_${i}`,
      nativeDataType: 'string',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      description: `the description of column number ${i} of this table`,
    })),
  }
}

t.test('the large-aspect worker starts at the first large write, not with the store', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aux-workers-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = await openStore(loadConfig({ CATALOG_DATA_DIR: join(dir, 'opened') }))
  t.teardown(() => store.close())
  t.equal(largeAspectWorkerRunning(), false, 'not started when the store opens')

  const { app } = await build(t, { dir })
  const post = (aspect: unknown) =>
    app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      headers: { 'content-type': 'application/json' },
      payload: {
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'schemaMetadata',
          aspect: { value: JSON.stringify(aspect), contentType: 'application/json' },
        },
      },
    })
  t.equal((await post(schema(1000))).statusCode, 200)
  t.equal(largeAspectWorkerRunning(), false, 'a small write validates on the event loop')
  const large = schema(LARGE_ASPECT_CHARS)
  t.ok(JSON.stringify(large).length >= LARGE_ASPECT_CHARS)
  t.equal((await post(large)).statusCode, 200, 'a large write is answered')
  t.equal(largeAspectWorkerRunning(), true, 'it started the worker')
  const read = await app.inject({
    method: 'GET',
    url: `/aspects/${encodeURIComponent(urn)}?aspect=schemaMetadata`,
  })
  t.equal(read.json().aspect['com.linkedin.schema.SchemaMetadata'].fields.length, large.fields.length)
})
