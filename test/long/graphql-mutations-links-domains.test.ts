import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples } from '../helpers/build.js'
import { badRequest, gql, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** addLink, updateLink, removeLink, createDomain, setDomain, unsetDomain, batchSetDomain. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const CHART = 'urn:li:chart:(looker,test-tags-terms-sample-chart)'
const MISSING = 'urn:li:dataset:(urn:li:dataPlatform:kafka,no-such-dataset,PROD)'
const DOC = 'https://www.linkedin.com'

const LINKS = `query($urn: String!) { dataset(urn: $urn) { institutionalMemory { elements { url description label } } } }`

async function links(app: CatalogServer): Promise<string[]> {
  const d = (await gql(app, LINKS, { urn: DS })).data.dataset
  return (d.institutionalMemory?.elements ?? []).map(
    (e: { url: string; label: string }) => `${e.url} ${e.label}`,
  )
}

/** The entity's domains as REST shows them (the GraphQL \`domain\` field is not mapped yet). */
const domainOf = async (app: CatalogServer, urn = DS) =>
  ((await restAspects(app, urn)).domains?.value.domains ?? [null])[0] ?? null

t.test('addLink, updateLink and removeLink', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  t.same(await links(app), [`${DOC} Sample doc`])
  const add = (url: string, label: string) =>
    gql(
      app,
      `mutation($u: String!, $l: String!) { addLink(input: {linkUrl: $u, label: $l, resourceUrn: "${DS}"}) }`,
      {
        u: url,
        l: label,
      },
    )
  t.same(await add('https://wiki/a', 'Runbook'), { data: { addLink: true } })
  await add('https://wiki/a', 'Runbook')
  await add(DOC, 'Other label')
  // Links are keyed by url, then label: a new label of a known url joins that url's links.
  t.same(
    await links(app),
    [`${DOC} Sample doc`, `${DOC} Other label`, 'https://wiki/a Runbook'],
    'url+label tell links apart; no duplicate',
  )
  const stored = (await restAspects(app, DS)).institutionalMemory?.value.elements.find(
    (e: { url: string }) => e.url === 'https://wiki/a',
  )
  t.equal(stored.createStamp.actor, ROOT_ACTOR, 'createStamp is the caller')

  const update = await gql(
    app,
    `mutation { updateLink(input: {currentUrl: "https://wiki/a", currentLabel: "Runbook", linkUrl: "https://wiki/b", label: "Playbook", resourceUrn: "${DS}"}) }`,
  )
  t.same(update, { data: { updateLink: true } })
  const updated = (await restAspects(app, DS)).institutionalMemory?.value.elements
  const b = updated.find((e: { url: string }) => e.url === 'https://wiki/b')
  t.same([b.description, b.createStamp, b.updateStamp.actor], ['Playbook', stored.createStamp, ROOT_ACTOR])
  t.notOk(updated.some((e: { url: string }) => e.url === 'https://wiki/a'))

  await gql(
    app,
    `mutation { removeLink(input: {linkUrl: "${DOC}", label: "Other label", resourceUrn: "${DS}"}) }`,
  )
  t.same(await links(app), [`${DOC} Sample doc`, 'https://wiki/b Playbook'], 'with a label: only that link')
  await add(DOC, 'Again')
  await gql(app, `mutation { removeLink(input: {linkUrl: "${DOC}", resourceUrn: "${DS}"}) }`)
  t.same(await links(app), ['https://wiki/b Playbook'], 'without a label: every link to the url')

  const before = await snapshot(app, DS)
  const bad: Array<[string, string, string]> = [
    [
      'addLink',
      `mutation { addLink(input: {linkUrl: "x", label: "y", resourceUrn: "${MISSING}"}) }`,
      `Failed to change institutional memory for resource ${MISSING}. Resource does not exist.`,
    ],
    [
      'addLink',
      `mutation { addLink(input: {linkUrl: "not a url", label: "y", resourceUrn: "${DS}"}) }`,
      `Failed to change institutional memory for resource ${DS}. Expected an url.`,
    ],
    [
      'updateLink',
      `mutation { updateLink(input: {currentUrl: "https://nope", currentLabel: "x", linkUrl: "https://c", label: "c", resourceUrn: "${DS}"}) }`,
      "Failed to update the link 'https://nope' with label 'x'. The link does not exist",
    ],
  ]
  await add('https://wiki/c', 'C')
  const withC = await snapshot(app, DS)
  bad.push([
    'updateLink',
    `mutation { updateLink(input: {currentUrl: "https://wiki/b", currentLabel: "Playbook", linkUrl: "https://wiki/c", label: "C", resourceUrn: "${DS}"}) }`,
    "The link 'https://wiki/c' with label 'C' already exists",
  ])
  t.not(withC, before, 'snapshots see a write')
  for (const [field, query, message] of bad) {
    t.same(badRequest(await gql(app, query), field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  t.equal(await snapshot(app, DS), withC, 'bad input writes nothing')
})

t.test('createDomain, setDomain, batchSetDomain, unsetDomain', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  const created = await gql(
    app,
    'mutation { createDomain(input: {id: "finance", name: "Finance", description: "Money"}) }',
  )
  t.same(created, { data: { createDomain: 'urn:li:domain:finance' } })
  const domain = await restAspects(app, 'urn:li:domain:finance')
  t.same(domain.domainProperties?.value.name, 'Finance')
  t.same(domain.ownership?.value.owners[0].owner, ROOT_ACTOR, 'the creator owns the domain')
  const again = await gql(app, 'mutation { createDomain(input: {id: "finance", name: "Finance 2"}) }')
  t.same(badRequest(again, 'createDomain'), {
    message: 'This Domain already exists!',
    code: 400,
    type: 'BAD_REQUEST',
  })
  const child = await gql(
    app,
    'mutation { createDomain(input: {id: "tax", name: "Tax", parentDomain: "urn:li:domain:finance"}) }',
  )
  t.equal(child.data.createDomain, 'urn:li:domain:tax')
  t.equal(
    (await restAspects(app, 'urn:li:domain:tax')).domainProperties?.value.parentDomain,
    'urn:li:domain:finance',
  )

  t.equal(await domainOf(app), null)
  t.same(await gql(app, `mutation { setDomain(entityUrn: "${DS}", domainUrn: "urn:li:domain:finance") }`), {
    data: { setDomain: true },
  })
  t.equal(await domainOf(app), 'urn:li:domain:finance')
  t.same((await restAspects(app, DS)).domains?.value, { domains: ['urn:li:domain:finance'] })
  await gql(
    app,
    `mutation { batchSetDomain(input: {domainUrn: "urn:li:domain:tax", resources: [{resourceUrn: "${DS}"}, {resourceUrn: "${CHART}"}]}) }`,
  )
  t.equal(await domainOf(app), 'urn:li:domain:tax', 'set replaces the domain')
  t.same((await restAspects(app, CHART)).domains?.value, { domains: ['urn:li:domain:tax'] })
  t.same(await gql(app, `mutation { unsetDomain(entityUrn: "${DS}") }`), { data: { unsetDomain: true } })
  t.equal(await domainOf(app), null)
  await gql(app, `mutation { batchSetDomain(input: {resources: [{resourceUrn: "${CHART}"}]}) }`)
  t.same((await restAspects(app, CHART)).domains?.value, { domains: [] }, 'a null domainUrn unsets')

  await gql(app, `mutation { setDomain(entityUrn: "${DS}", domainUrn: "urn:li:domain:finance") }`)
  const before = { ds: await snapshot(app, DS), chart: await snapshot(app, CHART) }
  const bad: Array<[string, string, string]> = [
    [
      'setDomain',
      `mutation { setDomain(entityUrn: "${DS}", domainUrn: "urn:li:domain:nope") }`,
      `Failed to add Entity ${DS} to Domain urn:li:domain:nope. Domain does not exist.`,
    ],
    [
      'setDomain',
      `mutation { setDomain(entityUrn: "${MISSING}", domainUrn: "urn:li:domain:tax") }`,
      `Failed to add Entity ${MISSING} to Domain urn:li:domain:tax. Entity does not exist.`,
    ],
    [
      'batchSetDomain',
      `mutation { batchSetDomain(input: {domainUrn: "urn:li:domain:nope", resources: [{resourceUrn: "${DS}"}]}) }`,
      'Failed to validate Domain with urn urn:li:domain:nope. Urn does not exist.',
    ],
    [
      'batchSetDomain',
      `mutation { batchSetDomain(input: {domainUrn: "urn:li:domain:tax", resources: [{resourceUrn: "${CHART}"}, {resourceUrn: "${MISSING}"}]}) }`,
      `Failed to update resource with urn ${MISSING}. Entity does not exist.`,
    ],
    [
      'createDomain',
      'mutation { createDomain(input: {id: "x", name: "X", parentDomain: "urn:li:domain:nope"}) }',
      'Parent Domain urn:li:domain:nope does not exist.',
    ],
  ]
  for (const [field, query, message] of bad) {
    t.same(badRequest(await gql(app, query), field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  const malformed = await gql(app, `mutation { setDomain(entityUrn: "${DS}", domainUrn: "finance") }`)
  t.same(
    { code: malformed.errors[0].extensions.code, data: malformed.data },
    { code: 400, data: { setDomain: null } },
  )
  t.equal(await snapshot(app, DS), before.ds)
  t.equal(await snapshot(app, CHART), before.chart)
  t.same((await restAspects(app, 'urn:li:domain:x')).domainProperties, undefined, 'no domain x was created')
})

const LIST_DOMAINS = `query($input: ListDomainsInput!) { listDomains(input: $input) {
  start count total domains { urn type properties { name } entities(input: {start: 0, count: 1}) { total } } } }`

t.test(
  'listDomains: the root domains or the children of one, newest first, as DataHub lists them',
  async (t) => {
    const { app } = await build(t)
    await ingestExamples(app, 'tagsAndTerms')
    const create = async (id: string, parent?: string) =>
      t.notOk(
        (
          await gql(app, 'mutation($input: CreateDomainInput!) { createDomain(input: $input) }', {
            input: {
              id,
              name: id.toUpperCase(),
              ...(parent ? { parentDomain: `urn:li:domain:${parent}` } : {}),
            },
          })
        ).errors,
        `created ${id}`,
      )
    // Created in turns a millisecond apart at least, so `created.time` orders them.
    for (const [id, parent] of [
      ['finance'],
      ['ops'],
      ['tax', 'finance'],
      ['audit', 'finance'],
      ['payroll'],
    ]) {
      await create(id as string, parent)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    await gql(app, `mutation { setDomain(entityUrn: "${DS}", domainUrn: "urn:li:domain:finance") }`)
    const list = async (input: Record<string, unknown>) =>
      (await gql(app, LIST_DOMAINS, { input })).data.listDomains

    const roots = await list({})
    t.same(
      roots.domains.map((d: { urn: string }) => d.urn),
      ['urn:li:domain:payroll', 'urn:li:domain:ops', 'urn:li:domain:finance'],
      'root domains only, newest first',
    )
    t.match(
      roots,
      { start: 0, count: 20, total: 3 },
      'count is the page size asked for, as DataHub answers it',
    )
    t.same(roots.domains[2], {
      urn: 'urn:li:domain:finance',
      type: 'DOMAIN',
      properties: { name: 'FINANCE' },
      entities: { total: 1 },
    })
    const children = await list({ parentDomain: 'urn:li:domain:finance' })
    t.same(
      children.domains.map((d: { urn: string }) => d.urn),
      ['urn:li:domain:audit', 'urn:li:domain:tax'],
      "a domain's children",
    )
    t.same((await list({ query: 'ops' })).domains, [
      { urn: 'urn:li:domain:ops', type: 'DOMAIN', properties: { name: 'OPS' }, entities: { total: 0 } },
    ])
    t.same(
      (await list({ start: 1, count: 1 })).domains.map((d: { urn: string }) => d.urn),
      ['urn:li:domain:ops'],
      'paged',
    )
    t.same((await list({ parentDomain: 'urn:li:domain:ops' })).domains, [], 'a domain without children')
    const bad = await gql(app, LIST_DOMAINS, { input: { parentDomain: 'finance' } })
    t.same(
      { data: bad.data, code: bad.errors?.[0]?.extensions?.code },
      { data: { listDomains: null }, code: 400 },
    )
  },
)
