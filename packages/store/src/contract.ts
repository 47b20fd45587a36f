/**
 * The metadata store contract: every adapter runs this suite (`runStoreContract`) and must
 * pass it unchanged. It pins DataHub's versioning, default aspects, edges, deletes,
 * time series, the change log and batch atomicity.
 */
import { type AuditStamp, ValidationError } from '@catalog/core'
import type { Test } from 'tap'
import { runAdminContract } from './contract-admin.js'
import { runGraphContract } from './contract-graph.js'
import { runLatestUnchangedContract } from './contract-latest-unchanged.js'
import { runTimeseriesContract } from './contract-timeseries.js'
import type { EdgeTarget, MetadataStore, Mutation, WriteBatch } from './port.js'

export interface StoreFactory {
  /** A fresh, empty store. */
  open(): Promise<MetadataStore>
  /** Reopens the store last returned by `open` after it was closed (persistence), when supported. */
  reopen?(): Promise<MetadataStore>
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.table,PROD)'
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.other,PROD)'
const JDOE = 'urn:li:corpuser:jdoe'
const stamp = (time = 1_700_000_000_000, actor = 'urn:li:corpuser:datahub'): AuditStamp => ({ time, actor })

function upsert(
  urn: string,
  aspect: string,
  value: Record<string, unknown>,
  edges: EdgeTarget[] = [],
): Mutation {
  return { kind: 'upsert', urn, entityType: 'dataset', aspect, value, created: stamp(), edges }
}
function batch(...mutations: Mutation[]): WriteBatch {
  return { mutations, created: stamp() }
}

