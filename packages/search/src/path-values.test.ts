import { entriesAt, Registry } from '@catalog/core'
import t from 'tap'
import { pathValues } from './path-values.js'

const split = (path: string) => (path.length === 0 ? [] : path.split('/'))

t.test('finds the leaves entriesAt finds, in its order', async (t) => {
  const value = {
    owners: [
      { owner: 'urn:li:corpuser:a', type: 'DATAOWNER' },
      { owner: 'urn:li:corpuser:b' },
      null,
      { type: 'NONE' },
    ],
    customProperties: { team: 'core', tier: '1' },
    tags: [[{ tag: 'urn:li:tag:x' }], { tag: 'urn:li:tag:y' }],
    fields: [{ fieldPath: 'id', glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:t' }] } }],
    name: 'orders',
    count: 0,
    flag: false,
    list: ['a', 'b', ['c']],
  }
  const cases: Array<[string, unknown[]]> = [
    ['owners/*/owner', ['urn:li:corpuser:a', 'urn:li:corpuser:b']],
    ['owners/owner', ['urn:li:corpuser:a', 'urn:li:corpuser:b']],
    ['customProperties/$key', ['team', 'tier']],
    ['customProperties/*', ['core', '1']],
    ['tags/tag', ['urn:li:tag:x', 'urn:li:tag:y']],
    ['fields/*/glossaryTerms/terms/*/urn', ['urn:li:glossaryTerm:t']],
    ['name', ['orders']],
    ['name/deeper', []],
    // A single value where `*` expects a collection: DataHub indexes `parentTemplate/*` of one URN.
    ['name/*', ['orders']],
    ['name/*/deeper', []],
    ['count', [0]],
    ['flag', [false]],
    ['list', ['a', 'b', 'c']],
    ['list/*', ['a', 'b', 'c']],
    ['missing/*', []],
    ['owners/$key', ['owner', 'type', 'owner', 'type']],
  ]
  for (const [path, expected] of cases) {
    t.same(pathValues(value, split(path)), expected, path)
    t.same(
      pathValues(value, split(path)),
      entriesAt(value, path).map((e) => e.value),
      `${path}: as entriesAt`,
    )
  }
  t.same(pathValues(null, ['a']), [])
  t.same(pathValues('x', []), ['x'])
})

t.test("agrees with entriesAt on every searchable path of DataHub's model", async (t) => {
  const registry = new Registry()
  const paths = new Set<string>()
  for (const entity of registry.allEntities())
    for (const b of registry.searchable(entity)) paths.add(b.field.path)
  t.ok(paths.size > 50, `${paths.size} paths`)
  // A value with something at every path: each name leads to an array of the level below and a
  // map holding it, six levels deep (the levels are shared, so it stays small).
  const names = new Set([...paths].flatMap((p) => p.split('/')).filter((s) => s !== '*' && s !== '$key'))
  let value: unknown = 'leaf'
  for (let depth = 0; depth < 6; depth++) {
    const below = value
    const node: Record<string, unknown> = {}
    for (const name of names) node[name] = [below, { k: below }]
    value = node
  }
  let found = 0
  for (const path of paths) {
    const leaves = pathValues(value, split(path))
    if (leaves.length > 0) found++
    t.same(
      leaves,
      entriesAt(value, path).map((e) => e.value),
      path,
    )
  }
  t.ok(found >= paths.size * 0.9, `${found} of ${paths.size} paths find leaves`)
})
