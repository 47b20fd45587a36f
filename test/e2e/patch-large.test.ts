import { LARGE_ASPECT_CHARS } from '@catalog/core'
import type { MetadataStore, WriteBatch } from '@catalog/store'
import t from 'tap'
import { build, getJson, type Json, postJson } from '../helpers/build.js'
import { gql } from '../helpers/mutation-kit.js'
import { schemaMetadata, taggedField } from '../helpers/wide-schema.js'

/**
 * PATCH proposals of large aspects are applied off the event loop (the latest value read as
 * text, the patch applied on the large-aspect worker, the result written only onto the value it
 * was applied to) with the same results and the same errors as a patch applied in the store's
 * write transaction; a write that got in between makes the patch apply again, and after a few
 * tries it is applied in the transaction after all.
 */

const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,patch_large.${name},PROD)`
const enc = encodeURIComponent
const N = 600

const field = taggedField
const fields = (n: number) =>
  Array.from({ length: n }, (_, i) => field(`col_${i}`, `column ${i} ${'d'.repeat(500)}`))
/** A schemaMetadata past the large-aspect threshold. */
const wide = (name = 'wide') => schemaMetadata(fields(N), name)

const propose = (app: Json, target: string, changeType: string, aspectName: string, value: unknown) =>
  postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: target,
      changeType,
      aspectName,
      aspect: {
        value: typeof value === 'string' ? value : JSON.stringify(value),
        contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
      },
    },
  })

const latest = async (app: Json, target: string, aspect: string) => {
  const res = await getJson(app, `/aspects/${enc(target)}?aspect=${aspect}&version=0`)
  return res.status === 200 ? Object.values(res.body.aspect as Record<string, unknown>)[0] : undefined
}

/** How the store was asked to write `aspect`: `guarded` (off the loop), `patch` (in the transaction), `upsert`. */
function watchWrites(store: MetadataStore, aspect: string): string[] {
  const seen: string[] = []
  const write = store.write.bind(store)
  store.write = (batch: WriteBatch) => {
    for (const m of batch.mutations) {
      if (m.kind === 'timeseries' || m.aspect !== aspect) continue
      seen.push(m.kind === 'upsert' && m.precondition?.require === 'latest-unchanged' ? 'guarded' : m.kind)
    }
    return write(batch)
  }
  return seen
}

/** Runs `fn` with every patch applied in the write transaction (the store's latest-as-bytes read hidden). */
async function inTransaction<T>(store: MetadataStore, fn: () => Promise<T>): Promise<T> {
  const own = store as { latestAspectUtf8?: MetadataStore['latestAspectUtf8'] }
  own.latestAspectUtf8 = undefined
  try {
    return await fn()
  } finally {
    delete own.latestAspectUtf8
  }
}

const addField = (name: string) => ({
  patch: [{ op: 'add', path: `/fields/${name}`, value: field(name, `the ${name} column`) }],
  arrayPrimaryKeys: { fields: ['fieldPath'] },
})

t.test('a PATCH of a large aspect', async (t) => {
  const { app, store } = await build(t)
  const seen = watchWrites(store, 'schemaMetadata')
  t.ok(JSON.stringify(wide()).length > LARGE_ASPECT_CHARS, 'the aspect is past the large-aspect threshold')

  t.test('is applied off the loop, with the result of the in-transaction path', async (t) => {
    for (const name of ['off', 'in'])
      t.equal((await propose(app, urn(name), 'UPSERT', 'schemaMetadata', wide())).status, 200)
    seen.length = 0
    t.equal((await propose(app, urn('off'), 'PATCH', 'schemaMetadata', addField('zebra'))).status, 200)
    t.same(seen, ['guarded'], 'written as an upsert onto the value it was applied to')
    const res = await inTransaction(store, () =>
      propose(app, urn('in'), 'PATCH', 'schemaMetadata', addField('zebra')),
    )
    t.equal(res.status, 200)
    t.same(seen, ['guarded', 'patch'])
    const off = (await latest(app, urn('off'), 'schemaMetadata')) as Json
    t.equal(off.fields.length, N + 1)
    t.equal(off.fields[N].fieldPath, 'zebra')
    t.same(off, await latest(app, urn('in'), 'schemaMetadata'), 'the same value')
    t.same(await latest(app, urn('off'), 'schemaMetadata'), await latest(app, urn('in'), 'schemaMetadata'))
    const v1 = await getJson(app, `/aspects/${enc(urn('off'))}?aspect=schemaMetadata&version=1`)
    t.equal(
      Object.values(v1.body.aspect as Record<string, Json>)[0].fields.length,
      N,
      'the value before is version 1',
    )
    const edges = async (name: string) =>
      (
        await store.relationships({
          urn: urn(name),
          direction: 'OUTGOING',
          types: [],
          start: 0,
          count: 10_000,
        })
      ).total
    t.equal(await edges('off'), await edges('in'), 'the same edges')
    seen.length = 0
    t.equal((await propose(app, urn('off'), 'PATCH', 'schemaMetadata', addField('zebra'))).status, 200)
    t.equal(
      (await getJson(app, `/aspects/${enc(urn('off'))}?aspect=schemaMetadata&version=2`)).status,
      404,
      'an idempotent patch adds no version',
    )
  })

  t.test('a patch of a small aspect keeps the in-transaction path', async (t) => {
    seen.length = 0
    const small = schemaMetadata([field('a', 'one')], 'small')
    t.equal((await propose(app, urn('small'), 'UPSERT', 'schemaMetadata', small)).status, 200)
    t.equal((await propose(app, urn('small'), 'PATCH', 'schemaMetadata', addField('b'))).status, 200)
    t.same(seen, ['upsert', 'patch'])
  })

  t.test('refusals are the in-transaction path’s, and change nothing', async (t) => {
    t.equal((await propose(app, urn('bad'), 'UPSERT', 'schemaMetadata', wide())).status, 200)
    const before = await store.head()
    const stored = await latest(app, urn('bad'), 'schemaMetadata')
    const cases: Array<[string, unknown]> = [
      ['breaks the schema', [{ op: 'add', path: '/fields/3/nativeDataType', value: 5 }]],
      ['a failing operation', [{ op: 'move', from: '/nosuch', path: '/schemaName' }]],
      ['a failing test', [{ op: 'test', path: '/schemaName', value: 'other' }]],
      ['not JSON', '[{"op": "add",'],
      ['not a patch', { patch: 5 }],
    ]
    for (const [what, patch] of cases) {
      seen.length = 0
      const off = await propose(app, urn('bad'), 'PATCH', 'schemaMetadata', patch)
      t.same(seen, [], `${what}: nothing is written`)
      const inTx = await inTransaction(store, () =>
        propose(app, urn('bad'), 'PATCH', 'schemaMetadata', patch),
      )
      t.ok(off.status >= 400 && off.status < 500, `${what}: ${off.status} ${off.body.message}`)
      t.same([off.status, off.body], [inTx.status, inTx.body], `${what}: the same status and body`)
    }
    t.equal(await store.head(), before, 'nothing was logged')
    t.same(await latest(app, urn('bad'), 'schemaMetadata'), stored, 'the value is unchanged')
  })

  t.test('a large patch of a missing aspect starts from its default, as in the transaction', async (t) => {
    const whole = wide('fresh')
    const ops = Object.entries(whole).map(([k, v]) => ({ op: 'add', path: `/${k}`, value: v }))
    t.ok(JSON.stringify(ops).length > LARGE_ASPECT_CHARS)
    seen.length = 0
    t.equal((await propose(app, urn('fresh-off'), 'PATCH', 'schemaMetadata', ops)).status, 200)
    t.same(seen, ['guarded'])
    t.equal(
      (await inTransaction(store, () => propose(app, urn('fresh-in'), 'PATCH', 'schemaMetadata', ops)))
        .status,
      200,
    )
    t.same(
      await latest(app, urn('fresh-off'), 'schemaMetadata'),
      await latest(app, urn('fresh-in'), 'schemaMetadata'),
    )
    const aspects = async (name: string) =>
      Object.keys((await getJson(app, `/entitiesV2/${enc(urn(name))}`)).body.aspects).sort()
    t.same(await aspects('fresh-off'), await aspects('fresh-in'), 'the new entity gets its default aspects')
    t.ok((await aspects('fresh-off')).includes('datasetKey'))
  })
})

t.test('a write between the read and the write', async (t) => {
  const { app, store } = await build(t)
  const seen = watchWrites(store, 'schemaMetadata')
  const read = store.latestAspectUtf8?.bind(store)
  if (!read) throw new Error('the SQLite store reads latest values as bytes')
  /** After each of the first `times` reads, another client changes the schema's name. */
  const interfere = (times: number) => {
    let n = 0
    store.latestAspectUtf8 = async (keys) => {
      const out = await read(keys)
      if (n < times) {
        n++
        const res = await propose(app, urn('raced'), 'UPSERT', 'schemaMetadata', wide(`meanwhile_${n}`))
        if (res.status !== 200) throw new Error(`the interfering write failed: ${res.status}`)
      }
      return out
    }
  }
  t.teardown(() => {
    delete (store as { latestAspectUtf8?: unknown }).latestAspectUtf8
  })

  t.test('makes the patch apply again to a fresh read', async (t) => {
    t.equal((await propose(app, urn('raced'), 'UPSERT', 'schemaMetadata', wide())).status, 200)
    interfere(1)
    seen.length = 0
    t.equal((await propose(app, urn('raced'), 'PATCH', 'schemaMetadata', addField('late'))).status, 200)
    t.same(seen, ['upsert', 'guarded', 'guarded'], 'refused once, written on the second try')
    const value = (await latest(app, urn('raced'), 'schemaMetadata')) as Json
    t.equal(value.schemaName, 'meanwhile_1', 'the other write is kept')
    t.equal(value.fields[N].fieldPath, 'late', 'and the patch applied on top of it')
  })

  t.test('keeps losing: applied in the transaction after a few tries', async (t) => {
    interfere(3)
    seen.length = 0
    t.equal((await propose(app, urn('raced'), 'PATCH', 'schemaMetadata', addField('last'))).status, 200)
    t.same(seen, ['upsert', 'guarded', 'upsert', 'guarded', 'upsert', 'guarded', 'patch'])
    const value = (await latest(app, urn('raced'), 'schemaMetadata')) as Json
    t.equal(value.schemaName, 'meanwhile_3')
    t.same(
      value.fields.slice(N).map((f: Json) => f.fieldPath),
      ['last'],
      'the patch applied once, onto the last other write (which dropped the earlier patch’s field)',
    )
  })
})

t.test('concurrent patches of one large aspect take turns, and none is lost', async (t) => {
  const { app, store } = await build(t)
  const target = urn('turns')
  t.equal((await propose(app, target, 'UPSERT', 'schemaMetadata', wide())).status, 200)
  const seen = watchWrites(store, 'schemaMetadata')
  const names = ['p1', 'p2', 'p3']
  const results = await Promise.all(
    names.map((n) => propose(app, target, 'PATCH', 'schemaMetadata', addField(n))),
  )
  t.same(
    results.map((r) => r.status),
    [200, 200, 200],
  )
  t.same(seen, ['guarded', 'guarded', 'guarded'], 'each applied once onto the one before: no retry')
  const value = (await latest(app, target, 'schemaMetadata')) as Json
  t.same(
    value.fields
      .slice(N)
      .map((f: Json) => f.fieldPath)
      .sort(),
    names,
  )
})

t.test('in a batch', async (t) => {
  const { app, store } = await build(t)
  const seen = watchWrites(store, 'schemaMetadata')
  const target = urn('batch')
  t.equal((await propose(app, target, 'UPSERT', 'schemaMetadata', wide())).status, 200)
  const one = (changeType: string, aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn: target,
    changeType,
    aspectName,
    aspect: {
      value: JSON.stringify(value),
      contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
    },
  })
  const batch = (...proposals: unknown[]) =>
    postJson(app, '/aspects?action=ingestProposalBatch', { proposals })
  const names = async () =>
    ((await latest(app, target, 'schemaMetadata')) as Json).fields.slice(N).map((f: Json) => f.fieldPath)

  seen.length = 0
  const twice = await batch(
    one('PATCH', 'schemaMetadata', addField('one')),
    one('PATCH', 'schemaMetadata', addField('two')),
  )
  t.equal(twice.status, 200)
  t.same(seen, ['patch', 'patch'], 'two patches of one aspect: in the transaction, the second onto the first')
  t.same(await names(), ['one', 'two'])

  seen.length = 0
  const mixed = await batch(
    one('UPSERT', 'status', { removed: true }),
    one('PATCH', 'schemaMetadata', addField('three')),
  )
  t.equal(mixed.status, 200)
  t.same(seen, ['guarded'], 'with writes of other aspects: off the loop')
  t.same(await names(), ['one', 'two', 'three'])
  t.same(await latest(app, target, 'status'), { removed: true }, 'in the same batch')

  // A refused patch result and a later malformed proposal: the later one's error, as in the
  // transaction (where the patch is refused only at commit), and nothing of the batch is written.
  const before = await store.head()
  const bad = [
    one('UPSERT', 'status', { removed: false }),
    one('PATCH', 'schemaMetadata', [{ op: 'add', path: '/fields/0/nativeDataType', value: 5 }]),
    one('UPSERT', 'noSuchAspect', {}),
  ]
  const off = await batch(...bad)
  const inTx = await inTransaction(store, () => batch(...bad))
  t.equal(off.status, 422, off.body.message)
  t.same([off.status, off.body], [inTx.status, inTx.body], 'the same status and body')
  const patchOnly = bad.slice(0, 2)
  const offPatch = await batch(...patchOnly)
  const inTxPatch = await inTransaction(store, () => batch(...patchOnly))
  t.match(offPatch.body.message, /nativeDataType/)
  t.same([offPatch.status, offPatch.body], [inTxPatch.status, inTxPatch.body])
  t.equal(await store.head(), before, 'nothing was written')
  t.same(await latest(app, target, 'status'), { removed: true })
})

t.test('GraphQL mutations that patch a large aspect take the same path', async (t) => {
  const { app, store } = await build(t)
  const target = urn('graphql')
  const infos = Array.from({ length: N }, (_, i) => ({
    fieldPath: `col_${i}`,
    description: `edited ${'e'.repeat(500)}`,
  }))
  const editable = { created: { time: 0, actor: 'urn:li:corpuser:datahub' }, editableSchemaFieldInfo: infos }
  t.equal(
    (await propose(app, target, 'UPSERT', 'schemaMetadata', schemaMetadata(fields(20), 'graphql'))).status,
    200,
  )
  t.equal((await propose(app, target, 'UPSERT', 'editableSchemaMetadata', editable)).status, 200)
  t.ok(JSON.stringify(editable).length > LARGE_ASPECT_CHARS)
  const seen = watchWrites(store, 'editableSchemaMetadata')
  const res = await gql(
    app,
    `mutation { updateDescription(input: {description: "the fifth", resourceUrn: "${target}", subResourceType: DATASET_FIELD, subResource: "col_5"}) }`,
  )
  t.same(res, { data: { updateDescription: true } })
  t.same(seen, ['guarded'], 'applied off the loop')
  const value = (await latest(app, target, 'editableSchemaMetadata')) as Json
  t.equal(value.editableSchemaFieldInfo.length, N)
  t.equal(value.editableSchemaFieldInfo.find((f: Json) => f.fieldPath === 'col_5').description, 'the fifth')
})
