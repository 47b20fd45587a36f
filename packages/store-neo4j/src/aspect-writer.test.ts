/**
 * The write logic without a server: a scripted transaction answers the lookups and records
 * every statement, so the tests check which statements a batch runs, with which parameters,
 * and in which order.
 */
import type { AuditStamp } from '@catalog/core'
import { type EdgeTarget, LatestChangedError, type Mutation, type WriteBatch } from '@catalog/store'
import { isInt } from 'neo4j-driver'
import t from 'tap'
import { AspectWriter } from './aspect-writer.js'
import * as admin from './cypher-admin.js'
import * as aspects from './cypher-aspects.js'
import * as graph from './cypher-graph.js'
import * as series from './cypher-timeseries.js'
import type { Params, QueryRunner, Row, Statement } from './statement.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)'
const JDOE = 'urn:li:corpuser:jdoe'
const created: AuditStamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

const names = new Map<string, string>()
for (const [name, value] of Object.entries({ ...aspects, ...admin, ...graph, ...series })) {
  if (typeof value === 'object' && value !== null && 'text' in value)
    names.set((value as Statement).text, name)
}

interface Stored {
  metadata: string
  systemMetadata: string
  maxVersion: number
}

/** Answers like a store holding `rows` (latest value and max version per urn+aspect). */
class ScriptedTx implements QueryRunner {
  readonly calls: Array<{ name: string; params: Record<string, unknown> }> = []
  seq = 10
  constructor(readonly rows = new Map<string, Stored>()) {}

  async run<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row[]> {
    const p = params as Record<string, unknown>
    const name = names.get(statement.text) ?? (statement.text.includes('MERGE (s)-[:`') ? 'mergeEdges' : '?')
    this.calls.push({ name, params: p })
    const key = `${p.urn}|${p.aspect}`
    switch (name) {
      case 'LOCK_CHANGE_LOG':
        return [{ seq: this.seq }]
      case 'LOG_CHANGE':
        this.seq++
        return [{ seq: this.seq }]
      case 'CURRENT_ASPECT': {
        const row = this.rows.get(key)
        return [
          row
            ? {
                current: { metadata: row.metadata, systemMetadata: row.systemMetadata },
                maxVersion: row.maxVersion,
              }
            : { current: null, maxVersion: null },
        ]
      }
      case 'EXISTS':
        return [{ present: this.rows.has(key) }]
      case 'LATEST_VALUES':
        return (p.keys as Array<{ urn: string; aspect: string }>).map((k) => ({
          urn: k.urn,
          aspect: k.aspect,
          metadata: this.rows.get(`${k.urn}|${k.aspect}`)?.metadata ?? null,
        }))
      case 'PROMOTE_PREVIOUS':
        return [{ row: { metadata: '{"tags":[]}', systemMetadata: '{"runId":"old"}' } }]
      case 'DELETE_ASPECT':
      case 'DELETE_ENTITY_ROWS':
        return [{ removed: [...this.rows.keys()].filter((k) => k.startsWith(`${p.urn}|`)).length }]
      default:
        return []
    }
  }

  async one<K extends string>(statement: Statement<K>, params: Params<K>): Promise<Row> {
    const [row] = await this.run(statement, params)
    if (!row) throw new Error('no row')
    return row
  }

  sequence(): string[] {
    return this.calls.map((c) => c.name)
  }
}

const upsert = (aspect: string, value: Record<string, unknown>, edges: EdgeTarget[] = []): Mutation => ({
  kind: 'upsert',
  urn: DS,
  entityType: 'dataset',
  aspect,
  value,
  created,
  edges,
})
const batch = (...mutations: Mutation[]): WriteBatch => ({ mutations, created })

async function apply(tx: ScriptedTx, b: WriteBatch) {
  return (await AspectWriter.begin(tx)).apply(b)
}

