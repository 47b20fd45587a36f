import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadModel, type ModelTypeExpr, Registry } from '@catalog/core'
import { gateway } from '@catalog/gateway'
import { type CatalogServer, createServer } from '@catalog/http-kit'
import { createMetadataServices, hasSchemaFieldText, metadataService } from '@catalog/metadata-service'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t, { type Test } from 'tap'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, snapshot } from '../helpers/mutation-kit.js'
import { schemaMetadata } from '../helpers/wide-schema.js'

/**
 * A DATASET_FIELD sub-resource must be a field of the dataset's `schemaMetadata` (DataHub's
 * `validateSubresourceExists`). The metadata service answers it from the stored JSON text without
 * parsing it, so these cases put the same characters where a naive text search finds them: inside
 * descriptions, as keys of an attribution's `sourceDetail` map, as the end of another key, as a
 * prefix or suffix of a real field path. Both clients are tried: in process, and over HTTP to a
 * metadata service of its own (split mode's `/internal/schema-field`).
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,field_validate,PROD)'
const BARE = 'urn:li:dataset:(urn:li:dataPlatform:hive,field_validate_bare,PROD)'
const TAG = 'urn:li:tag:Checked'
const STAMP = { time: 1, actor: 'urn:li:corpuser:datahub' }

/** Field paths of the schema, each one a real field. */
const REAL = [
  'col_a',
  'prefix_long',
  'we"ird\\path/é',
  '[version=2.0].[type=struct].address.名前',
  'trailing\\',
  'sneaky',
]

/** Paths that are not fields, though their text is in the stored schema. */
const GHOSTS = [
  'ghost', // in a description, as `"fieldPath":"ghost"`
  'ghost2', // in a description, as an object in an array
  'phantom', // a key of a sourceDetail map: an object, but a member value, not an array element
  'spectre', // the value of the sourceDetail key `a"fieldPath`
  'prefix', // a prefix of prefix_long
  'long', // a suffix of prefix_long
  'col', // a prefix of col_a
  'path/é', // the end of we"ird\path/é
  'trailing', // trailing\ without its backslash
  'sneak', // in the tag context `"fieldPath":"sneak"}]`
]

const field = (fieldPath: string, extra: Record<string, unknown> = {}) => ({
  fieldPath,
  nativeDataType: 'string',
  type: { type: { 'com.linkedin.schema.StringType': {} } },
  ...extra,
})

const schema = schemaMetadata(
  [
    field('col_a', { description: 'copied from {"fieldPath":"ghost"} and [{"fieldPath":"ghost2"}]' }),
    field('prefix_long'),
    field('we"ird\\path/é', { description: '\\"fieldPath\\":\\"ghost\\"' }),
    field('[version=2.0].[type=struct].address.名前'),
    field('trailing\\'),
    field('sneaky', {
      globalTags: {
        tags: [
          {
            tag: TAG,
            context: '[{"fieldPath":"sneak"}]',
            attribution: { ...STAMP, sourceDetail: { fieldPath: 'phantom', 'a"fieldPath': 'spectre' } },
          },
        ],
      },
    }),
  ],
  'field_validate',
)

const DESCRIBE = `mutation($urn: String!, $f: String!) { updateDescription(input: {description: "checked", resourceUrn: $urn, subResource: $f, subResourceType: DATASET_FIELD}) }`
const ADD_TAG = `mutation($urn: String!, $f: String!) { addTag(input: {tagUrn: "${TAG}", resourceUrn: $urn, subResource: $f, subResourceType: DATASET_FIELD}) }`
const FIELDS = `query($urn: String!) { dataset(urn: $urn) { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description globalTags { tags { tag { urn } } } } } } }`

async function seed(app: CatalogServer): Promise<void> {
  await ingestAspect(app, 'tag', TAG, 'tagProperties', { name: 'Checked' })
  await ingestAspect(app, 'dataset', DS, 'schemaMetadata', schema)
  await ingestAspect(app, 'dataset', BARE, 'datasetProperties', { name: 'bare' })
}

