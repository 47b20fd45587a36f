import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { UpsertAspect } from '@catalog/store'
import t from 'tap'
import { SqliteBulkImport, type TouchedLatestRow } from './sqlite-bulk-import.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-bulk-latest-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const created = { time: 1, actor: 'urn:li:corpuser:bulk' }
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const upsert = (urn: string, aspect: string, value: Record<string, unknown>): UpsertAspect => ({
  kind: 'upsert',
  urn,
  entityType: 'dataset',
  aspect,
  value,
  created,
  edges: [],
})
/** A batch as ingest makes it: the entity's defaults (none here) mark it touched when new. */
const batch = (m: UpsertAspect) => ({
  created,
  mutations: [m],
  defaults: [{ urn: m.urn, entityType: 'dataset', keyAspect: 'datasetKey', aspects: [] }],
})
const progress = () => ({
  source: 'test',
  fingerprint: 'f',
  position: 1,
  done: 0,
  records: 1,
  aspects: 1,
  failed: 0,
})

t.test('touchedLatest pages the touched entities by URN with their latest values as stored', async (t) => {
  const bulk = new SqliteBulkImport(join(dir, 'store.db'))
  t.teardown(() => bulk.finish())
  bulk.commit(() => {
    for (const name of ['c', 'a', 'b', 'd'])
      bulk.write(batch(upsert(ds(name), 'datasetKey', { name, platform: 'hive' })))
    // A second value of `a` (the first becomes version 1, not read), then `d` goes whole.
    bulk.write(batch(upsert(ds('a'), 'status', { removed: false })))
    bulk.write(batch(upsert(ds('a'), 'status', { removed: true })))
    bulk.write({
      created,
      mutations: [
        {
          kind: 'delete',
          urn: ds('d'),
          entityType: 'dataset',
          aspect: 'datasetKey',
          created,
          isKeyAspect: true,
        },
      ],
    })
  }, progress)
  const sorted = (rows: TouchedLatestRow[]) =>
    [...rows].sort((x, y) => `${x[0]} ${x[2]}`.localeCompare(`${y[0]} ${y[2]}`))
  const first = bulk.touchedLatest('', 2)
  t.same(sorted(first), [
    [ds('a'), 'dataset', 'datasetKey', '{"name":"a","platform":"hive"}'],
    [ds('a'), 'dataset', 'status', '{"removed":true}'],
    [ds('b'), 'dataset', 'datasetKey', '{"name":"b","platform":"hive"}'],
  ])
  t.same(
    first.map((r) => r[0]),
    [ds('a'), ds('a'), ds('b')],
    "in URN order, an entity's rows together",
  )
  const second = bulk.touchedLatest(ds('b'), 2)
  t.same(
    sorted(second),
    [
      [ds('c'), 'dataset', 'datasetKey', '{"name":"c","platform":"hive"}'],
      [ds('d'), 'dataset', null, null],
    ],
    'the next page starts after the last URN read; an entity deleted whole has a row of nulls',
  )
  t.same(bulk.touchedLatest(ds('d'), 2), [], 'nothing after the last')
  bulk.untouch([ds('a')])
  t.same(
    bulk.touchedLatest('', 10).map((r) => r[0]),
    [ds('b'), ds('c'), ds('d')],
    'an entity marked done is read no more',
  )
})