t.test('a new aspect: entity, version 0, its edges grouped by type, one change-log entry', async (t) => {
  const tx = new ScriptedTx()
  const outcome = await apply(
    tx,
    batch(
      upsert('ownership', { owners: [] }, [
        { type: 'OwnedBy', destination: JDOE },
        { type: 'OwnedBy', destination: 'urn:li:corpGroup:eng' },
        { type: 'TaggedWith', destination: 'urn:li:tag:pii' },
      ]),
    ),
  )
  t.same(outcome, { results: [{ urn: DS, aspect: 'ownership', changed: true }], seq: 11 })
  t.same(tx.sequence(), [
    'LOCK_CHANGE_LOG',
    'CURRENT_ASPECT',
    'WRITE_LATEST',
    'DELETE_EDGES_OF',
    'mergeEdges',
    'mergeEdges',
    'LOG_CHANGE',
  ])
  const write = tx.calls[2]?.params ?? {}
  t.equal(write.archiveAs, null, 'nothing to archive')
  t.equal(write.metadata, '{"owners":[]}')
  t.ok(isInt(write.createdOn), 'timestamps are Cypher integers')
  const edges = tx.calls.filter((c) => c.name === 'mergeEdges').map((c) => c.params.edges)
  t.same(edges, [
    [
      { destination: JDOE, destinationType: 'corpuser' },
      { destination: 'urn:li:corpGroup:eng', destinationType: 'corpGroup' },
    ],
    [{ destination: 'urn:li:tag:pii', destinationType: 'tag' }],
  ])
  t.match(tx.calls[6]?.params, { change: 'UPSERT', value: '{"owners":[]}', entityDeleted: false })
})

t.test('a changed value archives the latest row at max+1; an equal one only touches', async (t) => {
  const rows = new Map([
    [`${DS}|status`, { metadata: '{"removed":false}', systemMetadata: '{"runId":"old"}', maxVersion: 3 }],
  ])
  const changed = new ScriptedTx(rows)
  await apply(changed, batch(upsert('status', { removed: true })))
  t.equal(String(changed.calls.find((c) => c.name === 'WRITE_LATEST')?.params.archiveAs), '4')
  t.match(JSON.parse(String(changed.calls.find((c) => c.name === 'WRITE_LATEST')?.params.systemMetadata)), {
    lastRunId: 'old',
  })

  const same = new ScriptedTx(rows)
  const outcome = await apply(same, batch(upsert('status', { removed: false })))
  t.same(outcome, { results: [{ urn: DS, aspect: 'status', changed: false }], seq: 10 })
  t.same(same.sequence(), ['LOCK_CHANGE_LOG', 'CURRENT_ASPECT', 'TOUCH_SYSTEM_METADATA'])
})

t.test('defaults are written for a new entity only, never over the batch', async (t) => {
  const defaults = [
    {
      urn: DS,
      entityType: 'dataset',
      keyAspect: 'datasetKey',
      aspects: [
        { aspect: 'datasetKey', value: { name: 't' }, edges: [] },
        { aspect: 'browsePaths', value: { paths: ['/default'] }, edges: [] },
      ],
    },
  ]
  const fresh = new ScriptedTx()
  await apply(fresh, { mutations: [upsert('browsePaths', { paths: ['/mine'] })], defaults, created })
  const writes = fresh.calls
    .filter((c) => c.name === 'WRITE_LATEST')
    .map((c) => [c.params.aspect, c.params.metadata])
  t.same(writes, [
    ['datasetKey', '{"name":"t"}'],
    ['browsePaths', '{"paths":["/mine"]}'],
  ])
  const existing = new ScriptedTx(
    new Map([[`${DS}|datasetKey`, { metadata: '{"name":"t"}', systemMetadata: '{}', maxVersion: 0 }]]),
  )
  await apply(existing, { mutations: [upsert('status', { removed: false })], defaults, created })
  t.same(
    existing.calls.filter((c) => c.name === 'WRITE_LATEST').map((c) => c.params.aspect),
    ['status'],
  )
})

