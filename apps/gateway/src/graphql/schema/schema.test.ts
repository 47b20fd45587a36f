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
