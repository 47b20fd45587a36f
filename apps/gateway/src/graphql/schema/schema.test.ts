import { buildSchema, validateSchema } from 'graphql'
import t from 'tap'
import { DATAHUB_SDL, datahubSchema } from './index.js'

t.test('the SDL and the schema the server builds without checking them are valid', async (t) => {
  const checked = buildSchema(DATAHUB_SDL)
  t.same(validateSchema(checked), [], 'the schema built with every check is valid')
  const served = datahubSchema()
  t.same(Object.keys(served.getTypeMap()).sort(), Object.keys(checked.getTypeMap()).sort(), 'the same types')
  t.ok(Object.keys(served.getTypeMap()).length > 900)
})

t.test('the served schema keeps no source locations in its syntax tree', async (t) => {
  const served = datahubSchema()
  const dataset = served.getType('Dataset')
  t.ok(dataset?.astNode, 'the types keep their syntax nodes (directives and descriptions come from them)')
  // (compared as booleans: tap's report of a kept location would walk its whole token list)
  t.ok(dataset?.astNode?.loc === undefined, 'no location, so no token list, is kept')
  t.ok(served.getQueryType()?.astNode?.loc === undefined, 'nor for the query type')
})