async function checkFields(t: Test, app: CatalogServer): Promise<void> {
  for (const f of GHOSTS) {
    const before = await snapshot(app, DS)
    for (const [name, query] of [
      ['updateDescription', DESCRIBE],
      ['addTag', ADD_TAG],
    ] as const) {
      t.same(
        badRequest(await gql(app, query, { urn: DS, f }), name),
        {
          message: `Failed to update ${DS} & field ${f}. Field ${f} does not exist.`,
          code: 400,
          type: 'BAD_REQUEST',
        },
        `${name} of ${JSON.stringify(f)}: no such field`,
      )
    }
    t.equal(await snapshot(app, DS), before, `${JSON.stringify(f)}: nothing written`)
  }
  const bare = await snapshot(app, BARE)
  t.same(
    badRequest(await gql(app, DESCRIBE, { urn: BARE, f: 'col_a' }), 'updateDescription'),
    {
      message: `Failed to update ${BARE} & field col_a. ${BARE} has no schema.`,
      code: 400,
      type: 'BAD_REQUEST',
    },
    'a dataset without a schema',
  )
  t.equal(await snapshot(app, BARE), bare, 'nothing written to it')
  for (const f of REAL) {
    t.same(await gql(app, DESCRIBE, { urn: DS, f }), { data: { updateDescription: true } }, `describe ${f}`)
    t.same(await gql(app, ADD_TAG, { urn: DS, f }), { data: { addTag: true } }, `tag ${f}`)
  }
  const info = (await gql(app, FIELDS, { urn: DS })).data.dataset.editableSchemaMetadata
    .editableSchemaFieldInfo
  t.same(
    info,
    REAL.map((fieldPath) => ({
      fieldPath,
      description: 'checked',
      globalTags: { tags: [{ tag: { urn: TAG } }] },
    })),
    'every real field was edited, and only those',
  )
}

t.test('in process: only real fields of the schema are edited', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await checkFields(t, app)
})

t.test('over HTTP (split mode): only real fields of the schema are edited', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-field-validate-'))
  const registry = new Registry()
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  const metadata = createServer()
  await metadata.register(metadataService, { services: createMetadataServices(registry, store) })
  const address = await metadata.listen({ port: 0, host: '127.0.0.1' })
  const app = createServer()
  await app.register(gateway, {
    backends: { kind: 'remote', targets: { metadata: address, search: 'http://127.0.0.1:9' } },
  })
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await metadata.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await seed(app)
  await checkFields(t, app)
  const internal = await app.inject({
    method: 'POST',
    url: '/internal/schema-field',
    payload: { urn: DS, fieldPath: 'col_a' },
  })
  t.equal(internal.statusCode, 404, 'the internal route is not served by the public gateway')
  const direct = await metadata.inject({
    method: 'POST',
    url: '/internal/schema-field',
    payload: { urn: DS, fieldPath: 'col_a' },
  })
  t.same(JSON.parse(direct.body), { hasSchema: true, hasField: true }, 'its answer is two booleans')
  const bad = await metadata.inject({ method: 'POST', url: '/internal/schema-field', payload: { urn: DS } })
  t.equal(bad.statusCode, 400, 'a query without a field path is refused')
  t.equal(JSON.parse(bad.body).status, 400, "with DataHub's error body")
})

/** What the text check relies on, from the model: see `hasSchemaFieldText`. */
t.test(
  'below schemaMetadata, only entries of /fields are array elements that may have a fieldPath member',
  (t) => {
    const { file } = loadModel()
    const found = new Set<string>()
    const walk = (expr: ModelTypeExpr, path: string, inArray: boolean, seen: readonly string[]): void => {
      if (typeof expr === 'string') {
        const decl = file.types[expr]
        if (!decl || seen.includes(expr)) return
        if (decl.kind === 'typeref') walk(decl.ref, path, inArray, [...seen, expr])
        if (decl.kind !== 'record') return
        if (inArray && decl.fields.some((f) => f.name === 'fieldPath')) found.add(`${path} (${expr})`)
        for (const f of decl.fields) walk(f.type, `${path}/${f.name}`, false, [...seen, expr])
        return
      }
      if ('array' in expr) {
        walk(expr.array, `${path}/*`, true, seen)
        return
      }
      // A map is an object with any keys: as an array element it could hold a `fieldPath` key.
      if ('map' in expr) {
        if (inArray) found.add(`${path} (map)`)
        walk(expr.map, `${path}/{}`, false, seen)
        return
      }
      for (const member of expr.union) {
        if (inArray && member.key === 'fieldPath') found.add(`${path} (union)`)
        walk(member.type, `${path}/${member.key}`, false, seen)
      }
    }
    walk(file.aspects.schemaMetadata?.record ?? '', '', false, [])
    t.same([...found], ['/fields/* (com.linkedin.schema.SchemaField)'])
    t.end()
  },
)

