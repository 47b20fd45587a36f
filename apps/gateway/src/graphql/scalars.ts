import { GraphQLError, GraphQLScalarType, Kind } from 'graphql'

function toLong(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value))) {
    return Number(value)
  }
  throw new GraphQLError(`Long cannot represent the value ${JSON.stringify(value)}`)
}

/** DataHub's `Long` scalar: a 64-bit integer (kept within JavaScript's safe integers). */
export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'A 64-bit integer (milliseconds since epoch, versions)',
  serialize: toLong,
  parseValue: toLong,
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return toLong(ast.value)
    throw new GraphQLError(`Long cannot represent a ${ast.kind} literal`, { nodes: ast })
  },
})
