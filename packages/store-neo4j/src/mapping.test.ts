import { InvalidInputError, NO_RUN_ID } from '@catalog/core'
import { isInt } from 'neo4j-driver'
import t from 'tap'
import {
  entityTypeOf,
  int,
  likeToRegex,
  systemMetadataWithDefaults,
  timeseriesKey,
  toChangeLogEntry,
  toStoredAspect,
  toTimeseriesRow,
} from './mapping.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)'

t.test('aspect nodes become stored aspects', async (t) => {
  t.same(
    toStoredAspect({
      urn: DS,
      aspect: 'status',
      version: 2,
      metadata: '{"removed":false}',
      systemMetadata: '{"runId":"r","lastObserved":5}',
      createdOn: 7,
      createdBy: 'urn:li:corpuser:jdoe',
    }),
    {
      urn: DS,
      aspect: 'status',
      version: 2,
      value: { removed: false },
      created: { time: 7, actor: 'urn:li:corpuser:jdoe' },
      systemMetadata: { runId: 'r', lastObserved: 5 },
    },
  )
  const bare = toStoredAspect({
    urn: DS,
    aspect: 'status',
    version: 0,
    metadata: '{}',
    systemMetadata: null,
    createdOn: 1,
    createdBy: 'a',
  })
  t.notOk('systemMetadata' in bare, 'no system metadata property when none is stored')
})

t.test('change nodes become change-log entries', async (t) => {
  const base = {
    seq: 4,
    urn: DS,
    entityType: 'dataset',
    aspect: 'status',
    createdOn: 9,
    createdBy: 'urn:li:corpuser:datahub',
  }
  t.same(toChangeLogEntry({ ...base, change: 'UPSERT', value: '{"removed":true}', entityDeleted: false }), {
    ...entry(base),
    change: 'UPSERT',
    value: { removed: true },
  })
  const deleted = toChangeLogEntry({ ...base, change: 'DELETE', value: null, entityDeleted: true })
  t.same(deleted, { ...entry(base), change: 'DELETE', entityDeleted: true })
  t.notOk('value' in deleted)
  const withMeta = toChangeLogEntry({
    ...base,
    change: 'UPSERT',
    value: '{}',
    systemMetadata: '{"runId":"x"}',
  })
  t.same(withMeta.systemMetadata, { runId: 'x' })
})

function entry(base: {
  seq: number
  urn: string
  entityType: string
  aspect: string
  createdOn: number
  createdBy: string
}) {
  return {
    seq: base.seq,
    urn: base.urn,
    entityType: base.entityType,
    aspect: base.aspect,
    created: { time: base.createdOn, actor: base.createdBy },
  }
}

t.test('time-series nodes become rows; their key has partition and message id', async (t) => {
  const key = { urn: DS, entityType: 'dataset', aspect: 'datasetProfile' }
  t.same(toTimeseriesRow(key, { timestampMillis: 5, value: '{"rowCount":3}', systemMetadata: null }), {
    ...key,
    timestampMillis: 5,
    value: { rowCount: 3 },
  })
  t.same(
    toTimeseriesRow(key, { timestampMillis: 5, value: '{}', systemMetadata: '{"runId":"r"}' }).systemMetadata,
    { runId: 'r' },
  )
  const row = (value: Record<string, unknown>) => ({ ...key, timestampMillis: 1, value })
  t.same(timeseriesKey(row({ timestampMillis: 1 })), { partition: '', messageId: '' })
  t.same(
    timeseriesKey(row({ partitionSpec: { type: 'PARTITION', partition: 'p=1' }, messageId: 'm-1' })),
    { partition: '{"partition":"p=1","type":"PARTITION"}', messageId: 'm-1' },
    'the partition is canonical JSON',
  )
  t.same(timeseriesKey(row({ messageId: 5 })).messageId, '', 'a non-string message id is no id')
})

t.test('system metadata defaults follow DataHub', async (t) => {
  const created = { time: 100, actor: 'urn:li:corpuser:datahub' }
  t.same(systemMetadataWithDefaults(undefined, created), {
    lastObserved: 100,
    runId: NO_RUN_ID,
    lastRunId: NO_RUN_ID,
  })
  t.same(systemMetadataWithDefaults({ runId: 'b', lastObserved: 5, extra: 1 }, created, '{"runId":"a"}'), {
    runId: 'b',
    lastObserved: 5,
    extra: 1,
    lastRunId: 'a',
  })
})

t.test('integers go to Cypher as integers; non-integers are refused', async (t) => {
  t.ok(isInt(int(1_700_000_000_000)))
  t.equal(int(-3).toNumber(), -3)
  t.throws(() => int(1.5), InvalidInputError)
  t.throws(() => int(Number.NaN), InvalidInputError)
})

t.test('URNs name their entity type', async (t) => {
  t.equal(entityTypeOf(DS), 'dataset')
  t.equal(entityTypeOf('urn:li:corpuser:jdoe'), 'corpuser')
  t.equal(entityTypeOf('not-a-urn'), null)
})

t.test('LIKE patterns become whole-string, case-insensitive regular expressions', async (t) => {
  const compile = (like: string) => {
    const regex = likeToRegex(like)
    t.ok(regex.startsWith('(?is)'), 'Java inline flags: case-insensitive, dot matches newlines')
    return new RegExp(`^(?:${regex.slice(5)})$`, 'is')
  }
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.other,PROD)'
  t.ok(compile('%contract.other%').test(other))
  t.notOk(compile('%contract.other%').test(DS))
  t.notOk(compile('%contract.other').test(other), 'whole string, as LIKE')
  t.ok(compile('urn:li:dataset:%').test(DS))
  t.ok(compile('URN:LI:DATASET:%').test(DS), 'ASCII case-insensitive, as SQLite LIKE')
  t.ok(compile('urn:li:corpuser:j_oe').test('urn:li:corpuser:jdoe'), '_ is one character')
  t.notOk(compile('urn:li:corpuser:j_oe').test('urn:li:corpuser:jddoe'))
  t.notOk(compile('a.b%').test('axb'), 'regex metacharacters are literal')
  t.ok(compile('(a)[b]{c}|^$+?*\\%').test('(a)[b]{c}|^$+?*\\tail'))
})