t.test('the text check agrees with a parse of the schema', (t) => {
  const bytes = (value: unknown) => Buffer.from(JSON.stringify(value))
  t.ok(hasSchemaFieldText(bytes({ fields: [{ fieldPath: 'x' }] }), 'x'), 'a field')
  t.notOk(hasSchemaFieldText(bytes({ fields: [{ 'a"fieldPath': 'x' }] }), 'x'), 'a key ending in fieldPath')
  t.notOk(hasSchemaFieldText(bytes({ fields: [{ '\\"fieldPath': 'x' }] }), 'x'), 'after an escaped backslash')
  t.notOk(
    hasSchemaFieldText(bytes({ m: { fieldPath: 'x' } }), 'x'),
    'a member of an object that is no array element',
  )
  t.notOk(hasSchemaFieldText(bytes({ fields: [{ d: '{"fieldPath":"x"}' }] }), 'x'), 'inside a string')
  t.ok(
    hasSchemaFieldText(bytes({ fields: [{ d: '"}]', fieldPath: 'x' }] }), 'x'),
    'after a string of brackets',
  )
  t.ok(hasSchemaFieldText(bytes({ fields: [{ n: [{}, [1]], fieldPath: 'x' }] }), 'x'), 'after nested values')
  const view = Buffer.from(`xx${JSON.stringify({ fields: [{ fieldPath: 'x' }] })}yy`).subarray(2, -2)
  t.ok(
    hasSchemaFieldText(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), 'x'),
    'a view into larger memory',
  )

  // Random schemas of awkward paths: the answer is the parse's, for every path and every piece of one.
  let seed = 7
  /** mulberry32: a small seeded generator, so a failure repeats. */
  const random = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return (((x ^ (x >>> 14)) >>> 0) % 4_294_967_296) % n
  }
  const ALPHABET = ['a', 'b', '"', '\\', '/', ':', ',', '{', '}', '[', ']', 'é', '名', '\n', '\u2028', ' ']
  const word = () => Array.from({ length: 1 + random(3) }, () => ALPHABET[random(ALPHABET.length)]).join('')
  // A few words per schema, so the same text is a field in one place and a decoy in another.
  let checked = 0
  const wrong: string[] = []
  for (let round = 0; round < 500; round++) {
    const pool = Array.from({ length: 6 }, word)
    const pick = () => pool[random(pool.length)] as string
    const paths = [...new Set(Array.from({ length: 1 + random(3) }, pick))]
    const fields = paths.map((fieldPath) => {
      const members: Array<[string, unknown]> = [
        ['description', `${pick()}"fieldPath":${JSON.stringify(pick())}`],
        ['fieldPath', fieldPath],
        ['nested', [{ a: pick() }, [pick(), { b: '}]' }]]],
        [
          'globalTags',
          {
            tags: [
              {
                tag: 'urn:li:tag:t',
                attribution: { sourceDetail: { fieldPath: pick(), [`${pick()}fieldPath`]: pick() } },
              },
            ],
          },
        ],
      ]
      // Members in any order: a stored value's keys are sorted, but the check must not depend on it.
      for (let i = members.length - 1; i > 0; i--) {
        const j = random(i + 1)
        ;[members[i], members[j]] = [members[j] as [string, unknown], members[i] as [string, unknown]]
      }
      return Object.fromEntries(members)
    })
    const text = bytes({ fields, foreignKeysSpecs: { fieldPath: { foreignKey: {} } } })
    for (const p of [...pool, ...paths.map((p) => p.slice(1)), ...paths.map((p) => p.slice(0, -1))]) {
      if (hasSchemaFieldText(text, p) !== paths.includes(p)) wrong.push(`${JSON.stringify(p)} in ${text}`)
      checked++
    }
  }
  t.same(wrong.slice(0, 3), [], `${checked} random paths: the text check answers as a parse does`)
  t.comment(`${checked} random paths checked`)
  t.end()
})
