import t from 'tap'
import { readSearchState, searchInput, toggled, writeSearchState } from './search-state.js'

t.test('the search state round-trips through the URL', async (t) => {
  const params = new URLSearchParams(
    'q=sample&page=3&f=platform:urn:li:dataPlatform:hive&f=_entityType:DATASET',
  )
  const state = readSearchState(params)
  t.equal(state.query, 'sample')
  t.equal(state.page, 3)
  t.same([...(state.filters.get('platform') ?? [])], ['urn:li:dataPlatform:hive'], 'values keep their colons')
  t.equal(writeSearchState(state).toString(), params.toString())
  t.equal(readSearchState(new URLSearchParams('page=-2')).page, 1, 'a bad page is the first')
})

t.test('the GraphQL input: one AND group, values of one facet OR-ed; toggling resets the page', async (t) => {
  let state = readSearchState(new URLSearchParams('page=2'))
  t.same(searchInput(state), { query: '*', start: 10, count: 10 }, 'no query is every entity, no filters')
  state = toggled(state, 'platform', 'urn:li:dataPlatform:hive')
  state = toggled(state, 'platform', 'urn:li:dataPlatform:kafka')
  state = toggled(state, 'tags', 'urn:li:tag:pii')
  t.equal(state.page, 1)
  t.same(searchInput(state).orFilters, [
    {
      and: [
        { field: 'platform', values: ['urn:li:dataPlatform:hive', 'urn:li:dataPlatform:kafka'] },
        { field: 'tags', values: ['urn:li:tag:pii'] },
      ],
    },
  ])
  state = toggled(state, 'tags', 'urn:li:tag:pii')
  t.notOk(state.filters.has('tags'), 'unchecking the last value drops the facet')
})
