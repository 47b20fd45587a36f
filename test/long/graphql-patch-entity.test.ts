import t from 'tap'
import { adminWrite, aspectOf, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, getJson, type Json } from '../helpers/build.js'
import { gql, ingestAspect, snapshot } from '../helpers/mutation-kit.js'

/**
 * DataHub's generic GraphQL patch (`patchEntity`, `patchEntities`), which its newer web UI and
 * SDKs call: JSON Patch operations (values as JSON text) on one aspect, applied inside the
 * store's write; failures answered as `success: false` with the message.
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,patched,PROD)'
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,patched-too,PROD)'
const enc = encodeURIComponent

const PATCH = 'mutation($input: PatchEntityInput!) { patchEntity(input: $input) { urn name success error } }'
const PATCHES =
  'mutation($input: [PatchEntityInput!]!) { patchEntities(input: $input) { urn name success error } }'

async function properties(app: Parameters<typeof gql>[0], urn: string): Promise<Json | undefined> {
  const res = await getJson(app, `/aspects/${enc(urn)}?aspect=datasetProperties&version=0`)
  return res.status === 200 ? res.body.aspect['com.linkedin.dataset.DatasetProperties'] : undefined
}

t.test('patchEntity: operations with JSON values, the name answered, system metadata kept', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', {
    name: 'before',
    customProperties: { a: '1' },
  })
  const answer = await gql(app, PATCH, {
    input: {
      urn: DS,
      aspectName: 'datasetProperties',
      patch: [
        { op: 'ADD', path: '/name', value: 'orders' },
        { op: 'ADD', path: '/description', value: '""' },
        { op: 'ADD', path: '/customProperties/b', value: '"2"' },
        { op: 'REMOVE', path: '/customProperties/a' },
      ],
      systemMetadata: { runId: 'ui-edit-1', properties: [{ key: 'origin', value: 'ui' }] },
    },
  })
  t.same(answer.data.patchEntity, { urn: DS, name: 'orders', success: true, error: null })
  t.match(await properties(app, DS), { name: 'orders', description: '', customProperties: { b: '2' } })
  t.notOk('a' in (await properties(app, DS)).customProperties, 'removed')
  const rows = await getJson(app, `/entitiesV2/${enc(DS)}?aspects=List(datasetProperties)`)
  t.match(rows.body.aspects.datasetProperties.systemMetadata, {
    runId: 'ui-edit-1',
    properties: { origin: 'ui' },
  })

  // DataHub's generic patch: array elements addressed by their key fields.
  const tags = await gql(app, PATCH, {
    input: {
      urn: DS,
      aspectName: 'globalTags',
      patch: [{ op: 'ADD', path: '/tags/urn:li:tag:pii', value: '{"tag": "urn:li:tag:pii"}' }],
      arrayPrimaryKeys: [{ arrayField: 'tags', keys: ['tag'] }],
    },
  })
  t.same(tags.data.patchEntity, { urn: DS, name: null, success: true, error: null })
  const read = await gql(app, `{ dataset(urn: "${DS}") { globalTags { tags { tag { urn } } } } }`)
  t.same(read.data.dataset.globalTags.tags, [{ tag: { urn: 'urn:li:tag:pii' } }])
})

t.test('failures are answered, nothing is written', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'kept' })
  const before = await snapshot(app, DS)
  const cases: Array<[Json, RegExp]> = [
    [
      { urn: DS, aspectName: 'nope', patch: [] },
      /^Failed to create MCP for input 0: Aspect nope not found for entity type dataset$/,
    ],
    [{ aspectName: 'datasetProperties', patch: [] }, /URN must be provided for patch operations/],
    [
      { urn: DS, aspectName: 'datasetKey', patch: [{ op: 'ADD', path: '/name', value: '"other"' }] },
      /^Failed to create MCP for input 0: Aspect datasetKey is the key aspect of dataset: it cannot be patched$/,
    ],
    [{ urn: 'not-a-urn', aspectName: 'datasetProperties', patch: [] }, /^Failed to create MCP for input 0: /],
    [
      { urn: DS, aspectName: 'datasetProperties', patch: [{ op: 'TEST', path: '/name', value: '"other"' }] },
      /^Failed to apply patch: /,
    ],
    [
      { urn: DS, aspectName: 'datasetProperties', patch: [{ op: 'ADD', path: '/name', value: '42' }] },
      /^Failed to apply patch: /,
    ],
  ]
  for (const [input, error] of cases) {
    const answer = await gql(app, PATCH, { input })
    t.notOk(answer.errors, 'answered, not thrown')
    t.match(answer.data.patchEntity, { success: false, name: null, error }, JSON.stringify(input))
  }
  t.equal(await snapshot(app, DS), before, 'nothing written')
})

t.test('patchEntities: all applied in one write, or none', async (t) => {
  const { app } = await build(t)
  const ok = await gql(app, PATCHES, {
    input: [
      { urn: DS, aspectName: 'datasetProperties', patch: [{ op: 'ADD', path: '/name', value: 'one' }] },
      { urn: OTHER, aspectName: 'datasetProperties', patch: [{ op: 'ADD', path: '/name', value: 'two' }] },
    ],
  })
  t.same(ok.data.patchEntities, [
    { urn: DS, name: 'one', success: true, error: null },
    { urn: OTHER, name: 'two', success: true, error: null },
  ])
  const refused = await gql(app, PATCHES, {
    input: [
      { urn: DS, aspectName: 'datasetProperties', patch: [{ op: 'ADD', path: '/name', value: 'changed' }] },
      { urn: OTHER, aspectName: 'datasetProperties', patch: [{ op: 'TEST', path: '/name', value: '"one"' }] },
    ],
  })
  t.equal(refused.data.patchEntities.length, 2)
  for (const r of refused.data.patchEntities)
    t.match(r, { success: false, error: /^Failed to apply batch patch: / })
  t.equal((await properties(app, DS)).name, 'one', 'the first patch was not applied either')
})

t.test('patches need EDIT_ENTITY on each entity', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'guarded' })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const input = {
    urn: DS,
    aspectName: 'datasetProperties',
    patch: [{ op: 'ADD', path: '/name', value: 'mine' }],
  }
  const one = await gqlAs(built.app, reader, PATCH, { input })
  t.equal(one.body.errors?.[0]?.extensions?.code, 403, 'patchEntity refused')
  const many = await gqlAs(built.app, reader, PATCHES, { input: [input] })
  t.equal(many.body.errors?.[0]?.extensions?.code, 403, 'patchEntities refused')
  t.match(await aspectOf(built, DS, 'datasetProperties'), { name: 'guarded' }, 'unchanged')
  const admin = await gqlAs(built.app, built.adminToken as string, PATCH, { input })
  t.match(admin.body.data.patchEntity, { success: true }, 'the admin may')
})
