import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createServer, toRestliError } from '@catalog/http-kit'
import { createMetadataServices, type EntityResponse } from '@catalog/metadata-service'
import t, { type Test } from 'tap'
import {
  BatchEntityResponseSchema,
  EntityResponseSchema,
} from '../../apps/metadata-service/src/routes/entities-v2.js'
import { build, ingestRecord, type Json, postJson } from '../helpers/build.js'
import { GOLDEN_DIR } from '../helpers/examples.js'

/**
 * `/entitiesV2` writes its answers as JSON text, splicing in the stored values unparsed. These
 * answers must be byte for byte what the response schema's serializer makes of the parsed
 * entity (the path they replace): DataHub's golden files, awkward strings and keys, system
 * metadata, aspect filters, soft-deleted and missing entities, and the batch form.
 */

const enc = encodeURIComponent
const TRICKY = 'urn:li:dataset:(urn:li:dataPlatform:hive,bytes.tricky,PROD)'
const DELETED = 'urn:li:dataset:(urn:li:dataPlatform:hive,bytes.deleted,PROD)'
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:hive,bytes.missing,PROD)'

const proposal = (urn: string, aspectName: string, value: unknown, systemMetadata?: unknown) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    ...(systemMetadata ? { systemMetadata } : {}),
  },
})

/** The serializer the routes used before: the response schema over the parsed answer. */
async function referenceSerializer(t: Test) {
  const ref = createServer({ admission: false })
  let payload: unknown
  ref.get('/one', { schema: { response: { 200: EntityResponseSchema } } }, async () => payload as never)
  ref.get(
    '/batch',
    { schema: { response: { 200: BatchEntityResponseSchema } } },
    async () => payload as never,
  )
  await ref.ready()
  t.teardown(() => ref.close())
  return async (path: '/one' | '/batch', value: unknown) => {
    payload = value
    return (await ref.inject({ method: 'GET', url: path })).body
  }
}

t.test('entitiesV2 answers are byte for byte the schema serializer’s', async (t) => {
  const { app, registry, store } = await build(t)
  const reads = createMetadataServices(registry, store).reads
  const serialize = await referenceSerializer(t)
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url })
    t.equal(res.statusCode, 200, url)
    t.match(res.headers['content-type'], /^application\/json; charset=utf-8$/, 'JSON content type')
    return res.body
  }

  const urns = new Set<string>()
  for (const file of readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json'))) {
    const parsed = JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as Json
    for (const record of Array.isArray(parsed) ? parsed : [parsed]) {
      const { call, res } = await ingestRecord(app, record)
      if (res.statusCode === 200 && call.urn) urns.add(call.urn)
    }
  }
  t.ok(urns.size > 100, `${urns.size} entities from the golden files`)

  const tricky = {
    name: 'quote " backslash \\ tab \t newline \n nul \u0000 lone \ud800 emoji 😀 é \u2028',
    description: '</script> & <b>',
    customProperties: { b: '1', '10': 'ten', '9': 'nine', a: '', 'k\ney': 'newline key', __proto__x: 'p' },
    tags: ['x', 'y'],
  }
  const sm = { runId: 'run-1', lastObserved: 1700000000123, properties: { z: '1', '2': 'two' } }
  for (const body of [
    proposal(TRICKY, 'datasetProperties', tricky, sm),
    proposal(TRICKY, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] }),
    proposal(TRICKY, 'upstreamLineage', {
      upstreams: [
        { dataset: DELETED, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } },
      ],
    }),
    proposal(DELETED, 'datasetProperties', { description: 'gone' }),
    proposal(DELETED, 'status', { removed: true }),
  ]) {
    t.equal((await postJson(app, '/aspects?action=ingestProposal', body)).status, 200)
  }
  urns.add(TRICKY).add(DELETED)

  let compared = 0
  let synthesized = 0
  const differing: string[] = []
  for (const urn of urns) {
    const got = await get(`/entitiesV2/${enc(urn)}`)
    const expected = (await reads.batchEntityV2([urn])).get(urn) as EntityResponse
    const keyName = registry.resolveUrn(urn).entity.keyAspect
    if (!(await store.latest([urn], [keyName])).get(urn)?.length) {
      // No key row (the entity was deleted): the key aspect is synthesized, stamped when read.
      synthesized++
      const key = expected.aspects[keyName] as { created: { time: number } }
      key.created.time = JSON.parse(got).aspects[keyName].created.time
    }
    const want = await serialize('/one', expected)
    compared++
    if (got === want) continue
    let at = 0
    while (got[at] === want[at]) at++
    const around = (s: string) => s.slice(Math.max(0, at - 120), at + 120)
    differing.push(`${urn} at ${at}\n  got  ${around(got)}\n  want ${around(want)}`)
  }
  t.same(differing, [], `${compared} entity answers identical (${synthesized} with a synthesized key)`)
  t.match(await get(`/entitiesV2/${enc(TRICKY)}`), '"systemMetadata":{', 'system metadata is answered')

  // Filters, in both list forms, and a filter naming an aspect the entity lacks.
  for (const [query, aspects] of [
    ['?aspects=List(globalTags,datasetProperties)', ['globalTags', 'datasetProperties']],
    ['?aspects=globalTags&aspects=ownership', ['globalTags', 'ownership']],
  ] as const) {
    const got = await get(`/entitiesV2/${enc(TRICKY)}${query}`)
    t.equal(got, await serialize('/one', (await reads.batchEntityV2([TRICKY], aspects)).get(TRICKY)), query)
  }
  const filtered = JSON.parse(await get(`/entitiesV2/${enc(TRICKY)}?aspects=List(globalTags)`))
  t.same(Object.keys(filtered.aspects), ['datasetKey', 'globalTags'], 'the key aspect and the named one')

  // A missing entity: only its synthesized key aspect, stamped now.
  const missing = JSON.parse(await get(`/entitiesV2/${enc(MISSING)}`)) as EntityResponse
  const expected = (await reads.batchEntityV2([MISSING])).get(MISSING) as EntityResponse
  const key = expected.aspects.datasetKey as { created: { time: number } }
  key.created.time = (missing.aspects.datasetKey as { created: { time: number } }).created.time
  t.equal(JSON.stringify(missing), await serialize('/one', expected), 'missing entity')
  t.same(Object.keys(missing.aspects), ['datasetKey'])

  // Batch: valid, duplicate, malformed and unknown-type URNs, with a filter.
  const ids = [TRICKY, DELETED, TRICKY, 'urn:li:dataset:bad', 'urn:li:nosuchtype:x']
  const got = await get(`/entitiesV2?ids=List(${ids.map(enc).join(',')})&aspects=List(datasetProperties)`)
  const valid = [TRICKY, DELETED]
  const errors: Record<string, unknown> = {}
  for (const bad of ids.slice(3)) {
    try {
      reads.resolve(bad)
    } catch (err) {
      errors[bad] = toRestliError(err)
    }
  }
  const results = Object.fromEntries(await reads.batchEntityV2(valid, ['datasetProperties']))
  t.equal(got, await serialize('/batch', { results, statuses: {}, errors }), 'batch answer')
  t.same(Object.keys(JSON.parse(got).errors), ids.slice(3), 'each bad URN answered in errors')
})
