import { readFileSync } from 'node:fs'
import {
  buildClientSchema,
  buildSchema,
  type GraphQLNamedType,
  type GraphQLSchema,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
} from 'graphql'
import t from 'tap'
import { build } from '../helpers/build.js'

/** The served schema (by introspection) is DataHub's, as vendored in the gateway. */

const VENDORED = new URL('../../apps/gateway/src/graphql/schema/datahub.graphql', import.meta.url)

interface Signature {
  readonly types: Map<string, string>
  /** `Type.field(arg: T): T`, `Input.field: T`, `Enum.VALUE`, `Union = A | B`, `Type implements I` */
  readonly members: Set<string>
}

/** Every named type's kind and every member with its type, as comparable strings. */
function signature(schema: GraphQLSchema): Signature {
  const types = new Map<string, string>()
  const members = new Set<string>()
  for (const type of Object.values(schema.getTypeMap()) as GraphQLNamedType[]) {
    if (type.name.startsWith('__')) continue
    types.set(type.name, type.constructor.name)
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const i of type.getInterfaces()) members.add(`${type.name} implements ${i.name}`)
      for (const field of Object.values(type.getFields())) {
        const args = field.args.map((a) => `${a.name}: ${a.type}${a.deprecationReason ? ' @deprecated' : ''}`)
        members.add(`${type.name}.${field.name}(${args.join(', ')}): ${field.type}`)
        if (field.deprecationReason) members.add(`${type.name}.${field.name} @deprecated`)
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        members.add(
          `${type.name}.${field.name}: ${field.type}${field.deprecationReason ? ' @deprecated' : ''}`,
        )
      }
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) {
        members.add(`${type.name}.${value.name}${value.deprecationReason ? ' @deprecated' : ''}`)
      }
    } else if (isUnionType(type)) {
      members.add(
        `${type.name} = ${type
          .getTypes()
          .map((m) => m.name)
          .join(' | ')}`,
      )
    }
  }
  return { types, members }
}

t.test("the served schema is DataHub's schema.graphql, type for type and field for field", async (t) => {
  const { app } = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: { query: getIntrospectionQuery({ inputValueDeprecation: true }) },
  })
  t.equal(res.statusCode, 200)
  const body = JSON.parse(res.body)
  t.notOk(body.errors, 'introspection passes the limits')
  const served = signature(buildClientSchema(body.data))
  const vendored = signature(buildSchema(readFileSync(VENDORED, 'utf8')))

  const missingTypes = [...vendored.types].filter(([name, kind]) => served.types.get(name) !== kind)
  const extraTypes = [...served.types.keys()].filter((name) => !vendored.types.has(name))
  const missing = [...vendored.members].filter((m) => !served.members.has(m))
  const extra = [...served.members].filter((m) => !vendored.members.has(m))
  t.same(missingTypes, [], 'every type of DataHub is served, with its kind')
  t.same(extraTypes, [], 'no type DataHub lacks')
  t.same(missing, [], 'every field, argument, input field, enum value and union member, with its type')
  t.same(extra, [], 'nothing DataHub lacks')

  const count = (kind: string) => [...served.types.values()].filter((k) => k === kind).length
  t.equal(served.types.size, 927, 'named types')
  t.same(
    {
      object: count('GraphQLObjectType'),
      input: count('GraphQLInputObjectType'),
      enum: count('GraphQLEnumType'),
      interface: count('GraphQLInterfaceType'),
      union: count('GraphQLUnionType'),
      scalar: count('GraphQLScalarType'),
    },
    { object: 516, input: 285, enum: 106, interface: 8, union: 7, scalar: 5 },
    "DataHub's type counts",
  )
  t.equal(served.members.size, vendored.members.size, `${served.members.size} members compared`)
  const fieldCount = (root: string) =>
    [...served.members].filter((m) => m.startsWith(`${root}.`) && m.includes('(')).length
  t.equal(fieldCount('Query'), 107, 'Query fields')
  t.equal(fieldCount('Mutation'), 169, 'Mutation fields')
  t.comment(
    `types ${served.types.size}; members ${served.members.size}; Query ${fieldCount('Query')}; Mutation ${fieldCount('Mutation')}`,
  )
})

t.test('a root field not served yet answers an error naming it, never an invented value', async (t) => {
  const { app } = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    payload: {
      query:
        '{ metric(urn: "urn:li:metric:x") { urn } semanticModel(urn: "urn:li:semanticModel:x") { urn } }',
    },
  })
  t.equal(res.statusCode, 200)
  const body = JSON.parse(res.body)
  t.same(body.data, { metric: null, semanticModel: null })
  t.same(
    body.errors.map((e: { message: string; extensions: unknown }) => [e.message, e.extensions]),
    [
      [
        'Query.metric is not served by this catalog yet',
        { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' },
      ],
      [
        'Query.semanticModel is not served by this catalog yet',
        { code: 500, type: 'SERVER_ERROR', classification: 'DataFetchingException' },
      ],
    ],
  )
})
