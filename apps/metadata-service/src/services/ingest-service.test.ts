import { loadConfig } from '@catalog/config'
import { LARGE_ASPECT_CHARS, Registry, sharedUtf8Now } from '@catalog/core'
import t, { type Test } from 'tap'
import { tempDir } from '../../../../test/helpers/temp-dir.js'
import { schemaMetadata } from '../../../../test/helpers/wide-schema.js'
import { openStore } from '../store-factory.js'
import { IngestService } from './ingest-service.js'

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,wide,PROD)'
const actor = 'urn:li:corpuser:datahub'

/** A schemaMetadata of `n` fields. */
const schema = (n: number) =>
  schemaMetadata(
    Array.from({ length: n }, (_, i) => ({
      fieldPath: `column_${i}`,
      nativeDataType: 'string',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      description: `the description of column number ${i} of this table`,
    })),
  )

/** An UPSERT of `urn`'s schemaMetadata with the aspect text `value`. */
const upsert = (value: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'schemaMetadata',
  aspect: { contentType: 'application/json', value },
})

/** An ingest service on a store in a temp dir, and the stored schemaMetadata of `urn`. */
async function service(t: Test) {
  const store = await openStore(loadConfig({ CATALOG_DATA_DIR: tempDir(t, 'ingest-utf8-') }))
  t.teardown(() => store.close())
  const stored = async () => {
    const [aspect] = (await store.latest([urn], ['schemaMetadata'])).get(urn) ?? []
    return aspect?.value as { schemaName?: string; fields?: unknown[] } | undefined
  }
  return { ingest: new IngestService(new Registry(), store), stored }
}

t.test('a large aspect text whose UTF-8 the caller has is validated from those bytes', async (t) => {
  const { ingest, stored } = await service(t)
  const text = JSON.stringify(schema(3_000))
  t.ok(text.length >= LARGE_ASPECT_CHARS)
  // Bytes of another text than the string, to see which of the two was validated and stored.
  const bytes = sharedUtf8Now(JSON.stringify(schema(3_001)))
  const aspects: unknown[] = []
  const proposal = upsert(text)
  await ingest.ingestProposals([proposal], actor, (aspect) => {
    aspects.push(aspect)
    return bytes
  })
  t.same(aspects, [proposal.aspect], 'asked for the aspect of the large proposal')
  t.equal((await stored())?.fields?.length, 3_001, 'the bytes were stored')

  await ingest.ingestProposals([proposal], actor, () => undefined)
  t.equal((await stored())?.fields?.length, 3_000, 'without bytes, the string')
})

t.test('a PATCH of a large aspect whose UTF-8 the caller has is applied from those bytes', async (t) => {
  const { ingest, stored } = await service(t)
  await ingest.ingestProposals([upsert(JSON.stringify(schema(3_000)))], actor)
  const rename = (name: string) => JSON.stringify([{ op: 'replace', path: '/schemaName', value: name }])
  const patch = {
    ...upsert(rename('from the string')),
    changeType: 'PATCH',
    aspect: { contentType: 'application/json-patch+json', value: rename('from the string') },
  }
  // Bytes of another patch than the string, to see which of the two was applied.
  await ingest.ingestProposals([patch], actor, () => sharedUtf8Now(rename('from the bytes')))
  t.equal((await stored())?.schemaName, 'from the bytes')
  t.equal((await stored())?.fields?.length, 3_000, 'the rest as it was')
})
