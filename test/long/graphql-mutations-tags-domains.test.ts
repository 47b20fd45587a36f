import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** updateTag, setTagColor, deleteTag, upsertLink, moveDomain, deleteDomain. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,tags_domains,PROD)'
const PII = 'urn:li:tag:pii'
const KEEP = 'urn:li:tag:keep'
const dom = (id: string) => `urn:li:domain:${id}`

async function seedTags(app: CatalogServer): Promise<void> {
  await ingestAspect(app, 'tag', PII, 'tagProperties', { name: 'PII', description: 'old' })
  await ingestAspect(app, 'tag', PII, 'ownership', {
    owners: [{ owner: 'urn:li:corpuser:alice', type: 'DATAOWNER' }],
  })
  await ingestAspect(app, 'tag', KEEP, 'tagProperties', { name: 'Keep' })
  await ingestAspect(app, 'dataset', DS, 'globalTags', { tags: [{ tag: PII }, { tag: KEEP }] })
}

/** Domains: b "Sales" and a "Marketing" and d "Ops" at the root, c "Marketing" under b. */
async function seedDomains(app: CatalogServer): Promise<void> {
  await ingestAspect(app, 'domain', dom('b'), 'domainProperties', { name: 'Sales' })
  await ingestAspect(app, 'domain', dom('a'), 'domainProperties', { name: 'Marketing', description: 'm' })
  await ingestAspect(app, 'domain', dom('d'), 'domainProperties', { name: 'Ops' })
  await ingestAspect(app, 'domain', dom('c'), 'domainProperties', {
    name: 'Marketing',
    parentDomain: dom('b'),
  })
  await ingestAspect(app, 'dataset', DS, 'domains', { domains: [dom('a')] })
}

const exists = async (app: CatalogServer, urn: string) =>
  (await gql(app, 'query($u: String!) { entityExists(urn: $u) }', { u: urn })).data.entityExists

t.test('updateTag, setTagColor and deleteTag write what DataHub writes', async (t) => {
  const { app } = await build(t)
  await seedTags(app)
  const updated = await gql(
    app,
    `mutation { updateTag(urn: "${PII}", input: {urn: "${PII}", name: "Personal", description: "new"}) {
      urn properties { name description } } }`,
  )
  t.same(updated, {
    data: { updateTag: { urn: PII, properties: { name: 'Personal', description: 'new' } } },
  })
  const stored = await restAspects(app, PII)
  t.same(stored.tagProperties?.value, { name: 'Personal', description: 'new' })
  t.same(
    stored.ownership?.value.owners.map((o: { owner: string; type: string }) => [o.owner, o.type]),
    [[ROOT_ACTOR, 'NONE']],
    "DataHub's mapper makes the caller the sole owner",
  )

  t.same(await gql(app, `mutation { setTagColor(urn: "${PII}", colorHex: "#ff0000") }`), {
    data: { setTagColor: true },
  })
  const colored = await gql(app, `query { tag(urn: "${PII}") { properties { name description colorHex } } }`)
  t.same(colored.data.tag.properties, { name: 'Personal', description: 'new', colorHex: '#ff0000' })

  await ingestAspect(app, 'tag', 'urn:li:tag:bare', 'status', { removed: false })
  await gql(app, 'mutation { setTagColor(urn: "urn:li:tag:bare", colorHex: "#00ff00") }')
  t.same(
    (await restAspects(app, 'urn:li:tag:bare')).tagProperties?.value,
    { name: 'bare', colorHex: '#00ff00' },
    'properties default to the tag id as name',
  )

  t.same(await gql(app, `mutation { deleteTag(urn: "${PII}") }`), { data: { deleteTag: true } })
  t.equal(await exists(app, PII), false, 'the tag is gone')
  t.same((await restAspects(app, DS)).globalTags?.value.tags, [{ tag: KEEP }], 'its uses are removed')
  t.equal(await exists(app, KEEP), true, 'the other tag stays')
})

