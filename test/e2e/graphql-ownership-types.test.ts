import t from 'tap'
import { gql, post, upsert } from '../helpers/actors.js'
import { build, type Json } from '../helpers/build.js'

/** GraphQL `listOwnershipTypes` (the owners modal of the entity pages), on stored ownership types. */

const LIST = `query($input: ListOwnershipTypesInput!) { listOwnershipTypes(input: $input) {
  start count total ownershipTypes { urn type info { name description created { time } } } } }`

const TYPES: [string, string, number][] = [
  ['steward', 'Data Steward', 1_700_000_000_000],
  ['analyst', 'Lead Analyst', 1_700_000_300_000],
  ['sponsor', 'Business Sponsor', 1_700_000_100_000],
]

const namesOf = (body: Json): string[] =>
  body.data.listOwnershipTypes.ownershipTypes.map((o: { info: { name: string } }) => o.info.name)

t.test('listOwnershipTypes answers the stored ownership types, newest first', async (t) => {
  const { app } = await build(t)
  for (const [id, name, time] of TYPES) {
    const info = {
      name,
      description: `${name} of the asset`,
      created: { time, actor: 'urn:li:corpuser:datahub' },
      lastModified: { time, actor: 'urn:li:corpuser:datahub' },
    }
    const res = await post(
      app,
      '/aspects?action=ingestProposal',
      undefined,
      upsert(`urn:li:ownershipType:${id}`, 'ownershipTypeInfo', info),
    )
    t.equal(res.status, 200, id)
  }
  const all = await gql(app, undefined, LIST, { input: {} })
  t.same(all.body.errors, undefined)
  t.same(namesOf(all.body), ['Lead Analyst', 'Business Sponsor', 'Data Steward'], 'by createdAt, descending')
  t.same(
    { ...all.body.data.listOwnershipTypes, ownershipTypes: undefined },
    { start: 0, count: 20, total: 3, ownershipTypes: undefined },
  )
  t.same(all.body.data.listOwnershipTypes.ownershipTypes[0], {
    urn: 'urn:li:ownershipType:analyst',
    type: 'CUSTOM_OWNERSHIP_TYPE',
    info: {
      name: 'Lead Analyst',
      description: 'Lead Analyst of the asset',
      created: { time: 1_700_000_300_000 },
    },
  })
  const found = await gql(app, undefined, LIST, { input: { query: 'steward' } })
  t.same(namesOf(found.body), ['Data Steward'], 'matched by name')
  const page = await gql(app, undefined, LIST, { input: { start: 1, count: 1 } })
  t.same(namesOf(page.body), ['Business Sponsor'], 'paged')
  t.equal(page.body.data.listOwnershipTypes.total, 3)
})
