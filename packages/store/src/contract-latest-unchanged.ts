import { canonicalJson } from '@catalog/core'
import type { Test } from 'tap'
import { created, upsert } from './contract-kit.js'
import { LatestChangedError } from './latest-changed-error.js'
import type { MetadataStore, Mutation, WriteBatch } from './port.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.patched,PROD)'
const TAG = 'urn:li:tag:contract'

/** `upsert` guarded by "the latest value is still `latestUtf8`" (null: still absent). */
const guarded = (value: Record<string, unknown>, latestUtf8: Uint8Array | null) =>
  ({
    ...(upsert(DS, 'datasetProperties', value) as object),
    precondition: { require: 'latest-unchanged', latestUtf8 },
  }) as Mutation

const text = (bytes: Uint8Array | null | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined)

const batch = (...mutations: Mutation[]): WriteBatch => ({ mutations, created })

/** Large enough for a store's large-write path (the SQLite writer thread takes 256,000 characters and up). */
const LARGE = 'x'.repeat(300_000)

/**
 * The `latest-unchanged` precondition (a patch applied outside the write transaction) and the
 * latest-as-text read it starts from: a write whose base is still the latest value is written;
 * one whose base changed in between is refused with {@link LatestChangedError} and writes nothing.
 */
export function runLatestUnchangedContract(t: Test, store: () => MetadataStore): void {
  /** A case with the suite's fresh store and its latest-as-bytes read; skipped by a store without one. */
  const test = (
    name: string,
    fn: (
      t: Test,
      s: MetadataStore,
      read: (urn: string, aspect: string) => Promise<Uint8Array | undefined>,
    ) => Promise<void>,
  ) =>
    t.test(`latest-unchanged: ${name}`, async (t) => {
      const s = store()
      const many = s.latestAspectUtf8?.bind(s)
      if (!many) {
        t.comment('this store has no latestAspectUtf8: every patch is applied in its write transaction')
        return
      }
      await fn(t, s, async (urn, aspect) => (await many([{ urn, aspect }]))[0])
    })

  test('the latest value reads as the stored text’s bytes; absent is undefined', async (t, s, read) => {
    t.equal(await read(DS, 'datasetProperties'), undefined)
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'one', description: 'é ☕' })))
    const bytes = await read(DS, 'datasetProperties')
    t.ok(bytes instanceof Uint8Array)
    const json = canonicalJson({ name: 'one', description: 'é ☕' })
    t.equal(text(bytes), json, 'the canonical JSON the store keeps, as UTF-8')
    t.equal(bytes?.byteLength, Buffer.byteLength(json))
    t.equal(await read(DS, 'status'), undefined, 'another aspect of the entity is absent')
    const keys = [
      { urn: DS, aspect: 'status' },
      { urn: DS, aspect: 'datasetProperties' },
      { urn: 'urn:li:corpuser:nobody', aspect: 'status' },
    ]
    const several = (await s.latestAspectUtf8?.(keys)) ?? []
    t.same(several.map(text), [undefined, json, undefined], 'several at once, in order')
    t.same(await s.latestAspectUtf8?.([]), [])
  })

  test('unchanged: the write is made', async (t, s, read) => {
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'base' })))
    const base = (await read(DS, 'datasetProperties')) ?? null
    const before = await s.head()
    const out = await s.write(
      batch({
        ...guarded({ name: 'patched' }, base),
        edges: [{ type: 'TaggedWith', destination: TAG }],
      } as Mutation),
    )
    t.same(out.results, [{ urn: DS, aspect: 'datasetProperties', changed: true }])
    t.same((await s.version(DS, 'datasetProperties', 0))?.value, { name: 'patched' })
    t.same((await s.version(DS, 'datasetProperties', -1))?.value, { name: 'base' }, 'the base is versioned')
    t.same(
      (await s.changes(before, 10)).map((c) => [c.aspect, c.value]),
      [['datasetProperties', { name: 'patched' }]],
    )
    const edges = await s.relationships({ urn: TAG, direction: 'INCOMING', types: [], start: 0, count: 10 })
    t.equal(edges.total, 1, 'with its edges')
  })

  test('absent and expected absent: the write is made', async (t, s, read) => {
    const out = await s.write(batch({ ...(guarded({}, null) as object), aspect: 'status' } as Mutation))
    t.equal(out.results[0]?.changed, true)
    t.equal(text(await read(DS, 'status')), '{}')
  })

  test('changed between the read and the write: refused, nothing of the batch written', async (t, s, read) => {
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'read' })))
    const base = (await read(DS, 'datasetProperties')) ?? null
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'meanwhile' })))
    const before = await s.head()
    await t.rejects(
      s.write(batch(upsert(DS, 'globalTags', { tags: [] }), guarded({ name: 'lost' }, base))),
      LatestChangedError,
    )
    t.same((await s.version(DS, 'datasetProperties', 0))?.value, { name: 'meanwhile' }, 'the latest stays')
    t.equal(await s.version(DS, 'globalTags', 0), undefined, 'the rest of the batch is not written')
    t.equal(await s.head(), before, 'nothing is logged')
  })

  test('an earlier write of the same batch counts as a change', async (t, s, read) => {
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'base' })))
    const base = (await read(DS, 'datasetProperties')) ?? null
    await t.rejects(
      s.write(batch(upsert(DS, 'datasetProperties', { name: 'first' }), guarded({ name: 'second' }, base))),
      LatestChangedError,
    )
    const equal = await s.write(
      batch(
        upsert(DS, 'datasetProperties', JSON.parse(text(base) ?? '{}')),
        guarded({ name: 'second' }, base),
      ),
    )
    t.same(
      equal.results.map((r) => r.changed),
      [false, true],
      'a write of the same text is no change: the patch is written',
    )
  })

  test('expected absent but present, or expected but deleted: refused', async (t, s, read) => {
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'base' })))
    await t.rejects(s.write(batch(guarded({ name: 'x' }, null))), LatestChangedError)
    const base = (await read(DS, 'datasetProperties')) ?? null
    await s.write(
      batch({
        kind: 'delete',
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProperties',
        created,
        isKeyAspect: false,
      }),
    )
    await t.rejects(s.write(batch(guarded({ name: 'x' }, base))), LatestChangedError)
    t.equal(await read(DS, 'datasetProperties'), undefined, 'still absent')
  })

  test('large values (a store’s large-write path) are checked the same', async (t, s, read) => {
    await s.write(batch(upsert(DS, 'datasetProperties', { name: 'large', description: LARGE })))
    const base = (await read(DS, 'datasetProperties')) ?? null
    t.ok((base?.byteLength ?? 0) > 300_000)
    const next = { name: 'large', description: `${LARGE}y` }
    const out = await s.write(batch(guarded(next, base)))
    t.equal(out.results[0]?.changed, true, 'unchanged: written')
    t.same((await s.version(DS, 'datasetProperties', 0))?.value, next)
    const before = await s.head()
    await t.rejects(s.write(batch(guarded({ name: 'lost', description: LARGE }, base))), LatestChangedError)
    t.same((await s.version(DS, 'datasetProperties', 0))?.value, next, 'changed: refused')
    t.equal(await s.head(), before)
  })
}
