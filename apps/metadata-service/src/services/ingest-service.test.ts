import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '@catalog/config'
import { LARGE_ASPECT_CHARS, Registry, sharedUtf8Now } from '@catalog/core'
import t from 'tap'
import { schemaMetadata } from '../../../../test/helpers/wide-schema.js'
import { openStore } from '../store-factory.js'
import { IngestService } from './ingest-service.js'

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,wide,PROD)'

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

t.test('a large aspect text whose UTF-8 the caller has is validated from those bytes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-utf8-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = await openStore(loadConfig({ CATALOG_DATA_DIR: dir }))
  t.teardown(() => store.close())
  const ingest = new IngestService(new Registry(), store)
  const storedFields = async () => {
    const [stored] = (await store.latest([urn], ['schemaMetadata'])).get(urn) ?? []
    return (stored?.value as { fields?: unknown[] } | undefined)?.fields?.length
  }
  const text = JSON.stringify(schema(3_000))
  t.ok(text.length >= LARGE_ASPECT_CHARS)
  // Bytes of another text than the string, to see which of the two was validated and stored.
  const bytes = sharedUtf8Now(JSON.stringify(schema(3_001)))
  const aspects: unknown[] = []
  const proposal = {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'schemaMetadata',
    aspect: { contentType: 'application/json', value: text },
  }
  await ingest.ingestProposals([proposal], 'urn:li:corpuser:datahub', (aspect) => {
    aspects.push(aspect)
    return bytes
  })
  t.same(aspects, [proposal.aspect], 'asked for the aspect of the large proposal')
  t.equal(await storedFields(), 3_001, 'the bytes were stored')

  await ingest.ingestProposals([proposal], 'urn:li:corpuser:datahub', () => undefined)
  t.equal(await storedFields(), 3_000, 'without bytes, the string')
})

t.test('a PATCH of a large aspect whose UTF-8 the caller has is applied from those bytes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ingest-utf8-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const store = await openStore(loadConfig({ CATALOG_DATA_DIR: dir }))
  t.teardown(() => store.close())
  const ingest = new IngestService(new Registry(), store)
  const actor = 'urn:li:corpuser:datahub'
  const upsert = {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'schemaMetadata',
    aspect: { contentType: 'application/json', value: JSON.stringify(schema(3_000)) },
  }
  await ingest.ingestProposals([upsert], actor)
  const rename = (name: string) => JSON.stringify([{ op: 'replace', path: '/schemaName', value: name }])
  const patch = {
    ...upsert,
    changeType: 'PATCH',
    aspect: { contentType: 'application/json-patch+json', value: rename('from the string') },
  }
  // Bytes of another patch than the string, to see which of the two was applied.
  await ingest.ingestProposals([patch], actor, () => sharedUtf8Now(rename('from the bytes')))
  const [stored] = (await store.latest([urn], ['schemaMetadata'])).get(urn) ?? []
  t.equal((stored?.value as { schemaName?: string } | undefined)?.schemaName, 'from the bytes')
  t.equal((stored?.value as { fields?: unknown[] } | undefined)?.fields?.length, 3_000, 'the rest as it was')
})
