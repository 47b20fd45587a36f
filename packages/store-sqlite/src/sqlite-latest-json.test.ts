import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StoredAspect } from '@catalog/core'
import type { StoredAspectJson } from '@catalog/store'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

/**
 * `latestJson` answers what `latest` answers, values as the stored text: the same rows in the
 * same order, for one URN and for batches (duplicates, unknown URNs, aspect filters). The text
 * is a fixed point of parse-then-stringify, which is what lets a read splice it in unchanged.
 */

const dir = mkdtempSync(join(tmpdir(), 'store-latest-json-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const created = { time: 1700000000000, actor: 'urn:li:corpuser:datahub' }

function upsert(urn: string, aspect: string, value: Record<string, unknown>, runId?: string) {
  return {
    kind: 'upsert' as const,
    urn,
    entityType: 'dataset',
    aspect,
    value,
    created,
    ...(runId ? { systemMetadata: { runId, lastObserved: 5, properties: { '2': 'b', a: '1' } } } : {}),
    edges: [],
  }
}

function parsed(rows: StoredAspectJson[] | undefined) {
  return (rows ?? []).map((r) => ({
    aspect: r.aspect,
    version: r.version,
    value: JSON.parse(r.valueJson),
    created: r.created,
    ...(r.systemMetadataJson ? { systemMetadata: JSON.parse(r.systemMetadataJson) } : {}),
  }))
}

const withoutUrn = (rows: StoredAspect[] | undefined) => (rows ?? []).map(({ urn: _urn, ...rest }) => rest)

t.test('latestJson reads what latest reads, as stored text', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db') })
  t.teardown(() => store.close())
  const odd = { name: 'q " \\ \n \u0000 \ud800 😀', customProperties: { b: '1', '10': 'x', '9': 'y', a: '' } }
  await store.write({
    created,
    mutations: [
      upsert(ds('a'), 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'a', origin: 'PROD' }),
      upsert(ds('a'), 'datasetProperties', odd, 'run-1'),
      upsert(ds('a'), 'globalTags', { tags: [{ tag: 'urn:li:tag:t' }] }),
      upsert(ds('b'), 'status', { removed: true }, 'run-2'),
    ],
  })
  // A second value moves the first to version 1: only version 0 is read.
  await store.write({ created, mutations: [upsert(ds('a'), 'globalTags', { tags: [] }, 'run-3')] })

  const batches: Array<[string[], string[] | undefined]> = [
    [[ds('a')], undefined],
    [[ds('b')], undefined],
    [[ds('none')], undefined],
    [[ds('a'), ds('b'), ds('none'), ds('a')], undefined],
    [
      [ds('b'), ds('a')],
      ['globalTags', 'status'],
    ],
    [[ds('a')], ['datasetProperties']],
    // One URN and one aspect: read alone, its latest version only, none when absent.
    [[ds('a')], ['globalTags']],
    [[ds('b')], ['globalTags']],
    [[ds('none')], ['status']],
    [[], undefined],
  ]
  for (const [urns, aspects] of batches) {
    const json = await store.latestJson(urns, aspects)
    const objects = await store.latest(urns, aspects)
    t.same([...json.keys()], [...objects.keys()], `${urns.length} URNs: the same entries in the same order`)
    for (const urn of urns)
      t.same(parsed(json.get(urn)), withoutUrn(objects.get(urn)), `${urn} ${aspects ?? 'all'}`)
  }

  const rows = (await store.latestJson([ds('a'), ds('b')])).get(ds('a')) ?? []
  t.same(
    rows.map((r) => r.aspect),
    ['datasetKey', 'datasetProperties', 'globalTags'],
  )
  t.same(
    JSON.parse(rows.find((r) => r.aspect === 'globalTags')?.valueJson ?? ''),
    { tags: [] },
    'the latest value',
  )
  for (const r of rows) {
    t.equal(JSON.stringify(JSON.parse(r.valueJson)), r.valueJson, `${r.aspect}: the text is a fixed point`)
    if (r.systemMetadataJson !== null)
      t.equal(
        JSON.stringify(JSON.parse(r.systemMetadataJson)),
        r.systemMetadataJson,
        'so is the system metadata',
      )
  }
})