t.test('deletes: an aspect, the entity (key aspect), and nothing', async (t) => {
  const rows = new Map([[`${DS}|status`, { metadata: '{}', systemMetadata: '{}', maxVersion: 0 }]])
  const del = (aspect: string, isKeyAspect: boolean): Mutation => ({
    kind: 'delete',
    urn: DS,
    entityType: 'dataset',
    aspect,
    created,
    isKeyAspect,
  })
  const aspect = new ScriptedTx(rows)
  await apply(aspect, batch(del('status', false)))
  t.same(aspect.sequence(), [
    'LOCK_CHANGE_LOG',
    'DELETE_ASPECT',
    'DELETE_EDGES_OF',
    'DROP_EMPTY_ENTITY',
    'LOG_CHANGE',
  ])
  const entity = new ScriptedTx(rows)
  await apply(entity, batch(del('datasetKey', true)))
  t.same(entity.sequence(), [
    'LOCK_CHANGE_LOG',
    'DELETE_ENTITY_ROWS',
    'DELETE_OUTGOING_EDGES',
    'DELETE_INCOMING_EDGES',
    'DROP_EMPTY_ENTITY',
    'LOG_CHANGE',
  ])
  t.match(entity.calls[5]?.params, { change: 'DELETE', entityDeleted: true, value: null })
  const nothing = new ScriptedTx()
  const outcome = await apply(nothing, batch(del('status', false)))
  t.same(outcome.results, [{ urn: DS, aspect: 'status', changed: false, rows: 0 }])
  t.notOk(nothing.sequence().includes('LOG_CHANGE'), 'a delete of nothing is not logged')
})

t.test('rollback: promotes the previous version when the run wrote the latest, else nothing', async (t) => {
  const rows = new Map([
    [`${DS}|globalTags`, { metadata: '{"tags":[1]}', systemMetadata: '{"runId":"r1"}', maxVersion: 2 }],
  ])
  const rollback = (runId: string): Mutation => ({
    kind: 'rollback',
    urn: DS,
    entityType: 'dataset',
    aspect: 'globalTags',
    runId,
    created,
    isKeyAspect: false,
    edgesOf: () => [{ type: 'TaggedWith', destination: 'urn:li:tag:pii' }],
  })
  const other = new ScriptedTx(rows)
  const skipped = await apply(other, batch(rollback('r2')))
  t.same(skipped.results, [{ urn: DS, aspect: 'globalTags', changed: false, rows: 0 }])
  t.same(other.sequence(), ['LOCK_CHANGE_LOG', 'CURRENT_ASPECT'], 'another run wrote it: untouched')
  const tx = new ScriptedTx(rows)
  const done = await apply(tx, batch(rollback('r1')))
  t.same(done.results, [{ urn: DS, aspect: 'globalTags', changed: true, rows: 1 }])
  t.same(tx.sequence(), [
    'LOCK_CHANGE_LOG',
    'CURRENT_ASPECT',
    'PROMOTE_PREVIOUS',
    'DELETE_EDGES_OF',
    'mergeEdges',
    'LOG_CHANGE',
  ])
  t.equal(String(tx.calls[2]?.params.previous), '2')
  t.match(tx.calls[5]?.params, { change: 'UPSERT', value: '{"tags":[]}', systemMetadata: '{"runId":"old"}' })
})

t.test('time series are upserted by key and not logged', async (t) => {
  const tx = new ScriptedTx()
  await apply(
    tx,
    batch({
      kind: 'timeseries',
      row: {
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        timestampMillis: 5,
        value: { rowCount: 1 },
      },
    }),
  )
  t.same(tx.sequence(), ['LOCK_CHANGE_LOG', 'UPSERT_TIMESERIES'])
  t.match(tx.calls[1]?.params, {
    partition: '',
    messageId: '',
    value: '{"rowCount":1}',
    systemMetadata: null,
    fields: { numberPaths: ['rowCount'], numberValues: [1], textPaths: null, fieldPaths: ['rowCount'] },
  })
  const bytes = tx.calls[1]?.params.bytes
  t.ok(isInt(bytes), 'the row size is a Cypher integer')
  t.equal(String(bytes), String(DS.length + '{"rowCount":1}'.length + 8))
})