t.test('upsertLink adds, then replaces the link with the same url and label', async (t) => {
  const { app } = await build(t)
  await seedTags(app)
  const upsertLink = (label: string, show?: boolean) =>
    gql(app, 'mutation($i: UpsertLinkInput!) { upsertLink(input: $i) }', {
      i: {
        resourceUrn: DS,
        linkUrl: 'https://wiki/x',
        label,
        ...(show === undefined ? {} : { settings: { showInAssetPreview: show } }),
      },
    })
  t.same(await upsertLink('Docs'), { data: { upsertLink: true } })
  const first = (await restAspects(app, DS)).institutionalMemory?.value.elements
  t.equal(first.length, 1)
  t.equal(first[0].createStamp.actor, ROOT_ACTOR)
  t.equal(first[0].updateStamp, undefined, 'a new link has no update stamp')

  t.same(await upsertLink('Docs', true), { data: { upsertLink: true } })
  const second = (await restAspects(app, DS)).institutionalMemory?.value.elements
  t.equal(second.length, 1, 'the same url and label: replaced, not added')
  t.same(second[0].createStamp, first[0].createStamp, 'the create stamp is kept')
  t.equal(second[0].updateStamp.actor, ROOT_ACTOR)
  t.same(second[0].settings, { showInAssetPreview: true })

  await upsertLink('Other')
  const read = await gql(
    app,
    `query { dataset(urn: "${DS}") { institutionalMemory { elements { url label settings { showInAssetPreview } } } } }`,
  )
  t.same(read.data.dataset.institutionalMemory.elements, [
    { url: 'https://wiki/x', label: 'Docs', settings: { showInAssetPreview: true } },
    { url: 'https://wiki/x', label: 'Other', settings: null },
  ])
})

t.test('concurrent upsertLink calls on one entity lose nothing', async (t) => {
  const { app } = await build(t)
  await seedTags(app)
  const labels = Array.from({ length: 12 }, (_, i) => `link ${i}`)
  const answers = await Promise.all(
    labels.map((label) =>
      gql(app, 'mutation($i: UpsertLinkInput!) { upsertLink(input: $i) }', {
        i: { resourceUrn: DS, linkUrl: `https://wiki/${label.replace(' ', '-')}`, label },
      }),
    ),
  )
  t.ok(
    answers.every((a) => a.data?.upsertLink === true),
    'every call succeeds',
  )
  const stored = (await restAspects(app, DS)).institutionalMemory?.value.elements
  t.same(stored.map((l: { description: string }) => l.description).sort(), [...labels].sort())
})

t.test('moveDomain and deleteDomain', async (t) => {
  const { app } = await build(t)
  await seedDomains(app)
  const move = (resource: string, parent: string | null) =>
    gql(app, 'mutation($i: MoveDomainInput!) { moveDomain(input: $i) }', {
      i: { resourceUrn: resource, parentDomain: parent },
    })
  t.same(await move(dom('d'), dom('b')), { data: { moveDomain: true } })
  t.same((await restAspects(app, dom('d'))).domainProperties?.value, { name: 'Ops', parentDomain: dom('b') })
  const parents = await gql(
    app,
    `query { domain(urn: "${dom('d')}") { parentDomains { count domains { urn } } } }`,
  )
  t.same(parents.data.domain.parentDomains, { count: 1, domains: [{ urn: dom('b') }] })

  const conflict = await move(dom('a'), dom('b'))
  t.same(conflict.data, { moveDomain: null })
  t.match(conflict.errors[0], {
    message: '"Marketing" already exists in the destination domain. Please pick a unique name.',
    path: ['moveDomain'],
    extensions: { code: 409, type: 'CONFLICT' },
  })
  const rootConflict = await move(dom('c'), null)
  t.equal(rootConflict.errors?.[0]?.extensions?.code, 409, 'a root domain of the same name conflicts too')

  t.same(await move(dom('d'), null), { data: { moveDomain: true } })
  t.same((await restAspects(app, dom('d'))).domainProperties?.value, { name: 'Ops' }, 'back to the root')

  const refused = await gql(app, `mutation { deleteDomain(urn: "${dom('b')}") }`)
  t.same(refused.data, { deleteDomain: null })
  t.match(refused.errors[0], {
    message: `Cannot delete domain ${dom('b')} which has child domains`,
    extensions: { code: 409, type: 'CONFLICT' },
  })
  t.equal(await exists(app, dom('b')), true, 'the parent is kept')

  t.same(await gql(app, `mutation { deleteDomain(urn: "${dom('a')}") }`), { data: { deleteDomain: true } })
  t.equal(await exists(app, dom('a')), false)
  const assigned = (await restAspects(app, DS)).domains?.value
  t.notOk(assigned?.domains?.includes(dom('a')), 'the asset no longer names the deleted domain')
  t.same(await gql(app, `mutation { deleteDomain(urn: "${dom('c')}") }`), { data: { deleteDomain: true } })
  t.same(await gql(app, `mutation { deleteDomain(urn: "${dom('b')}") }`), { data: { deleteDomain: true } })
  t.equal(await exists(app, dom('b')), false, 'without children the parent may go')
})

