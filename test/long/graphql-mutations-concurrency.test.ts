import type { CatalogServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { build, ingestExamples } from '../helpers/build.js'
import { gql, ingestAspect, restAspects } from '../helpers/mutation-kit.js'
import { buildSplit } from '../helpers/split-build.js'

/**
 * Editing mutations racing on one entity: each is a PATCH applied inside the store's write
 * transaction, so no edit is lost, in one process and with the gateway in front of a separate
 * metadata service.
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const FIELD = '[version=2.0].[type=boolean].field_bar'
const range = (n: number) => [...Array(n).keys()]
const tag = (i: number) => `urn:li:tag:race-${i}`
const user = (i: number) => `urn:li:corpuser:racer-${i}`

async function ingestRaceData(app: CatalogServer, tags: number, users: number): Promise<void> {
  await ingestExamples(app, 'tagsAndTerms')
  for (const i of range(tags)) await ingestAspect(app, 'tag', tag(i), 'tagProperties', { name: `race-${i}` })
  for (const i of range(users)) {
    await ingestAspect(app, 'corpuser', user(i), 'corpUserKey', { username: `racer-${i}` })
  }
}

/** Runs all calls at once; every one must answer `true`. */
async function race(t: Test, app: CatalogServer, field: string, calls: readonly string[]): Promise<void> {
  const bodies = await Promise.all(calls.map((q) => gql(app, q)))
  const failed = bodies.filter((b) => b.data?.[field] !== true)
  t.same(failed, [], `${calls.length} concurrent ${field}: every call answers true`)
}

const tagsOf = async (app: CatalogServer) =>
  ((await restAspects(app, DS)).globalTags?.value.tags ?? []).map((x: { tag: string }) => x.tag).sort()

async function fiftyTags(t: Test, app: CatalogServer): Promise<void> {
  const started = performance.now()
  await race(
    t,
    app,
    'addTag',
    range(50).map((i) => `mutation { addTag(input: {tagUrn: "${tag(i)}", resourceUrn: "${DS}"}) }`),
  )
  t.comment(`50 concurrent addTag: ${Math.round(performance.now() - started)} ms`)
  t.same(await tagsOf(app), range(50).map(tag).sort(), 'all 50 tags are present')
  const read = await gql(app, `query { dataset(urn: "${DS}") { globalTags { tags { tag { urn } } } } }`)
  t.equal(read.data.dataset.globalTags.tags.length, 50, 'GraphQL reads the 50 tags')
}

t.test('one process: 50 concurrent addTag of distinct tags all end up present', async (t) => {
  const { app } = await build(t)
  await ingestRaceData(app, 50, 0)
  await fiftyTags(t, app)
  await race(
    t,
    app,
    'removeTag',
    range(25).map((i) => `mutation { removeTag(input: {tagUrn: "${tag(i * 2)}", resourceUrn: "${DS}"}) }`),
  )
  t.same(
    await tagsOf(app),
    range(25)
      .map((i) => tag(i * 2 + 1))
      .sort(),
    '25 concurrent removals leave the odd tags',
  )
})

t.test('one process: 30 interleaved addOwner and removeOwner end as expected', async (t) => {
  const { app } = await build(t)
  await ingestRaceData(app, 0, 30)
  const add = (i: number) =>
    `mutation { addOwner(input: {ownerUrn: "${user(i)}", ownerEntityType: CORP_USER, type: TECHNICAL_OWNER, resourceUrn: "${DS}"}) }`
  for (const i of range(15)) await gql(app, add(i + 15))
  const calls = range(15).flatMap((i) => [
    add(i),
    `mutation { removeOwner(input: {ownerUrn: "${user(i + 15)}", resourceUrn: "${DS}"}) }`,
  ])
  const bodies = await Promise.all(calls.map((q) => gql(app, q)))
  t.same(
    bodies.filter((b) => !b.data?.addOwner && !b.data?.removeOwner),
    [],
    '30 concurrent calls answer true',
  )
  const owners = ((await restAspects(app, DS)).ownership?.value.owners ?? []).map(
    (o: { owner: string }) => o.owner,
  )
  t.same(
    owners.filter((o: string) => o.includes('racer')).sort(),
    range(15).map(user).sort(),
    'the 15 added owners are there and the 15 removed ones are gone',
  )
  t.same(owners.filter((o: string) => !o.includes('racer')).sort(), [
    'urn:li:corpuser:datahub',
    'urn:li:corpuser:jdoe',
  ])
})

t.test('one process: concurrent addLink, and field tags, terms and descriptions', async (t) => {
  const { app } = await build(t)
  await ingestRaceData(app, 20, 0)
  await race(
    t,
    app,
    'addLink',
    range(30).map(
      (i) =>
        `mutation { addLink(input: {linkUrl: "https://wiki/${i}", label: "L${i}", resourceUrn: "${DS}"}) }`,
    ),
  )
  const urls = ((await restAspects(app, DS)).institutionalMemory?.value.elements ?? []).map(
    (e: { url: string }) => e.url,
  )
  t.same(
    urls.sort(),
    ['https://www.linkedin.com', ...range(30).map((i) => `https://wiki/${i}`)].sort(),
    'all 30 links',
  )

  const onField = `resourceUrn: "${DS}", subResource: "${FIELD}", subResourceType: DATASET_FIELD`
  const calls = [
    ...range(20).map((i) => `mutation { addTag(input: {tagUrn: "${tag(i)}", ${onField}}) }`),
    `mutation { addTerm(input: {termUrn: "urn:li:glossaryTerm:SavingAccount", ${onField}}) }`,
    `mutation { updateDescription(input: {description: "raced", ${onField}}) }`,
  ]
  const bodies = await Promise.all(calls.map((q) => gql(app, q)))
  t.same(
    bodies.filter((b) => Object.values(b.data ?? {})[0] !== true),
    [],
    '22 concurrent field edits answer true',
  )
  const info = (await restAspects(app, DS)).editableSchemaMetadata?.value.editableSchemaFieldInfo
  t.equal(info.length, 1, 'one entry for the field')
  t.same(
    info[0].globalTags.tags.map((x: { tag: string }) => x.tag).sort(),
    range(20).map(tag).sort(),
    'all 20 field tags',
  )
  t.same(info[0].glossaryTerms.terms, [{ urn: 'urn:li:glossaryTerm:SavingAccount' }], 'the field term')
  t.equal(info[0].description, 'raced', 'the field description')

  const both = await Promise.all([
    gql(app, `mutation { updateName(input: {urn: "${DS}", name: "Raced name"}) }`),
    gql(app, `mutation { updateDescription(input: {resourceUrn: "${DS}", description: "Raced text"}) }`),
  ])
  t.same(
    both.map((b) => Object.values(b.data)[0]),
    [true, true],
  )
  const editable = (await restAspects(app, DS)).editableDatasetProperties?.value
  t.same(
    [editable.name, editable.description],
    ['Raced name', 'Raced text'],
    'name and description both kept',
  )
})

t.test('split mode (gateway -> metadata service over HTTP): 50 concurrent addTag', async (t) => {
  const { app } = await buildSplit(t)
  await ingestRaceData(app, 50, 0)
  await fiftyTags(t, app)
})