t.test('a value that cannot be stored fails the batch before anything is written for it', async (t) => {
  const tx = new ScriptedTx()
  const bad = upsert('x', { n: 10n })
  await t.rejects(apply(tx, batch(upsert('status', { removed: false }), bad)))
  t.equal(tx.calls.filter((c) => c.name === 'WRITE_LATEST').length, 1, 'only the first mutation ran')
  const badEdge = upsert('ownership', {}, [{ type: 'Owned By', destination: JDOE }])
  await t.rejects(apply(new ScriptedTx(), batch(badEdge)), { name: 'InvalidInputError' })
})

t.test('restate replaces edges and logs each value without touching rows', async (t) => {
  const tx = new ScriptedTx(
    new Map([[`${DS}|ownership`, { metadata: '{"a":2,"b":1}', systemMetadata: '{}', maxVersion: 0 }]]),
  )
  const { seq } = await (await AspectWriter.begin(tx)).restate(
    [
      {
        urn: DS,
        entityType: 'dataset',
        aspect: 'ownership',
        value: { b: 1, a: 2 },
        edges: [{ type: 'OwnedBy', destination: JDOE }],
      },
    ],
    created,
  )
  t.equal(seq, 11)
  t.same(tx.sequence(), ['LOCK_CHANGE_LOG', 'LATEST_VALUES', 'DELETE_EDGES_OF', 'mergeEdges', 'LOG_CHANGE'])
  t.same(tx.calls[1]?.params.keys, [{ urn: DS, aspect: 'ownership' }], 'one lookup for the whole batch')
  t.equal(tx.calls[4]?.params.value, '{"a":2,"b":1}', 'canonical JSON')
})

t.test('restate skips values changed or deleted since they were scanned', async (t) => {
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)'
  const tx = new ScriptedTx(
    new Map([
      [`${DS}|ownership`, { metadata: '{"owners":[2]}', systemMetadata: '{}', maxVersion: 1 }],
      [`${other}|ownership`, { metadata: '{"owners":[3]}', systemMetadata: '{}', maxVersion: 0 }],
    ]),
  )
  const item = (urn: string, aspect: string, value: Record<string, unknown>) => ({
    urn,
    entityType: 'dataset',
    aspect,
    value,
    edges: [{ type: 'OwnedBy', destination: JDOE }],
  })
  const { seq } = await (await AspectWriter.begin(tx)).restate(
    [
      item(DS, 'ownership', { owners: [1] }),
      item(DS, 'status', { removed: false }),
      item(other, 'ownership', { owners: [3] }),
    ],
    created,
  )
  t.equal(seq, 11, 'only the current value was logged')
  const logged = tx.calls.filter((c) => c.name === 'LOG_CHANGE').map((c) => [c.params.urn, c.params.value])
  t.same(logged, [[other, '{"owners":[3]}']])
  const edgesOf = tx.calls.filter((c) => c.name === 'DELETE_EDGES_OF').map((c) => c.params.urn)
  t.same(edgesOf, [other], 'the stale and the deleted value keep the edges their later writes made')

  const none = new ScriptedTx()
  t.same(await (await AspectWriter.begin(none)).restate([], created), { seq: 10 })
  t.same(none.sequence(), ['LOCK_CHANGE_LOG'], 'nothing to check for an empty batch')
})