t.test('bad input: DataHub messages over HTTP 200, nothing written', async (t) => {
  const { app } = await build(t)
  await seedTags(app)
  await seedDomains(app)
  const watched = [PII, DS, dom('a'), dom('b')]
  const before = await Promise.all(watched.map((u) => snapshot(app, u)))
  const cases: Array<[string, string, string]> = [
    [
      'setTagColor',
      'mutation { setTagColor(urn: "urn:li:tag:nope", colorHex: "#fff") }',
      'Failed to set Tag urn:li:tag:nope color. Tag does not exist.',
    ],
    [
      'setTagColor',
      `mutation { setTagColor(urn: "${dom('a')}", colorHex: "#fff") }`,
      `Failed to set Tag color. ${dom('a')} is not a tag.`,
    ],
    [
      'updateTag',
      `mutation { updateTag(urn: "${DS}", input: {urn: "${DS}", name: "x"}) { urn } }`,
      `Failed to update Tag. ${DS} is not a tag.`,
    ],
    [
      'deleteTag',
      `mutation { deleteTag(urn: "${DS}") }`,
      `Failed to perform delete against tag with urn ${DS}. ${DS} is not a tag.`,
    ],
    [
      'upsertLink',
      'mutation { upsertLink(input: {resourceUrn: "urn:li:corpuser:nobody", linkUrl: "https://x", label: "x"}) }',
      'Failed to change institutional memory for resource urn:li:corpuser:nobody. Resource does not exist.',
    ],
    [
      'upsertLink',
      `mutation { upsertLink(input: {resourceUrn: "${DS}", linkUrl: "not a url", label: "x"}) }`,
      `Failed to change institutional memory for resource ${DS}. Expected an url.`,
    ],
    [
      'moveDomain',
      `mutation { moveDomain(input: {resourceUrn: "${PII}", parentDomain: "${dom('b')}"}) }`,
      'Resource is not a domain.',
    ],
    [
      'moveDomain',
      `mutation { moveDomain(input: {resourceUrn: "${dom('nope')}", parentDomain: "${dom('b')}"}) }`,
      'Domain properties do not exist.',
    ],
    [
      'moveDomain',
      `mutation { moveDomain(input: {resourceUrn: "${dom('a')}", parentDomain: "${PII}"}) }`,
      'Parent entity is not a domain.',
    ],
    [
      'moveDomain',
      `mutation { moveDomain(input: {resourceUrn: "${dom('a')}", parentDomain: "${dom('nope')}"}) }`,
      'Parent entity does not exist.',
    ],
    [
      'deleteDomain',
      `mutation { deleteDomain(urn: "${PII}") }`,
      `Failed to perform delete against domain with urn ${PII}`,
    ],
  ]
  for (const [field, query, message] of cases) {
    t.same(badRequest(await gql(app, query), field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  const malformed = await gql(app, 'mutation { deleteTag(urn: "not-a-urn") }')
  t.equal(malformed.errors?.[0]?.extensions?.code, 400, 'a malformed urn is bad input')
  t.same(await Promise.all(watched.map((u) => snapshot(app, u))), before, 'nothing changed')
})

t.test('a Reader may not administer tags, links or domains; nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, PII, 'tagProperties', { name: 'PII' })
  await adminWrite(built, dom('a'), 'domainProperties', { name: 'A' })
  await adminWrite(built, dom('b'), 'domainProperties', { name: 'B' })
  await adminWrite(built, DS, 'datasetProperties', { name: 'ds', customProperties: {} })
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const calls: Record<string, string> = {
    updateTag: `mutation { updateTag(urn: "${PII}", input: {urn: "${PII}", name: "x"}) { urn } }`,
    setTagColor: `mutation { setTagColor(urn: "${PII}", colorHex: "#000") }`,
    deleteTag: `mutation { deleteTag(urn: "${PII}") }`,
    upsertLink: `mutation { upsertLink(input: {resourceUrn: "${DS}", linkUrl: "https://x", label: "x"}) }`,
    moveDomain: `mutation { moveDomain(input: {resourceUrn: "${dom('a')}", parentDomain: "${dom('b')}"}) }`,
    deleteDomain: `mutation { deleteDomain(urn: "${dom('a')}") }`,
  }
  for (const [name, query] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(await aspectOf(built, PII, 'tagProperties'), { name: 'PII' }, 'the tag is unchanged')
  t.same(await aspectOf(built, dom('a'), 'domainProperties'), { name: 'A' }, 'the domain is unchanged')
  t.equal(await aspectOf(built, DS, 'institutionalMemory'), undefined, 'no link was added')
  const admin = await gqlAs(built.app, built.adminToken, calls.setTagColor as string)
  t.same(admin.body, { data: { setTagColor: true } }, 'the admin may')
})