export function runStoreContract(t: Test, name: string, factory: StoreFactory): void {
  t.test(`${name}: store contract`, async (t) => {
    let store: MetadataStore
    t.beforeEach(async () => {
      store = await factory.open()
    })
    t.afterEach(async () => {
      await store.close()
    })

    t.test(
      'version 0 is the latest, changed values move to max+1, equal writes make no version',
      async (t) => {
        const first = await store.write(batch(upsert(DS, 'datasetProperties', { description: 'one' })))
        t.same(first.results, [{ urn: DS, aspect: 'datasetProperties', changed: true }])
        const same = await store.write(batch(upsert(DS, 'datasetProperties', { description: 'one' })))
        t.equal(same.results[0]?.changed, false, 'an identical write is a no-op')
        t.equal(same.seq, first.seq, 'a no-op adds nothing to the change log')
        await store.write(batch(upsert(DS, 'datasetProperties', { description: 'two' })))
        await store.write(batch(upsert(DS, 'datasetProperties', { description: 'three' })))
        t.same((await store.version(DS, 'datasetProperties', 0))?.value, { description: 'three' })
        t.same(
          (await store.version(DS, 'datasetProperties', 1))?.value,
          { description: 'one' },
          'version 1 is the oldest',
        )
        t.same((await store.version(DS, 'datasetProperties', 2))?.value, { description: 'two' })
        t.equal(await store.version(DS, 'datasetProperties', 3), undefined)
        t.same(
          (await store.version(DS, 'datasetProperties', -1))?.value,
          { description: 'two' },
          '-1 is the newest previous value',
        )
        t.equal(await store.version(DS, 'datasetProperties', -3), undefined)
      },
    )

    t.test('key order does not make a value different', async (t) => {
      await store.write(
        batch(upsert(DS, 'ownership', { owners: [], lastModified: { time: 1, actor: JDOE } })),
      )
      const again = await store.write(
        batch(upsert(DS, 'ownership', { lastModified: { actor: JDOE, time: 1 }, owners: [] })),
      )
      t.equal(again.results[0]?.changed, false)
    })

    t.test('rows carry the created stamp and system metadata with defaults', async (t) => {
      await store.write({
        mutations: [
          {
            ...(upsert(DS, 'status', { removed: false }) as object),
            systemMetadata: { runId: 'run-1', lastObserved: 5 },
          } as Mutation,
        ],
        created: stamp(),
      })
      const row = await store.version(DS, 'status', 0)
      t.same(row?.created, stamp())
      t.equal(row?.systemMetadata?.runId, 'run-1')
      t.equal(row?.systemMetadata?.lastObserved, 5)
      await store.write(batch(upsert(DS2, 'status', { removed: false })))
      const defaulted = await store.version(DS2, 'status', 0)
      t.equal(defaulted?.systemMetadata?.runId, 'no-run-id-provided')
      t.equal(defaulted?.systemMetadata?.lastObserved, stamp().time)
    })

    t.test('default aspects are written only for a new entity, never over the batch', async (t) => {
      const defaults = [
        {
          urn: DS,
          entityType: 'dataset',
          keyAspect: 'datasetKey',
          aspects: [
            {
              aspect: 'datasetKey',
              value: { platform: 'urn:li:dataPlatform:hive', name: 'contract.table', origin: 'PROD' },
              edges: [],
            },
            { aspect: 'browsePaths', value: { paths: ['/prod/hive/contract'] }, edges: [] },
          ],
        },
      ]
      await store.write({
        mutations: [upsert(DS, 'browsePaths', { paths: ['/mine'] })],
        defaults,
        created: stamp(),
      })
      t.ok(await store.exists(DS, 'datasetKey'))
      t.same(
        (await store.version(DS, 'browsePaths', 0))?.value,
        { paths: ['/mine'] },
        'the batch wins over a default',
      )
      await store.write(batch(upsert(DS, 'browsePaths', { paths: ['/later'] })))
      await store.write({ mutations: [upsert(DS, 'status', { removed: false })], defaults, created: stamp() })
      t.same(
        (await store.version(DS, 'browsePaths', 0))?.value,
        { paths: ['/later'] },
        'defaults skip an existing entity',
      )
    })

    t.test('edges follow the aspect: replaced on write, removed on delete', async (t) => {
      await store.write(
        batch(upsert(DS, 'ownership', { owners: [] }, [{ type: 'OwnedBy', destination: JDOE }])),
      )
      await store.write(
        batch(upsert(DS2, 'ownership', { owners: [1] }, [{ type: 'OwnedBy', destination: JDOE }])),
      )
      await store.write(
        batch(upsert(DS2, 'upstreamLineage', { u: 1 }, [{ type: 'DownstreamOf', destination: DS }])),
      )
      let incoming = await store.relationships({
        urn: JDOE,
        direction: 'INCOMING',
        types: ['OwnedBy'],
        start: 0,
        count: 10,
      })
      t.equal(incoming.total, 2)
      t.same(
        incoming.relationships,
        [
          { type: 'OwnedBy', entity: DS2 },
          { type: 'OwnedBy', entity: DS },
        ].sort((a, b) => a.entity.localeCompare(b.entity)),
      )
      const page = await store.relationships({
        urn: JDOE,
        direction: 'INCOMING',
        types: ['OwnedBy'],
        start: 1,
        count: 1,
      })
      t.equal(page.total, 2)
      t.equal(page.relationships.length, 1)
      const out = await store.relationships({
        urn: DS2,
        direction: 'OUTGOING',
        types: [],
        start: 0,
        count: 10,
      })
      t.same(out.relationships.map((r) => r.type).sort(), ['DownstreamOf', 'OwnedBy'])
      const down = await store.relationships({
        urn: DS,
        direction: 'INCOMING',
        types: ['DownstreamOf'],
        start: 0,
        count: 10,
      })
      t.same(down.relationships, [{ type: 'DownstreamOf', entity: DS2 }])

      await store.write(batch(upsert(DS, 'ownership', { owners: [2] }, [])))
      incoming = await store.relationships({
        urn: JDOE,
        direction: 'INCOMING',
        types: ['OwnedBy'],
        start: 0,
        count: 10,
      })
      t.same(incoming.relationships, [{ type: 'OwnedBy', entity: DS2 }], 'a new value replaces the old edges')

      const del = await store.write(
        batch({
          kind: 'delete',
          urn: DS2,
          entityType: 'dataset',
          aspect: 'upstreamLineage',
          created: stamp(),
          isKeyAspect: false,
        }),
      )
      t.equal(del.results[0]?.changed, true)
      t.equal(await store.version(DS2, 'upstreamLineage', 0), undefined)
      const gone = await store.relationships({
        urn: DS,
        direction: 'INCOMING',
        types: ['DownstreamOf'],
        start: 0,
        count: 10,
      })
      t.equal(gone.total, 0, 'deleting the aspect removes its edges')
      const noop = await store.write(
        batch({
          kind: 'delete',
          urn: DS2,
          entityType: 'dataset',
          aspect: 'upstreamLineage',
          created: stamp(),
          isKeyAspect: false,
        }),
      )
      t.equal(noop.results[0]?.changed, false)
    })

    t.test('deleting the key aspect deletes the entity, its edges and time series', async (t) => {
      await store.write(
        batch(
          upsert(DS, 'datasetKey', { name: 'x' }),
          upsert(DS, 'ownership', { o: 1 }, [{ type: 'OwnedBy', destination: JDOE }]),
        ),
      )
      await store.write(
        batch({
          kind: 'timeseries',
          row: {
            urn: DS,
            entityType: 'dataset',
            aspect: 'datasetProfile',
            timestampMillis: 1,
            value: { timestampMillis: 1 },
          },
        }),
      )
      const before = await store.head()
      await store.write(
        batch({
          kind: 'delete',
          urn: DS,
          entityType: 'dataset',
          aspect: 'datasetKey',
          created: stamp(),
          isKeyAspect: true,
        }),
      )
      t.notOk(await store.exists(DS, 'datasetKey'))
      t.same((await store.latest([DS])).get(DS), [])
      t.equal(
        (await store.relationships({ urn: JDOE, direction: 'INCOMING', types: [], start: 0, count: 10 }))
          .total,
        0,
      )
      t.same(
        await store.timeseries({ urn: DS, entityType: 'dataset', aspect: 'datasetProfile', limit: 10 }),
        [],
      )
      const [entry] = await store.changes(before, 10)
      t.equal(entry?.change, 'DELETE')
      t.equal(entry?.entityDeleted, true)
    })

    t.test('the change log is ordered and carries values', async (t) => {
      const start = await store.head()
      await store.write(
        batch(upsert(DS, 'status', { removed: false }), upsert(DS2, 'status', { removed: true })),
      )
      const entries = await store.changes(start, 10)
      t.same(
        entries.map((e) => [e.urn, e.aspect, e.change, e.value]),
        [
          [DS, 'status', 'UPSERT', { removed: false }],
          [DS2, 'status', 'UPSERT', { removed: true }],
        ],
      )
      t.ok((entries[0]?.seq ?? 0) < (entries[1]?.seq ?? 0))
      t.equal(await store.head(), entries[1]?.seq)
      t.same(await store.changes(await store.head(), 10), [])
      t.equal((await store.changes(start, 1)).length, 1, 'limit is honoured')
    })

    t.test('a patch computes its value from the latest one, in the write transaction', async (t) => {
      const seen: Array<Record<string, unknown> | undefined> = []
      const addTag = (tag: string): Mutation => ({
        kind: 'patch',
        urn: DS,
        entityType: 'dataset',
        aspect: 'globalTags',
        created: stamp(),
        apply: (current) => {
          seen.push(current)
          const tags = [...((current?.tags as Array<{ tag: string }>) ?? []), { tag }]
          return { value: { tags }, edges: tags.map((t) => ({ type: 'TaggedWith', destination: t.tag })) }
        },
      })
      const first = await store.write(batch(addTag('urn:li:tag:a')))
      t.same(first.results, [{ urn: DS, aspect: 'globalTags', changed: true }])
      t.equal(seen[0], undefined, 'an absent aspect is patched from nothing')
      await store.write(batch(addTag('urn:li:tag:b'), addTag('urn:li:tag:c')))
      t.same(
        (await store.version(DS, 'globalTags', 0))?.value,
        { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }, { tag: 'urn:li:tag:c' }] },
        'a later patch of the same batch sees the earlier one',
      )
      t.same((await store.version(DS, 'globalTags', 1))?.value, { tags: [{ tag: 'urn:li:tag:a' }] })
      const out = await store.relationships({
        urn: DS,
        direction: 'OUTGOING',
        types: ['TaggedWith'],
        start: 0,
        count: 10,
      })
      t.equal(out.total, 3, 'edges follow the patched value')

      const refused: Mutation = {
        kind: 'patch',
        urn: DS,
        entityType: 'dataset',
        aspect: 'globalTags',
        created: stamp(),
        apply: () => {
          throw new ValidationError('patch refused')
        },
      }
      await t.rejects(
        store.write(batch(upsert(DS, 'status', { removed: true }), refused)),
        ValidationError,
        'a refused patch fails its batch',
      )
      t.equal(await store.version(DS, 'status', 0), undefined, 'and nothing of the batch is stored')
    })

    t.test('CREATE and CREATE_ENTITY preconditions refuse or drop what exists', async (t) => {
      // As ingest sends them: each batch names the entity's key aspect in its defaults.
      const keyed = (urn: string, name: string, ...mutations: Mutation[]): WriteBatch => ({
        mutations,
        defaults: [
          {
            urn,
            entityType: 'dataset',
            keyAspect: 'datasetKey',
            aspects: [
              {
                aspect: 'datasetKey',
                value: { platform: 'urn:li:dataPlatform:hive', name, origin: 'PROD' },
                edges: [],
              },
            ],
          },
        ],
        created: stamp(),
      })
      const create = (urn: string, aspect: string, value: Record<string, unknown>, precondition: object) =>
        ({ ...(upsert(urn, aspect, value) as object), precondition }) as Mutation
      await store.write(
        keyed(DS, 'contract.table', create(DS, 'status', { removed: false }, { require: 'aspect-absent' })),
      )
      await t.rejects(
        store.write(
          keyed(DS, 'contract.table', create(DS, 'status', { removed: true }, { require: 'aspect-absent' })),
        ),
        { message: /Cannot perform CREATE since the aspect already exists/ },
      )
      const dropped = await store.write(
        keyed(
          DS,
          'contract.table',
          create(DS, 'status', { removed: true }, { require: 'aspect-absent', drop: true }),
        ),
      )
      t.equal(dropped.results[0]?.changed, false, 'If-None-Match: * drops it')
      t.same((await store.version(DS, 'status', 0))?.value, { removed: false })
      await t.rejects(
        store.write(
          keyed(DS, 'contract.table', create(DS, 'ownership', { owners: [] }, { require: 'entity-absent' })),
        ),
        { message: /Cannot perform CREATE_ENTITY if not exists since the entity key already exists/ },
      )
      t.equal(await store.version(DS, 'ownership', 0), undefined, 'nothing written')
      await store.write(
        keyed(DS2, 'contract.other', create(DS2, 'ownership', { owners: [] }, { require: 'entity-absent' })),
      )
      t.same((await store.version(DS2, 'ownership', 0))?.value, { owners: [] }, 'a new entity is created')
      t.ok(await store.exists(DS2, 'datasetKey'))
    })

    t.test('a batch is all or nothing; concurrent batches do not affect each other', async (t) => {
      const bad = {
        kind: 'upsert',
        urn: DS2,
        entityType: 'dataset',
        aspect: 'x',
        value: { n: 10n },
        created: stamp(),
        edges: [],
      } as unknown as Mutation
      const results = await Promise.allSettled([
        store.write(batch(upsert(DS, 'status', { removed: false }))),
        store.write(batch(upsert(DS2, 'status', { removed: false }), bad)),
        store.write(batch(upsert(DS2, 'ownership', { owners: [] }))),
      ])
      t.same(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      )
      t.ok(await store.version(DS, 'status', 0))
      t.equal(await store.version(DS2, 'status', 0), undefined, 'the failed batch left nothing')
      t.ok(await store.version(DS2, 'ownership', 0))
    })

    t.test('time series: newest first, inclusive range, limit, same timestamp replaces', async (t) => {
      const row = (ts: number, rows: number) => ({
        kind: 'timeseries' as const,
        row: {
          urn: DS,
          entityType: 'dataset',
          aspect: 'datasetProfile',
          timestampMillis: ts,
          value: { timestampMillis: ts, rowCount: rows },
        },
      })
      await store.write(batch(row(100, 1), row(300, 3), row(200, 2)))
      await store.write(batch(row(200, 22)))
      const all = await store.timeseries({
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        limit: 10,
      })
      t.same(
        all.map((r) => [r.timestampMillis, r.value.rowCount]),
        [
          [300, 3],
          [200, 22],
          [100, 1],
        ],
      )
      const range = await store.timeseries({
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: 100,
        endTimeMillis: 200,
        limit: 10,
      })
      t.same(
        range.map((r) => r.timestampMillis),
        [200, 100],
      )
      const one = await store.timeseries({
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        limit: 1,
      })
      t.same(
        one.map((r) => r.timestampMillis),
        [300],
      )
      t.same(await store.latest([DS]), new Map([[DS, []]]), 'time series are not versioned aspects')
    })

    t.test('latest filters aspects; scan selects rows for re-indexing', async (t) => {
      await store.write(
        batch(
          upsert(DS, 'status', { removed: false }),
          upsert(DS, 'ownership', { owners: [] }),
          upsert(DS2, 'status', { removed: true }),
        ),
      )
      const only = (await store.latest([DS], ['status'])).get(DS) ?? []
      t.same(
        only.map((r) => r.aspect),
        ['status'],
      )
      t.same(((await store.latest([DS])).get(DS) ?? []).map((r) => r.aspect).sort(), ['ownership', 'status'])
      t.equal((await store.scan({ start: 0, limit: 100 })).length, 3)
      t.same(
        (await store.scan({ urn: DS2, start: 0, limit: 100 })).map((r) => r.aspect),
        ['status'],
      )
      t.same(
        (await store.scan({ aspect: 'status', start: 0, limit: 100 })).map((r) => r.urn),
        [DS2, DS].sort(),
      )
      t.equal((await store.scan({ urnLike: '%contract.other%', start: 0, limit: 100 })).length, 1)
      t.equal((await store.scan({ start: 1, limit: 1 })).length, 1)
    })

    t.test('restate re-announces values and re-derives edges without new versions', async (t) => {
      await store.write(batch(upsert(DS, 'ownership', { owners: [1] }, [])))
      const before = await store.head()
      const { seq } = await store.restate(
        [
          {
            urn: DS,
            entityType: 'dataset',
            aspect: 'ownership',
            value: { owners: [1] },
            edges: [{ type: 'OwnedBy', destination: JDOE }],
          },
        ],
        stamp(),
      )
      t.ok(seq > before)
      const [entry] = await store.changes(before, 10)
      t.same(
        [entry?.urn, entry?.aspect, entry?.change, entry?.value],
        [DS, 'ownership', 'UPSERT', { owners: [1] }],
      )
      t.equal(
        (
          await store.relationships({
            urn: JDOE,
            direction: 'INCOMING',
            types: ['OwnedBy'],
            start: 0,
            count: 10,
          })
        ).total,
        1,
      )
      t.equal(await store.version(DS, 'ownership', 1), undefined, 'no new version')
    })

    runTimeseriesContract(t, () => store, factory)
    runAdminContract(t, () => store, factory)
    runLatestUnchangedContract(t, () => store)

    if (factory.reopen) {
      const reopen = factory.reopen
      t.test('writes survive a close and reopen', async (t) => {
        await store.write(batch(upsert(DS, 'status', { removed: true }, [{ type: 'X', destination: JDOE }])))
        await store.close()
        store = await reopen()
        t.same((await store.version(DS, 'status', 0))?.value, { removed: true })
        t.equal(
          (await store.relationships({ urn: JDOE, direction: 'INCOMING', types: [], start: 0, count: 1 }))
            .total,
          1,
        )
        t.ok((await store.head()) > 0)
      })
    }
  })
  runGraphContract(t, name, factory)
}