t.test('a patch reads the latest value under the lock and writes it like an upsert', async (t) => {
  const rows = new Map([
    [
      `${DS}|globalTags`,
      { metadata: '{"tags":[{"tag":"urn:li:tag:a"}]}', systemMetadata: '{}', maxVersion: 0 },
    ],
  ])
  const tx = new ScriptedTx(rows)
  const seen: unknown[] = []
  const outcome = await apply(
    tx,
    batch({
      kind: 'patch',
      urn: DS,
      entityType: 'dataset',
      aspect: 'globalTags',
      created,
      apply: (current) => {
        seen.push(current)
        const tags = [...((current?.tags as Array<{ tag: string }>) ?? []), { tag: 'urn:li:tag:b' }]
        return { value: { tags }, edges: tags.map((x) => ({ type: 'TaggedWith', destination: x.tag })) }
      },
    }),
  )
  t.same(seen, [{ tags: [{ tag: 'urn:li:tag:a' }] }])
  t.same(outcome.results, [{ urn: DS, aspect: 'globalTags', changed: true }])
  t.same(tx.sequence().slice(0, 4), ['LOCK_CHANGE_LOG', 'CURRENT_ASPECT', 'CURRENT_ASPECT', 'WRITE_LATEST'])
  t.equal(
    tx.calls.find((c) => c.name === 'WRITE_LATEST')?.params.metadata,
    '{"tags":[{"tag":"urn:li:tag:a"},{"tag":"urn:li:tag:b"}]}',
  )
})

t.test('CREATE refuses an existing aspect with DataHub’s message, or drops it', async (t) => {
  const rows = new Map([
    [`${DS}|status`, { metadata: '{"removed":false}', systemMetadata: '{}', maxVersion: 0 }],
  ])
  const create = (drop: boolean): Mutation =>
    ({
      ...(upsert('status', { removed: true }) as object),
      precondition: { require: 'aspect-absent', drop },
    }) as Mutation
  await t.rejects(apply(new ScriptedTx(rows), batch(create(false))), {
    message: /Cannot perform CREATE since the aspect already exists/,
  })
  const tx = new ScriptedTx(rows)
  const outcome = await apply(tx, batch(create(true)))
  t.same(outcome.results, [{ urn: DS, aspect: 'status', changed: false }])
  t.notOk(tx.sequence().includes('WRITE_LATEST'), 'nothing written')
})

t.test(
  'latest-unchanged: written onto the value the patch was applied to, refused after a change',
  async (t) => {
    const stored = '{"tags":[{"tag":"urn:li:tag:a"}]}'
    const rows = () =>
      new Map([[`${DS}|globalTags`, { metadata: stored, systemMetadata: '{}', maxVersion: 0 }]])
    const guarded = (latest: string | null): Mutation =>
      ({
        ...(upsert('globalTags', { tags: [] }) as object),
        valueJson: '{"tags":[]}',
        precondition: {
          require: 'latest-unchanged',
          latestUtf8: latest === null ? null : Buffer.from(latest),
        },
      }) as Mutation

    const tx = new ScriptedTx(rows())
    const outcome = await apply(tx, batch(guarded(stored)))
    t.same(outcome.results, [{ urn: DS, aspect: 'globalTags', changed: true }])
    t.same(tx.sequence(), [
      'LOCK_CHANGE_LOG',
      'CURRENT_ASPECT',
      'WRITE_LATEST',
      'DELETE_EDGES_OF',
      'LOG_CHANGE',
    ])
    t.equal(tx.calls[2]?.params.metadata, '{"tags":[]}', 'the prepared text is stored as it is')

    for (const [what, latest, present] of [
      ['changed', '{"tags":[]}', true],
      ['deleted', stored, false],
      ['written since it was absent', null, true],
    ] as const) {
      const refused = new ScriptedTx(present ? rows() : new Map())
      await t.rejects(apply(refused, batch(guarded(latest))), LatestChangedError, what)
      t.same(refused.sequence(), ['LOCK_CHANGE_LOG', 'CURRENT_ASPECT'], `${what}: nothing written`)
    }
    const absent = new ScriptedTx()
    t.same(
      (await apply(absent, batch(guarded(null)))).results[0]?.changed,
      true,
      'absent and expected absent',
    )
  },
)
